/**
 * A table's page: an overview (DescribeTable with detailed metadata and GetTableStats: location,
 * version, properties, stats and the schema as a table of fields) and tabs for versions, tags,
 * branches, indexes and a row preview, each loaded the first time it is shown.
 */
import { api } from "./api.js";
import { dataTable, errorBox, facts, formatBytes, formatValue, h, loadInto, propertiesTable, replaceChildren } from "./dom.js";
import { breadcrumbs } from "./namespace-view.js";
import { tableHref } from "./routes.js";
import { branchesPanel, indexesPanel, rowsPanel, tagsPanel, versionsPanel } from "./table-panels.js";

/** `fixed_size_list<float32>[128]`, `struct<…>`: a JsonArrowDataType as one line. */
export function typeText(type) {
  const children = type.fields ?? [];
  switch (type.type) {
    case "list":
    case "large_list":
      return `${type.type}<${children[0] ? typeText(children[0].type) : "?"}>`;
    case "fixed_size_list":
      return `fixed_size_list<${children[0] ? typeText(children[0].type) : "?"}>[${type.length}]`;
    case "struct":
      return "struct";
    case "fixed_size_binary":
      return `fixed_size_binary[${type.length}]`;
    default:
      return type.length === undefined ? type.type : `${type.type}(${type.length})`;
  }
}

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

async function overviewPanel(parts) {
  const [table, stats] = await Promise.all([api.describeTable(parts), api.getTableStats(parts).catch((error) => error)]);
  const statsFailed = stats instanceof Error;
  const statsFacts = statsFailed
    ? []
    : [
        ["Rows", formatValue(stats.num_rows)],
        ["Size", formatBytes(stats.total_bytes)],
        ["Indexes", formatValue(stats.num_indices)],
        ["Fragments", `${stats.fragment_stats.num_fragments} (${stats.fragment_stats.num_small_fragments} small)`],
        ["Rows per fragment", `min ${stats.fragment_stats.lengths.min}, median ${stats.fragment_stats.lengths.p50}, max ${stats.fragment_stats.lengths.max}`],
      ];
  return h(
    "div",
    {},
    facts([
      ["Location", h("code", {}, table.location ?? "–")],
      ["Version", table.version === undefined ? undefined : String(table.version)],
      ["Declared only", table.is_only_declared === undefined || table.is_only_declared === null ? undefined : table.is_only_declared ? "yes" : "no"],
      ["Managed versioning", table.managed_versioning === undefined ? undefined : table.managed_versioning ? "on" : "off"],
      ["Deleted rows", table.stats ? formatValue(table.stats.num_deleted_rows) : undefined],
      ...statsFacts,
    ]),
    statsFailed ? errorBox(stats, "Reading statistics") : null,
    propertiesTable("Table properties", table.properties),
    table.schema ? dataTable("Schema", ["Field", "Type", "Nullable", "Metadata"], schemaRows(table.schema.fields)) : h("p", { class: "muted" }, "No schema (the table is only declared)."),
  );
}

const TABS = [
  ["overview", "Overview", overviewPanel, "Describing the table"],
  ["versions", "Versions", versionsPanel, "Listing versions"],
  ["tags", "Tags", tagsPanel, "Listing tags"],
  ["branches", "Branches", branchesPanel, "Listing branches"],
  ["indexes", "Indexes", indexesPanel, "Listing indexes"],
  ["rows", "Rows", rowsPanel, "Reading rows"],
];

/** WAI-ARIA tabs: arrow keys, Home and End move between tabs; Tab moves into the panel. */
function tabs(parts, initial) {
  const list = h("div", { role: "tablist", "aria-label": "Table details", class: "tabs" });
  const panels = [];
  const buttons = TABS.map(([key, label, load, doing], index) => {
    const panel = h("div", { role: "tabpanel", id: `panel-${key}`, "aria-labelledby": `tab-${key}`, tabindex: 0, hidden: true });
    panels.push(panel);
    let loaded = false;
    const button = h("button", { type: "button", role: "tab", id: `tab-${key}`, "aria-controls": `panel-${key}`, "aria-selected": "false", tabindex: -1 }, label);
    button.addEventListener("click", () => select(index, true));
    button.addEventListener("keydown", (event) => {
      const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      select((next + TABS.length) % TABS.length, true);
    });
    button.show = () => {
      if (loaded) return;
      loaded = true;
      loadInto(panel, doing, () => load(parts));
    };
    return button;
  });
  const select = (index, focus = false) => {
    // The open tab is kept in the URL without a navigation, so a reload or bookmark returns to it.
    if (focus) history.replaceState(null, "", tableHref(parts, index === 0 ? undefined : TABS[index][0]));
    buttons.forEach((button, i) => {
      const selected = i === index;
      button.setAttribute("aria-selected", String(selected));
      button.tabIndex = selected ? 0 : -1;
      panels[i].hidden = !selected;
    });
    buttons[index].show();
    if (focus) buttons[index].focus();
  };
  list.append(...buttons);
  const initialIndex = Math.max(0, TABS.findIndex(([key]) => key === initial));
  select(initialIndex);
  return [list, ...panels];
}

export function renderTable(main, parts, tab) {
  replaceChildren(
    main,
    breadcrumbs(parts, { lastIsTable: true }),
    h("h2", { tabindex: -1, class: "view-title" }, `Table ${parts.join(".")}`),
    tabs(parts, tab),
  );
}
