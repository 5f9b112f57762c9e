/**
 * A table's Versions tab: its newest versions (ListTableVersions) with, for each, the rows it
 * holds (CountTableRows at that version) and its fragments and deleted rows (DescribeTable at that
 * version), drawn as plots over the versions, and a Restore action that makes an old version the
 * newest again (RestoreTable). Deleted rows and many small fragments are what compaction reclaims.
 */
import { api } from "./api.js";
import { dataTable, errorBox, formatBytes, formatTime, h, replaceChildren } from "./dom.js";
import { barChart, lineChart } from "./charts.js";

/** How many per-version reads run at once: enough to be quick, few enough not to crowd the server. */
const CONCURRENT_READS = 4;

async function mapLimited(items, limit, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Each listed version with `rows`, `fragments` and `deletedRows` read at that version. */
async function versionFacts(parts, versions) {
  return mapLimited(versions, CONCURRENT_READS, async (v) => {
    const [rows, described] = await Promise.all([api.countTableRows(parts, { version: v.version }), api.describeTable(parts, { version: v.version })]);
    return { ...v, rows, fragments: described.stats?.num_fragments ?? 0, deletedRows: described.stats?.num_deleted_rows ?? 0 };
  });
}

function plots(facts) {
  const label = (v, what) => `Version ${v.version} (${formatTime(v.timestamp_millis)}): ${what}`;
  const ascending = [...facts].sort((a, b) => a.version - b.version);
  return h(
    "div",
    { class: "charts" },
    lineChart("Rows per version", ascending.map((v) => ({ x: v.version, y: v.rows, label: label(v, `${v.rows.toLocaleString("en-US")} rows`) })), { xLabel: "version" }),
    barChart("Fragments per version", ascending.map((v) => ({ key: v.version, value: v.fragments, label: label(v, `${v.fragments} fragments`) })), { xLabel: "version" }),
    barChart("Deleted rows per version", ascending.map((v) => ({ key: v.version, value: v.deletedRows, label: label(v, `${v.deletedRows.toLocaleString("en-US")} deleted rows`) })), { xLabel: "version" }),
  );
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
      replaceChildren(result, errorBox(error, `Restoring version ${version}`));
    }
  });
  return button;
}

export async function historyPanel(parts, context) {
  const page = await api.listTableVersions(parts);
  const facts = await versionFacts(parts, page.versions);
  const latest = Math.max(...facts.map((v) => v.version));
  const result = h("div");
  const rows = facts.map((v) => [
    String(v.version),
    formatTime(v.timestamp_millis),
    v.rows.toLocaleString("en-US"),
    String(v.fragments),
    v.deletedRows.toLocaleString("en-US"),
    formatBytes(v.manifest_size),
    restoreButton(parts, v.version, latest, context, result),
  ]);
  return h(
    "div",
    {},
    facts.length > 0 ? plots(facts) : null,
    page.page_token ? h("p", { class: "muted" }, `The ${facts.length} newest versions.`) : null,
    result,
    dataTable("Versions, newest first", ["Version", "Created", "Rows", "Fragments", "Deleted rows", "Manifest size", "Action"], rows),
  );
}
