/**
 * A table's Manage tab: add rows from a file (InsertIntoTable), delete rows matching a predicate
 * (DeleteFromTable), compact it, clean up old versions and optimise its indexes, refresh it when
 * it is a materialized view, rename it (RenameTable) and drop it (DropTable). Every change that loses data asks for confirmation first; a drop asks for the
 * table's name to be typed.
 */
import { api } from "./api.js";
import { tableFromIPC } from "./arrow.js";
import { actionError, actionSucceeded, formatBytes, formatCount, h, replaceChildren } from "./dom.js";
import { ACCEPTED, ipcStream, readTableFile } from "./file-import.js";
import { watchJob } from "./job-progress.js";
import { namespaceHref, tableHref } from "./routes.js";

function section(heading, hint, form) {
  return h("section", { class: "action" }, h("h3", {}, heading), hint ? h("p", { class: "muted" }, hint) : null, form);
}

/** A form whose submit runs `action(result)`; an Error it throws is shown as `doing` failing. */
function actionForm(doing, controls, button, action, { danger = false } = {}) {
  const result = h("div", { class: "form-result" });
  const form = h("form", { class: "stack" }, controls, h("div", {}, h("button", { type: "submit", class: danger ? "danger" : undefined }, button)), result);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    replaceChildren(result);
    try {
      await action(result);
      actionSucceeded();
    } catch (error) {
      replaceChildren(result, actionError(error, doing));
    }
  });
  return form;
}

function addRows(parts, context) {
  const file = h("input", { id: "add-rows-file", type: "file", accept: ACCEPTED, required: true });
  return section(
    "Add rows from a file",
    "Arrow IPC, Parquet, CSV, TSV or JSON lines. Columns are matched by name and take the table's types; missing ones are null.",
    actionForm("Adding rows", [h("label", { for: file.id }, "File"), file], "Add rows", async (result) => {
      // The table's Arrow schema, from a one-row answer, types the file's columns.
      const target = tableFromIPC(await api.queryTable(parts, { k: 1, vector: null })).schema;
      const { table } = await readTableFile(file.files[0], target);
      const answer = await api.insertIntoTable(parts, ipcStream(table));
      replaceChildren(result, h("p", { role: "status" }, `Added ${formatCount(table.numRows)} rows; the table is at version ${answer.version}.`));
      context.tableChanged({ keep: true });
    }),
  );
}

function deleteRows(parts, context) {
  const predicate = h("input", { id: "delete-predicate", required: true, autocomplete: "off", spellcheck: "false", placeholder: "id < 100" });
  return section(
    "Delete rows",
    "Rows matching the SQL predicate are deleted in a new version; older versions keep them.",
    actionForm("Deleting rows", [h("label", { for: predicate.id }, "Predicate"), predicate], "Delete matching rows", async (result) => {
      const where = predicate.value.trim();
      const matching = await api.countTableRows(parts, {}, where);
      if (!confirm(`Delete the ${formatCount(matching)} rows of ${parts.join(".")} where ${where}?`)) return;
      const answer = await api.deleteFromTable(parts, where);
      replaceChildren(result, h("p", { role: "status" }, `Deleted ${formatCount(matching)} rows; the table is at version ${answer.version}.`));
      context.tableChanged({ keep: true });
    }, { danger: true }),
  );
}

function refreshView(parts) {
  const jobs = h("div");
  return section(
    "Refresh the materialized view",
    "Only for a materialized view: a job brings it up to date with its source.",
    actionForm("Refreshing the view", [jobs], "Refresh view", async () => {
      const { job_id: jobId } = await api.refreshMaterializedView(parts);
      jobs.prepend(watchJob(jobId, "Refreshing the view"));
    }),
  );
}

/** What a maintenance task did, in a sentence. */
function maintenanceOutcome(answer) {
  const fragments = `${formatCount(answer.fragments_before)} → ${formatCount(answer.fragments_after)} fragments`;
  const versions = answer.versions_removed > 0 ? `, ${formatCount(answer.versions_removed)} old versions removed (${formatBytes(answer.bytes_removed)})` : "";
  const kept = answer.protected_tags.length > 0 ? `; tags ${answer.protected_tags.join(", ")} kept older versions` : "";
  return `Done: ${fragments}${versions}${kept}; the table is at version ${answer.version}.`;
}

function maintenance(parts, context) {
  const days = h("input", { id: "cleanup-days", type: "number", min: "0", step: "1", value: "7", required: true });
  const run = (doing, task) => async (result) => {
    replaceChildren(result, h("p", { role: "status" }, `${doing}…`));
    replaceChildren(result, h("p", { role: "status" }, maintenanceOutcome(await task())));
    context.tableChanged({ keep: true });
  };
  return section(
    "Maintenance",
    "Compaction merges small fragments and drops deleted rows; cleanup removes versions older than the given age, never a tagged version or a branch's base; index optimisation brings indexes up to date with new rows.",
    h(
      "div",
      { class: "stack" },
      actionForm("Compacting the table", [], "Compact", run("Compacting", () => api.compactTable(parts))),
      actionForm("Cleaning up old versions", [h("label", { for: days.id }, "Remove versions older than (days)"), days], "Clean up versions", run("Cleaning up", () => api.cleanupTableVersions(parts, Number(days.value) * 86_400))),
      actionForm("Optimising the indexes", [], "Optimise indexes", run("Optimising", () => api.optimizeTableIndices(parts))),
    ),
  );
}

function rename(parts, context) {
  const name = h("input", { id: "rename-to", required: true, pattern: "[A-Za-z0-9_.\\-]+", autocomplete: "off", value: parts[parts.length - 1] });
  return section(
    "Rename",
    null,
    actionForm("Renaming the table", [h("label", { for: name.id }, "New name"), name], "Rename table", async () => {
      const target = [...parts.slice(0, -1), name.value.trim()];
      if (!confirm(`Rename ${parts.join(".")} to ${target.join(".")}? Clients using the old name stop finding it.`)) return;
      await api.renameTable(parts, name.value.trim());
      context.announce(`Table renamed to ${target.join(".")}.`, { navigating: true });
      context.refreshTree();
      location.hash = tableHref(target);
    }),
  );
}

function drop(parts, context) {
  const name = parts[parts.length - 1];
  const typed = h("input", { id: "drop-confirm", required: true, autocomplete: "off", "aria-describedby": "drop-confirm-hint" });
  return section(
    "Drop the table",
    null,
    actionForm("Dropping the table", [h("label", { for: typed.id }, `Type ${name} to confirm`), typed, h("p", { id: "drop-confirm-hint", class: "muted" }, "Dropping deletes the table's data and every version.")], "Drop table", async () => {
      if (typed.value.trim() !== name) throw new Error(`type "${name}" to confirm`);
      await api.dropTable(parts);
      context.announce(`Table ${parts.join(".")} dropped.`, { navigating: true });
      context.refreshTree();
      location.hash = namespaceHref(parts.slice(0, -1));
    }, { danger: true }),
  );
}

export async function managePanel(parts, context) {
  return h("div", { class: "actions" }, addRows(parts, context), deleteRows(parts, context), maintenance(parts, context), refreshView(parts), rename(parts, context), drop(parts, context));
}
