/**
 * A table's page: an overview (DescribeTable with detailed metadata and GetTableStats: location,
 * version, properties, stats and the schema as a table of fields) and tabs to explore its data,
 * its versions, tags, branches and indexes, to change it, and who may do what on it (Access); each tab loads the first time it is
 * shown, and again after a change made elsewhere on the page.
 */
import { accessPanel } from "./access-panel.js";
import { api, connection } from "./api.js";
import { dataTable, errorBox, facts, formatBytes, formatCount, h, loadInto, propertiesTable, replaceChildren } from "./dom.js";
import { explorePanel } from "./explore-panel.js";
import { historyPanel } from "./history-panel.js";
import { indexesPanel } from "./indexes-panel.js";
import { managePanel } from "./manage-panel.js";
import { breadcrumbs } from "./namespace-view.js";
import { branchesPanel, tagsPanel } from "./refs-panels.js";
import { tableHref } from "./routes.js";
import { typeText } from "./schema-text.js";

/** Schema rows, struct children indented under their parent with their full path. */
function schemaRows(fields, prefix = "", depth = 0) {
  return fields.flatMap((field) => {
    const path = prefix ? `${prefix}.${field.name}` : field.name;
    const row = [
      h("code", { class: `depth-${Math.min(depth, 3)}` }, path),
      h("code", {}, typeText(field.type)),
      field.nullable ? "yes" : "no",
      Object.entries(field.metadata ?? {}).map(([k, v]) => `${k}=${v}`).join(", ") || "–",
    ];
    const children = field.type.type === "struct" ? schemaRows(field.type.fields ?? [], path, depth + 1) : [];
    return [row, ...children];
  });
}

/** What compacting would reclaim: small fragments merged, deleted rows dropped from the files. */
function compactionGain(smallFragments, deletedRows) {
  if (smallFragments <= 1 && deletedRows === 0) return "gain nothing";
  return `merge ${formatCount(smallFragments)} small fragments and drop ${formatCount(deletedRows)} deleted rows`;
}

async function overviewPanel(parts) {
  const [table, stats] = await Promise.all([api.describeTable(parts), api.getTableStats(parts).catch((error) => error)]);
  const statsFailed = stats instanceof Error;
  const lengths = statsFailed ? undefined : stats.fragment_stats.lengths;
  const statsFacts = statsFailed
    ? []
    : [
        ["Size", formatBytes(stats.total_bytes)],
        ["Indexes", formatCount(stats.num_indices)],
        ["Fragments", `${formatCount(stats.fragment_stats.num_fragments)} (${formatCount(stats.fragment_stats.num_small_fragments)} small)`],
        ["Rows per fragment", `min ${formatCount(lengths.min)}, median ${formatCount(lengths.p50)}, max ${formatCount(lengths.max)}`],
        ["Compaction would", compactionGain(stats.fragment_stats.num_small_fragments, table.stats?.num_deleted_rows ?? 0)],
      ];
  return h(
    "div",
    {},
    facts([
      ["Location", h("code", {}, table.location ?? "–")],
      ["Version", table.version === undefined ? undefined : String(table.version)],
      ["Declared only", table.is_only_declared === undefined || table.is_only_declared === null ? undefined : table.is_only_declared ? "yes" : "no"],
      ["Managed versioning", table.managed_versioning === undefined ? undefined : table.managed_versioning ? "on" : "off"],
      ["Rows", statsFailed ? undefined : formatCount(stats.num_rows)],
      ["Deleted rows", table.stats ? formatCount(table.stats.num_deleted_rows) : undefined],
      ...statsFacts,
    ]),
    statsFailed ? errorBox(stats, "Reading statistics") : null,
    propertiesTable("Table properties", table.properties),
    table.schema ? dataTable("Schema", ["Field", "Type", "Nullable", "Metadata"], schemaRows(table.schema.fields)) : h("p", { class: "muted" }, "No schema (the table is only declared)."),
  );
}

const TABS = [
  ["overview", "Overview", overviewPanel, "Describing the table"],
  ["data", "Data", explorePanel, "Reading the table"],
  ["versions", "Versions", historyPanel, "Reading the versions"],
  ["tags", "Tags", tagsPanel, "Listing tags"],
  ["branches", "Branches", branchesPanel, "Listing branches"],
  ["indexes", "Indexes", indexesPanel, "Listing indexes"],
  ["access", "Access", (parts, context) => accessPanel("table", connection.database || "default", parts, context), "Listing the grants"],
  ["manage", "Manage", managePanel, "Preparing the actions"],
];

/**
 * WAI-ARIA tabs: arrow keys, Home and End move between tabs; Tab moves into the panel. Each panel
 * gets `context` plus `reload()` (draw this panel again) and `tableChanged({ keep })` (every panel
 * is stale; the open one is drawn again unless `keep`, for a panel that shows its own result).
 */
function tabs(parts, initial, context) {
  const list = h("div", { role: "tablist", "aria-label": "Table details", class: "tabs" });
  const panels = [];
  let current = 0;
  const buttons = TABS.map(([key, label, load, doing], index) => {
    const panel = h("div", { role: "tabpanel", id: `panel-${key}`, "aria-labelledby": `tab-${key}`, tabindex: 0, hidden: true });
    panels.push(panel);
    const button = h("button", { type: "button", role: "tab", id: `tab-${key}`, "aria-controls": `panel-${key}`, "aria-selected": "false", tabindex: -1 }, label);
    button.addEventListener("click", () => select(index, true));
    button.addEventListener("keydown", (event) => {
      const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      select((next + TABS.length) % TABS.length, true);
    });
    const panelContext = {
      ...context,
      reload: () => loadInto(panel, doing, () => load(parts, panelContext)),
      tableChanged: ({ keep = false } = {}) => {
        buttons.forEach((other, i) => {
          if (i !== index) other.loaded = false;
        });
        if (!keep) panelContext.reload();
      },
    };
    button.loaded = false;
    button.show = () => {
      if (button.loaded) return;
      button.loaded = true;
      panelContext.reload();
    };
    return button;
  });
  const select = (index, focus = false) => {
    current = index;
    // The open tab is kept in the URL without a navigation, so a reload or bookmark returns to it.
    if (focus) history.replaceState(null, "", tableHref(parts, index === 0 ? undefined : TABS[index][0]));
    buttons.forEach((button, i) => {
      const selected = i === current;
      button.setAttribute("aria-selected", String(selected));
      button.tabIndex = selected ? 0 : -1;
      panels[i].hidden = !selected;
    });
    buttons[current].show();
    if (focus) buttons[current].focus();
  };
  list.append(...buttons);
  const initialIndex = Math.max(0, TABS.findIndex(([key]) => key === initial));
  select(initialIndex);
  return [list, ...panels];
}

export function renderTable(main, parts, tab, context) {
  replaceChildren(
    main,
    breadcrumbs(parts, { lastIsTable: true }),
    h("h2", { tabindex: -1, class: "view-title" }, `Table ${parts.join(".")}`),
    tabs(parts, tab, context),
  );
}
