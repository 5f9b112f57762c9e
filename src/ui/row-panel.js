/**
 * One row of a result, every field at once, in a modal dialog: each column's name, type and
 * whole value (a vector summarised by its length and first values, openable in full), and the row
 * as JSON with a button that copies it; a blob with its size, type, Download and, for a small
 * image, a preview. Escape or Close returns to the grid.
 */
import { blobField } from "./blob-cell.js";
import { BlobValue } from "./blob-values.js";
import { formatCount, h } from "./dom.js";
import { rowObject } from "./export-rows.js";
import { valueCell } from "./value-cell.js";

function fieldValue(value) {
  if (value instanceof BlobValue) return blobField(value);
  if (value === "") return h("span", { class: "empty-string", title: "empty string" }, '""');
  return valueCell(value);
}

/** Opens the dialog for `row` (its position in the result is `number`), focusing Close. */
export function openRowPanel(fields, row, number) {
  const json = JSON.stringify(rowObject(fields, row), null, 2);
  const close = h("button", { type: "button", class: "secondary" }, "Close");
  const copy = h("button", { type: "button" }, "Copy as JSON");
  const copied = h("span", { class: "muted", role: "status" });
  const dialog = h(
    "dialog",
    { class: "row-panel", "aria-labelledby": "row-panel-title" },
    h("div", { class: "row-panel-head" }, h("h3", { id: "row-panel-title" }, `Row ${formatCount(number)}`), copy, copied, close),
    h("dl", { class: "facts row-fields" }, fields.map((field, i) => [h("dt", {}, field.name, h("span", { class: "type" }, field.label)), h("dd", {}, fieldValue(row[i]))])),
    h("details", { class: "row-json" }, h("summary", {}, "JSON"), h("pre", { tabindex: 0 }, json)),
  );
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(json);
      copied.textContent = "Copied.";
    } catch {
      copied.textContent = "The browser refused the clipboard; copy the JSON below.";
      dialog.querySelector(".row-json").open = true;
    }
  });
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
  return dialog;
}
