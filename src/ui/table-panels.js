/**
 * The table page's panels beyond the overview: versions (ListTableVersions, newest first),
 * tags, branches, indexes, and a preview of the first rows (CountTableRows + QueryTable with
 * k=50, whose Arrow IPC file answer is decoded in the page by arrow-file.js).
 */
import { api } from "./api.js";
import { decodeArrowFile } from "./arrow-file.js";
import { dataTable, errorBox, formatBytes, formatTime, formatValue, h } from "./dom.js";

export const PREVIEW_ROWS = 50;

/** A table filled page by page; a "More" button fetches the next page while there is one. */
async function pagedTable(caption, headers, fetchPage) {
  const container = h("div");
  const rows = [];
  const show = async (token) => {
    const page = await fetchPage(token);
    rows.push(...page.rows);
    const more = page.next ? h("button", { type: "button", class: "secondary" }, "More") : null;
    more?.addEventListener("click", async () => {
      more.disabled = true;
      try {
        await show(page.next);
      } catch (error) {
        container.append(errorBox(error, `Listing ${caption.toLowerCase()}`));
      }
    });
    container.replaceChildren(dataTable(caption, headers, rows), ...(more ? [more] : []));
  };
  await show(undefined);
  return container;
}

function metadataText(map) {
  const entries = Object.entries(map ?? {});
  return entries.length === 0 ? "–" : entries.map(([k, v]) => `${k}=${v}`).join(", ");
}

export function versionsPanel(parts) {
  return pagedTable("Versions", ["Version", "Created", "Manifest", "Manifest size", "Metadata"], async (token) => {
    const page = await api.listTableVersions(parts, token);
    return {
      next: page.page_token,
      rows: page.versions.map((v) => [String(v.version), formatTime(v.timestamp_millis), h("code", {}, v.manifest_path), formatBytes(v.manifest_size), metadataText(v.metadata)]),
    };
  });
}

export function tagsPanel(parts) {
  return pagedTable("Tags", ["Tag", "Version", "Branch", "Manifest size"], async (token) => {
    const page = await api.listTableTags(parts, token);
    return {
      next: page.page_token,
      rows: Object.entries(page.tags)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, tag]) => [name, String(tag.version), tag.branch ?? "main", formatBytes(tag.manifestSize)]),
    };
  });
}

export function branchesPanel(parts) {
  return pagedTable("Branches", ["Branch", "Forked from", "At version", "Created", "Manifest size", "Metadata"], async (token) => {
    const page = await api.listTableBranches(parts, token);
    return {
      next: page.page_token,
      rows: Object.entries(page.branches)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, b]) => [name, b.parentBranch ?? "main", String(b.parentVersion), formatTime(b.createAt * 1000), formatBytes(b.manifestSize), metadataText(b.metadata)]),
    };
  });
}

export function indexesPanel(parts) {
  const headers = ["Index", "Columns", "Type", "Status", "Indexed rows", "Unindexed rows", "Size", "Created"];
  return pagedTable("Indexes", headers, async (token) => {
    const page = await api.listTableIndices(parts, token);
    return {
      next: page.page_token,
      rows: page.indexes.map((i) => [
        i.index_name,
        i.columns.join(", "),
        i.index_type ?? "–",
        i.status,
        formatValue(i.num_indexed_rows),
        formatValue(i.num_unindexed_rows),
        formatBytes(i.size_bytes ?? undefined),
        i.created_at ? new Date(i.created_at).toLocaleString() : "–",
      ]),
    };
  });
}

export async function rowsPanel(parts) {
  const [count, bytes] = await Promise.all([api.countTableRows(parts), api.queryTable(parts, PREVIEW_ROWS)]);
  const { fields, rows } = decodeArrowFile(bytes);
  const caption = `First ${rows.length} of ${count} rows`;
  const headers = fields.map((f) => h("span", {}, f.name, h("span", { class: "type" }, f.label)));
  const cells = rows.map((row) => row.map((value) => (value === null ? h("span", { class: "null" }, "null") : formatValue(value))));
  return h("div", {}, dataTable(caption, headers, cells, { empty: "the table has no rows" }));
}
