/**
 * The namespace page's "Create a table from a file" form: the file (Arrow IPC, Parquet, CSV, TSV
 * or JSON lines) is read in the page, its inferred columns are shown, and CreateTable receives it
 * as an Arrow IPC stream. The new table then opens on its Data tab.
 */
import { api } from "./api.js";
import { actionError, formatCount, h, labelled, replaceChildren, stackForm } from "./dom.js";
import { ACCEPTED, ipcStream, readTableFile } from "./file-import.js";
import { tableHref } from "./routes.js";

const NAME_PATTERN = "[A-Za-z0-9_.\\-]+";

/** The file's base name as a table name: `sales 2024.csv` → `sales_2024`. */
export function tableNameOf(fileName) {
  return fileName.replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^[._]+/, "") || "table";
}

export function createTableForm(parts, context) {
  const result = h("div", { class: "form-result" });
  const file = h("input", { id: "new-table-file", type: "file", accept: ACCEPTED, required: true, "aria-describedby": "new-table-file-hint" });
  const name = h("input", { id: "new-table-name", required: true, pattern: NAME_PATTERN, autocomplete: "off" });
  file.addEventListener("change", () => {
    if (file.files[0] && name.value === "") name.value = tableNameOf(file.files[0].name);
  });
  const hint = h("p", { id: "new-table-file-hint", class: "muted" }, "Arrow IPC, Parquet, CSV, TSV or JSON lines (one object a line). Lists of numbers of one length become vectors.");
  const form = stackForm([labelled("File", file), hint, labelled("Table name", name)], "Create table", result);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const table = [...parts, name.value.trim()];
    replaceChildren(result, h("p", { class: "muted" }, "Reading the file…"));
    try {
      const read = await readTableFile(file.files[0]);
      replaceChildren(result, h("p", { class: "muted" }, `Uploading ${formatCount(read.table.numRows)} rows: ${read.table.schema.fields.map((f) => `${f.name} (${f.type})`).join(", ")}…`));
      await api.createTable(table, ipcStream(read.table));
      context.announce(`Table ${table.join(".")} created from ${file.files[0].name}.`, { navigating: true });
      context.refreshTree();
      location.hash = tableHref(table, "data");
    } catch (error) {
      replaceChildren(result, actionError(error, "Creating the table"));
    }
  });
  return h("section", { "aria-labelledby": "create-table-heading" }, h("h3", { id: "create-table-heading" }, "Create a table from a file"), form);
}
