/**
 * A database's home: every table (ListAllTables) with its rows and size (GetTableStats), its
 * version count and last write (the newest entry of ListTableVersions) with the rows that write
 * changed (CountTableRows at the version before), the totals, a plot of the
 * largest tables, and the tables dropped but kept for undrop (ListDroppedTables, UndropTable) when
 * the server keeps them.
 */
import { api, connection } from "./api.js";
import { barChart } from "./charts.js";
import { actionError, dataTable, errorBox, facts, formatBytes, formatTime, h, loadInto, replaceChildren } from "./dom.js";
import { operationText } from "./operation-text.js";
import { tableHref } from "./routes.js";
import { mapLimited } from "./map-limited.js";

/** How many tables are described at once, and at most. */
const CONCURRENT_READS = 4;
const MAX_TABLES = 500;
/** Namespaces searched for dropped tables, breadth first. */
const MAX_NAMESPACES = 200;
/** The delimiter ListAllTables joins a table's id with. */
const DELIMITER = "$";

async function allTables() {
  const ids = [];
  let token;
  do {
    const page = await api.listAllTables(token);
    ids.push(...page.tables);
    token = page.page_token;
  } while (token && ids.length < MAX_TABLES);
  return ids.slice(0, MAX_TABLES).map((id) => id.split(DELIMITER));
}

/** A table's figures; a table that cannot be read keeps its row with the reason. */
async function tableFacts(parts) {
  try {
    const [stats, versions] = await Promise.all([api.getTableStats(parts), api.listTableVersions(parts, undefined, 2)]);
    const [newest, previous] = versions.versions;
    // Growth: what the last write changed, from the rows of the version before it (when kept).
    const before = previous ? await api.countTableRows(parts, { version: previous.version }).catch(() => undefined) : undefined;
    return {
      parts,
      rows: stats.num_rows,
      bytes: stats.total_bytes,
      version: newest?.version,
      lastWrite: newest?.timestamp_millis,
      lastOperation: newest ? operationText(newest) : undefined,
      growth: before === undefined ? undefined : stats.num_rows - before,
    };
  } catch (error) {
    return { parts, error };
  }
}

const number = (value) => (typeof value === "number" ? value.toLocaleString("en-US") : "–");
const numeric = (text) => h("span", { class: "num" }, text);
const signed = (change) => (change === undefined ? "–" : change > 0 ? `+${number(change)}` : change < 0 ? `−${number(-change)}` : "±0");

function tablesSection(rows) {
  const readable = rows.filter((row) => !row.error);
  const totalRows = readable.reduce((sum, row) => sum + row.rows, 0);
  const totalBytes = readable.reduce((sum, row) => sum + row.bytes, 0);
  const largest = [...readable].sort((a, b) => b.bytes - a.bytes).slice(0, 20);
  return h(
    "div",
    {},
    facts([
      ["Tables", number(rows.length)],
      ["Rows", number(totalRows)],
      ["Size", formatBytes(totalBytes)],
    ]),
    largest.length > 1 ? h("div", { class: "charts" }, barChart("Largest tables by size (bytes)", largest.map((row) => ({ key: row.parts[row.parts.length - 1], value: row.bytes, label: `${row.parts.join(".")}: ${formatBytes(row.bytes)}` })), { xLabel: "table" })) : null,
    dataTable(
      "Tables",
      ["Table", "Rows", "Size", "Versions", "Last write", "Last operation", "Rows changed by it"],
      rows.map((row) => [
        h("a", { href: tableHref(row.parts) }, row.parts.join(".")),
        ...(row.error
          ? [h("span", { class: "muted" }, `not readable: ${row.error.message}`), "", "", "", "", ""]
          : [numeric(number(row.rows)), numeric(formatBytes(row.bytes)), numeric(number(row.version)), formatTime(row.lastWrite), row.lastOperation ?? "–", numeric(signed(row.growth))]),
      ]),
      { empty: "no tables yet" },
    ),
  );
}

/** Every namespace, breadth first from the root, up to MAX_NAMESPACES. */
async function allNamespaces() {
  const found = [[]];
  for (let i = 0; i < found.length && found.length < MAX_NAMESPACES; i++) {
    let token;
    do {
      const page = await api.listNamespaces(found[i], token);
      found.push(...page.namespaces.map((name) => [...found[i], name]));
      token = page.page_token;
    } while (token && found.length < MAX_NAMESPACES);
  }
  return found.slice(0, MAX_NAMESPACES);
}

function undropButton(drop, context) {
  const parts = drop.id;
  const result = h("span");
  const button = h("button", { type: "button", class: "secondary small", "aria-label": `Undrop ${parts.join(".")}` }, "Undrop");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await api.undropTable(parts, drop.dropped_id);
      context.announce(`Table ${parts.join(".")} restored.`);
      context.refreshTree();
      context.reload();
    } catch (error) {
      button.disabled = false;
      replaceChildren(result, actionError(error, `Restoring ${parts.join(".")}`));
    }
  });
  return h("span", {}, button, result);
}

async function droppedSection(context) {
  const namespaces = await allNamespaces();
  const pages = await mapLimited(namespaces, CONCURRENT_READS, async (parts) => {
    const drops = [];
    let token;
    do {
      const page = await api.listDroppedTables(parts, token);
      drops.push(...page.tables.map((drop) => ({ ...drop, id: drop.id ?? [...parts, drop.name] })));
      token = page.page_token;
    } while (token);
    return drops;
  });
  const drops = pages.flat().sort((a, b) => String(b.dropped_at).localeCompare(String(a.dropped_at)));
  return dataTable(
    "Dropped tables kept for undrop",
    ["Table", "Dropped", "Purged after", "Dropped by", "Action"],
    drops.map((drop) => [drop.id.join("."), new Date(drop.dropped_at).toLocaleString(), new Date(drop.purge_at).toLocaleString(), drop.dropped_by ?? "–", undropButton(drop, context)]),
    { empty: "none kept" },
  );
}

export function renderHome(main, context) {
  const tables = h("div");
  const dropped = h("section", { "aria-labelledby": "dropped-heading" });
  const reload = () => {
    loadInto(tables, "Reading the tables", async () => tablesSection(await mapLimited(await allTables(), CONCURRENT_READS, tableFacts)));
    showDropped();
  };
  const showDropped = async () => {
    let operations = [];
    try {
      operations = (await api.capabilities()).operations;
    } catch (error) {
      replaceChildren(dropped, errorBox(error, "Reading the server's capabilities"));
      return;
    }
    if (!operations.includes("ListDroppedTables")) {
      replaceChildren(dropped);
      return;
    }
    replaceChildren(dropped, h("h3", { id: "dropped-heading" }, "Dropped tables"), h("div"));
    loadInto(dropped.lastChild, "Listing dropped tables", () => droppedSection({ ...context, reload }));
  };
  replaceChildren(
    main,
    h("h2", { tabindex: -1, class: "view-title" }, `Database ${connection.database || "default"}`),
    h("section", { "aria-labelledby": "tables-heading" }, h("h3", { id: "tables-heading" }, "Tables"), tables),
    dropped,
  );
  reload();
}
