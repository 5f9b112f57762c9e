/**
 * A table's Versions tab: its newest versions (ListTableVersions) with, for each, the rows it
 * holds (CountTableRows at that version) and its fragments and deleted rows (DescribeTable at that
 * version), drawn as plots over the versions, and a Restore action that makes an old version the
 * newest again (RestoreTable). Deleted rows and many small fragments are what compaction reclaims.
 */
import { api } from "./api.js";
import { actionError, dataTable, facts, formatBytes, formatCount, formatTime, h, loadInto, replaceChildren } from "./dom.js";
import { operationText } from "./operation-text.js";
import { typeText } from "./schema-text.js";
import { barChart, lineChart } from "./charts.js";
import { mapLimited } from "./map-limited.js";

/** How many per-version reads run at once: enough to be quick, few enough not to crowd the server. */
const CONCURRENT_READS = 4;

/** Each listed version with `rows`, `fragments` and `deletedRows` read at that version. */
async function versionFacts(parts, versions) {
  return mapLimited(versions, CONCURRENT_READS, async (v) => {
    const [rows, described] = await Promise.all([api.countTableRows(parts, { version: v.version }), api.describeTable(parts, { version: v.version })]);
    return { ...v, rows, fragments: described.stats?.num_fragments ?? 0, deletedRows: described.stats?.num_deleted_rows ?? 0 };
  });
}

/** The change in rows from the version before, as "+3" / "−2" / "±0"; the oldest listed has none. */
function rowChange(v, previous) {
  if (!previous) return "";
  const change = v.rows - previous.rows;
  if (change === 0) return "±0";
  return change > 0 ? `+${formatCount(change)}` : `−${formatCount(-change)}`;
}

/** Tags of the main branch, by version. */
async function tagsByVersion(parts) {
  const byVersion = new Map();
  let token;
  do {
    const page = await api.listTableTags(parts, token);
    for (const [name, tag] of Object.entries(page.tags)) {
      if (tag.branch) continue;
      byVersion.set(tag.version, [...(byVersion.get(tag.version) ?? []), name].sort());
    }
    token = page.page_token;
  } while (token);
  return byVersion;
}

function plots(listed, tags) {
  const tagged = (v) => (tags.get(v.version) ? `; tagged ${tags.get(v.version).join(", ")}` : "");
  const label = (v, what) => `Version ${v.version} (${formatTime(v.timestamp_millis)}, ${operationText(v)}): ${what}${tagged(v)}`;
  const ascending = [...listed].sort((a, b) => a.version - b.version);
  const marks = (v) => (tags.get(v.version) ? tags.get(v.version).join(", ") : undefined);
  return h(
    "div",
    { class: "charts" },
    lineChart("Rows per version", ascending.map((v) => ({ x: v.version, y: v.rows, label: label(v, `${formatCount(v.rows)} rows`), mark: marks(v) })), { xLabel: "version" }),
    barChart("Fragments per version", ascending.map((v) => ({ key: v.version, value: v.fragments, label: label(v, `${formatCount(v.fragments)} fragments`), mark: marks(v) })), { xLabel: "version" }),
    barChart("Deleted rows per version", ascending.map((v) => ({ key: v.version, value: v.deletedRows, label: label(v, `${formatCount(v.deletedRows)} deleted rows`), mark: marks(v) })), { xLabel: "version" }),
  );
}

function tagBadges(names) {
  return (names ?? []).map((name) => h("span", { class: "badge tag", title: `Tag ${name}` }, h("span", { class: "visually-hidden" }, "tag "), name));
}

/** The fields of a schema by path, with their types as text. */
function fieldTypes(schema, prefix = "", into = new Map()) {
  for (const field of schema?.fields ?? []) {
    const path = prefix ? `${prefix}.${field.name}` : field.name;
    into.set(path, typeText(field.type));
    if (field.type.type === "struct") fieldTypes(field.type, path, into);
  }
  return into;
}

