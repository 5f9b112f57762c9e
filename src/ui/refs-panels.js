/**
 * A table's Tags and Branches tabs: each lists what exists, with a form creating one (a tag names
 * a version; a branch forks from a version of main) and a Delete button on each.
 */
import { api } from "./api.js";
import { actionError, formatBytes, formatTime, h, labelled, replaceChildren, stackForm } from "./dom.js";
import { pagedTable } from "./paged-table.js";

const NAME_PATTERN = "[A-Za-z0-9_.\\-]+";

function metadataText(map) {
  const entries = Object.entries(map ?? {});
  return entries.length === 0 ? "–" : entries.map(([k, v]) => `${k}=${v}`).join(", ");
}

/** A page of a name → contents listing as `pagedTable` rows, by name; `row(name, contents)` makes each. */
function pageRowsByName(page, byName, row) {
  return {
    next: page.page_token,
    rows: Object.entries(byName)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, contents]) => row(name, contents)),
  };
}

/** A small form of a name and a version; `submit(name, version)` does the work. */
function nameAndVersionForm(prefix, { heading, nameLabel, versionLabel, versionHint, button, submit }) {
  const result = h("div");
  const name = h("input", { id: `${prefix}-name`, required: true, pattern: NAME_PATTERN, autocomplete: "off" });
  const version = h("input", { id: `${prefix}-version`, type: "number", min: 1, step: 1, "aria-describedby": `${prefix}-version-hint` });
  const hint = h("p", { class: "muted", id: `${prefix}-version-hint` }, versionHint);
  const form = stackForm([labelled(nameLabel, name), labelled(versionLabel, version), hint], button, result);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await submit(name.value.trim(), version.value === "" ? undefined : Number(version.value));
    } catch (error) {
      replaceChildren(result, actionError(error, heading));
    }
  });
  return h("section", { class: "action" }, h("h3", {}, heading), form);
}

function deleteButton(label, confirmText, doing, remove, context, result) {
  const button = h("button", { type: "button", class: "danger small", "aria-label": label }, "Delete");
  button.addEventListener("click", async () => {
    if (!confirm(confirmText)) return;
    try {
      await remove();
      context.announce(`${label}: done.`);
      context.reload();
    } catch (error) {
      replaceChildren(result, actionError(error, doing));
    }
  });
  return button;
}

export async function tagsPanel(parts, context) {
  const result = h("div");
  const latest = (await api.describeTable(parts)).version;
  const list = await pagedTable("Tags", ["Tag", "Version", "Branch", "Manifest size", "Action"], async (token) => {
    const page = await api.listTableTags(parts, token);
    return pageRowsByName(page, page.tags, (name, tag) => [
      name,
      String(tag.version),
      tag.branch ?? "main",
      formatBytes(tag.manifestSize),
      deleteButton(`Delete tag ${name}`, `Delete tag ${name}? The version it names stays.`, `Deleting tag ${name}`, () => api.deleteTableTag(parts, name), context, result),
    ]);
  });
  const form = nameAndVersionForm("new-tag", {
    heading: "Create a tag",
    nameLabel: "Tag name",
    versionLabel: "Version",
    versionHint: `Empty for the latest (${latest}).`,
    button: "Create tag",
    submit: async (name, version) => {
      await api.createTableTag(parts, name, version ?? latest);
      context.announce(`Tag ${name} created.`);
      context.reload();
    },
  });
  return h("div", {}, list, result, form);
}

export async function branchesPanel(parts, context) {
  const result = h("div");
  const list = await pagedTable("Branches", ["Branch", "Forked from", "At version", "Created", "Manifest size", "Metadata", "Action"], async (token) => {
    const page = await api.listTableBranches(parts, token);
    return pageRowsByName(page, page.branches, (name, b) => [
      name,
      b.parentBranch ?? "main",
      String(b.parentVersion),
      formatTime(b.createAt * 1000),
      formatBytes(b.manifestSize),
      metadataText(b.metadata),
      deleteButton(`Delete branch ${name}`, `Delete branch ${name} and the versions only it holds?`, `Deleting branch ${name}`, () => api.deleteTableBranch(parts, name), context, result),
    ]);
  });
  const form = nameAndVersionForm("new-branch", {
    heading: "Create a branch",
    nameLabel: "Branch name",
    versionLabel: "From version of main",
    versionHint: "Empty for the latest.",
    button: "Create branch",
    submit: async (name, version) => {
      await api.createTableBranch(parts, name, version);
      context.announce(`Branch ${name} created.`);
      context.reload();
    },
  });
  return h("div", {}, list, result, form);
}