/** How version `v` differs from the latest: rows, and the schema's fields added, removed or retyped. */
async function comparison(parts, v, latest) {
  const [then, now, rowsThen, rowsNow] = await Promise.all([
    api.describeTable(parts, { version: v.version }),
    api.describeTable(parts),
    api.countTableRows(parts, { version: v.version }),
    api.countTableRows(parts),
  ]);
  const before = fieldTypes(then.schema);
  const after = fieldTypes(now.schema);
  const changes = [];
  for (const [path, type] of after) {
    if (!before.has(path)) changes.push([h("code", {}, path), "added", h("code", {}, type)]);
    else if (before.get(path) !== type) changes.push([h("code", {}, path), "type changed", h("code", {}, `${before.get(path)} → ${type}`)]);
  }
  for (const [path, type] of before) if (!after.has(path)) changes.push([h("code", {}, path), "removed", h("code", {}, type)]);
  const change = rowsNow - rowsThen;
  return h(
    "section",
    { class: "comparison", "aria-label": `Version ${v.version} compared with the current version` },
    h("h3", {}, `Version ${v.version} compared with the current version ${latest}`),
    facts([
      ["Rows then", h("span", { class: "num" }, formatCount(rowsThen))],
      ["Rows now", h("span", { class: "num" }, formatCount(rowsNow))],
      ["Difference", h("span", { class: "num" }, `${change > 0 ? "+" : change < 0 ? "−" : "±"}${formatCount(Math.abs(change))}`)],
    ]),
    changes.length === 0 ? h("p", { class: "muted" }, "Same schema.") : dataTable("Schema changes since then", ["Field", "Change", "Type"], changes),
  );
}

function compareButton(parts, v, latest, compared) {
  if (v.version === latest) return null;
  const button = h("button", { type: "button", class: "secondary small", "aria-label": `Compare version ${v.version} with current` }, "Compare");
  button.addEventListener("click", () => {
    loadInto(compared, `Comparing version ${v.version}`, () => comparison(parts, v, latest));
    compared.scrollIntoView?.({ block: "nearest" });
  });
  return button;
}

function restoreButton(parts, version, latest, context, result) {
  if (version === latest) return h("span", { class: "muted" }, "latest");
  const button = h("button", { type: "button", class: "secondary small", "aria-label": `Restore version ${version}` }, "Restore");
  button.addEventListener("click", async () => {
    if (!confirm(`Restore version ${version} of ${parts.join(".")}? It becomes the newest version; later versions stay in the history.`)) return;
    try {
      await api.restoreTable(parts, version);
      context.announce(`Version ${version} restored.`);
      context.tableChanged();
    } catch (error) {
      replaceChildren(result, actionError(error, `Restoring version ${version}`));
    }
  });
  return button;
}

export async function historyPanel(parts, context) {
  const [page, tags] = await Promise.all([api.listTableVersions(parts), tagsByVersion(parts)]);
  const listed = await versionFacts(parts, page.versions);
  const latest = Math.max(...listed.map((v) => v.version));
  const result = h("div");
  const compared = h("div", { class: "compared" });
  // Newest first: the version before each one is the next in the list.
  const rows = listed.map((v, i) => [
    h("span", { class: "num" }, String(v.version), tagBadges(tags.get(v.version))),
    h("span", { class: "nowrap" }, formatTime(v.timestamp_millis)),
    h("span", { class: "operation" }, operationText(v)),
    h("span", { class: "num" }, formatCount(v.rows)),
    h("span", { class: "num" }, rowChange(v, listed[i + 1])),
    h("span", { class: "num" }, formatCount(v.fragments)),
    h("span", { class: "num" }, formatCount(v.deletedRows)),
    h("span", { class: "num" }, formatBytes(v.manifest_size)),
    h("span", { class: "row" }, compareButton(parts, v, latest, compared), restoreButton(parts, v.version, latest, context, result)),
  ]);
  return h(
    "div",
    {},
    listed.length > 0 ? plots(listed, tags) : null,
    page.page_token ? h("p", { class: "muted" }, `The ${formatCount(listed.length)} newest versions.`) : null,
    result,
    compared,
    dataTable("Versions, newest first", ["Version", "Created", "Operation", "Rows", "Change", "Fragments", "Deleted rows", "Manifest size", "Action"], rows),
  );
}
