/**
 * A database's home: every table (ListAllTables) with its rows and size (GetTableStats), its
 * version count and last write (the newest entry of ListTableVersions) with the rows that write
 * changed (CountTableRows at the version before), its growth over its newest versions, the
 * totals, a plot of the largest tables, the database's recent activity (the newest change events,
 * when the server keeps them), and the tables dropped but kept for undrop (ListDroppedTables,
 * UndropTable) when the server keeps them.
 */
import { ApiError, api, connection } from "./api.js";
import { barChart, sparkline } from "./charts.js";
import { actionError, dataTable, errorBox, facts, formatBytes, formatCount, formatTime, h, loadInto, replaceChildren } from "./dom.js";
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
/** A table's growth is plotted over at most this many of its newest versions. */
const GROWTH_VERSIONS = 8;
/** Events asked for (of every database the connection reads) and, of this database's, shown. */
const EVENTS_READ = 200;
const EVENTS_SHOWN = 20;

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
    const [stats, versions] = await Promise.all([api.getTableStats(parts), api.listTableVersions(parts, undefined, GROWTH_VERSIONS)]);
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
      // Rows at each of the newest versions, oldest first; the newest and the one before are known.
      trend: growthPoints(parts, versions.versions, stats.num_rows, before),
    };
  } catch (error) {
    return { parts, error };
  }
}

/**
 * The table's rows at each of `versions` (newest first, from ListTableVersions): a lazy
 * `load()` that counts the older ones (CountTableRows at each, at most GROWTH_VERSIONS − 2 calls)
 * only when asked, answering `[{x: version, y: rows}]` oldest first. Versions whose count fails
 * (cleaned up since) are left out.
 */
function growthPoints(parts, versions, newestRows, previousRows) {
  const known = new Map();
  if (versions[0]) known.set(versions[0].version, newestRows);
  if (versions[1] && previousRows !== undefined) known.set(versions[1].version, previousRows);
  let loading;
  return {
    load() {
      loading ??= mapLimited(versions, 2, async (v) => {
        const rows = known.has(v.version) ? known.get(v.version) : await api.countTableRows(parts, { version: v.version }).catch(() => undefined);
        return rows === undefined ? undefined : { x: v.version, y: rows };
      }).then((points) => points.filter(Boolean).reverse());
      return loading;
    },
  };
}

/** Growth cells waiting to be seen: each counts its table's versions once it scrolls into view. */
const growthQueue = { running: 0, waiting: [] };
function whenFree(task) {
  const next = () => {
    growthQueue.running--;
    const queued = growthQueue.waiting.shift();
    if (queued) start(queued);
  };
  const start = (work) => {
    growthQueue.running++;
    work().finally(next);
  };
  if (growthQueue.running < CONCURRENT_READS) start(task);
  else growthQueue.waiting.push(task);
}

/** A cell that draws the table's rows over its newest versions once its row is on screen. */
function growthCell(row) {
  const cell = h("span", { class: "growth muted" }, "…");
  const draw = async () => {
    const points = await row.trend.load();
    if (points.length === 0) return replaceChildren(cell, "–");
    const first = points[0];
    const last = points[points.length - 1];
    const label = `Rows by version of ${row.parts.join(".")}: ${points.map((p) => `v${p.x} ${formatCount(p.y)}`).join(", ")}`;
    cell.classList.remove("muted");
    replaceChildren(cell, sparkline(label, points), h("span", { class: "muted" }, points.length > 1 ? `v${first.x}–${last.x}` : `v${last.x}`));
  };
  const seen = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    seen.disconnect();
    whenFree(() => draw().catch(() => replaceChildren(cell, "–")));
  });
  // The row is watched, not the cell: on a narrow screen the cell may be scrolled out of its frame
  // sideways while its row is in view. The row exists once the table is built, after this call.
  setTimeout(() => seen.observe(cell.closest("tr") ?? cell));
  return cell;
}

const numeric = (text) => h("span", { class: "num nowrap" }, text);
const signed = (change) => (change === undefined ? "–" : change > 0 ? `+${formatCount(change)}` : change < 0 ? `−${formatCount(-change)}` : "±0");

function tablesSection(rows) {
  const readable = rows.filter((row) => !row.error);
  const totalRows = readable.reduce((sum, row) => sum + row.rows, 0);
  const totalBytes = readable.reduce((sum, row) => sum + row.bytes, 0);
  const largest = [...readable].sort((a, b) => b.bytes - a.bytes).slice(0, 20);
  return h(
    "div",
    {},
    facts([
      ["Tables", formatCount(rows.length)],
      ["Rows", formatCount(totalRows)],
      ["Size", formatBytes(totalBytes)],
    ]),
    largest.length > 1 ? h("div", { class: "charts" }, barChart("Largest tables by size", largest.map((row) => ({ key: row.parts[row.parts.length - 1], value: row.bytes, label: `${row.parts.join(".")}: ${formatBytes(row.bytes)}` })), { xLabel: "table", format: formatBytes })) : null,
    dataTable(
      "Tables",
      ["Table", "Rows", "Size", "Versions", "Last write", "Last operation", "Rows changed by it", `Rows over the last ${GROWTH_VERSIONS} versions`],
      rows.map((row) => [
        h("a", { href: tableHref(row.parts) }, row.parts.join(".")),
        ...(row.error
          ? [h("span", { class: "muted" }, `not readable: ${row.error.message}`), "", "", "", "", "", ""]
          : [numeric(formatCount(row.rows)), numeric(formatBytes(row.bytes)), numeric(formatCount(row.version)), h("span", { class: "nowrap" }, formatTime(row.lastWrite)), row.lastOperation ?? "–", numeric(signed(row.growth)), growthCell(row)]),
      ]),
      { empty: "no tables yet", labelledBy: "tables-heading" },
    ),
  );
}

/** What an event's operation did, in the words of the versions tab. */
const OPERATION_WORDS = {
  InsertIntoTable: "insert",
  MergeInsertIntoTable: "merge insert",
  UpdateTable: "update",
  DeleteFromTable: "delete",
  CreateTable: "create / overwrite",
};

/** An event as [what happened, rows it changed]: `insert (append)`, `+3 inserted`. */
function eventSummary(event) {
  const data = event.data ?? {};
  const kind = String(event.type ?? "").replace(/^io\.quiver\.(table\.)?/, "");
  const what =
    kind === "version.created"
      ? `${OPERATION_WORDS[data.operation] ?? data.operation ?? "write"}${data.mode ? ` (${data.mode})` : ""}`
      : `${kind.replaceAll(".", " ")}${data.operation ? ` (${OPERATION_WORDS[data.operation] ?? data.operation})` : ""}`;
  const counts = [
    ["num_inserted_rows", "+", "inserted"],
    ["num_updated_rows", "", "updated"],
    ["num_deleted_rows", "−", "deleted"],
  ]
    .filter(([key]) => typeof data[key] === "number" && data[key] > 0)
    .map(([key, sign, word]) => `${sign}${formatCount(data[key])} ${word}`);
  return [what, counts.join(", ")];
}

/** The subject's table or namespace (after the database), as the console names it: `shop.items`. */
function subjectName(event) {
  const id = Array.isArray(event.data?.id) ? event.data.id : undefined;
  return id ? id.join(".") : String(event.subject ?? "").replace(/^[^/]*\/?/, "").split(DELIMITER).join(".");
}

/**
 * The database's newest change events, newest first (ListChangeEvents with `tail`). A server that
 * does not keep events (its capabilities do not list them, or it has no `/v1/events`) is said so.
 */
async function activitySection(capabilities) {
  const off = h("p", { class: "muted" }, "This server does not keep change events, so there is no recent activity to show.");
  if (capabilities?.features?.change_events !== true) return off;
  let page;
  try {
    page = await api.newestChangeEvents(EVENTS_READ);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return off;
    throw error;
  }
  const database = connection.database || "default";
  const events = page.events.filter((event) => (event.data?.database ?? database) === database).slice(-EVENTS_SHOWN).reverse();
  return dataTable(
    "Recent activity",
    ["Time", "Table or namespace", "What", "Rows"],
    events.map((event) => {
      const [what, rows] = eventSummary(event);
      const name = subjectName(event);
      const isTable = String(event.type).startsWith("io.quiver.table.") && event.data?.id;
      return [formatTime(Date.parse(event.time)), isTable && !String(event.type).endsWith(".dropped") ? h("a", { href: tableHref(event.data.id) }, name) : name || "–", what, numeric(rows || "–")];
    }),
    { empty: "no change yet", labelledBy: "activity-heading" },
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
    { empty: "none kept", labelledBy: "dropped-heading" },
  );
}

export function renderHome(main, context) {
  const tables = h("div");
  const activity = h("div");
  const dropped = h("section", { "aria-labelledby": "dropped-heading" });
  const reload = () => {
    loadInto(tables, "Reading the tables", async () => tablesSection(await mapLimited(await allTables(), CONCURRENT_READS, tableFacts)));
    const capabilities = api.capabilities();
    // Without capabilities (an older server) the activity section tries the feed itself.
    loadInto(activity, "Reading recent activity", async () => activitySection(await capabilities.catch(() => ({ features: { change_events: true } }))));
    showDropped(capabilities);
  };
  const showDropped = async (capabilities) => {
    let operations = [];
    try {
      operations = (await capabilities).operations;
    } catch (error) {
      replaceChildren(dropped, errorBox(error, "Reading the server's capabilities"));
      return;
    }
    if (!operations.includes("ListDroppedTables")) {
      replaceChildren(dropped);
      return;
    }
    replaceChildren(dropped, h("h3", { id: "dropped-heading" }, "Dropped tables kept for undrop"), h("div"));
    loadInto(dropped.lastChild, "Listing dropped tables", () => droppedSection({ ...context, reload }));
  };
  replaceChildren(
    main,
    h("h2", { tabindex: -1, class: "view-title" }, `Database ${connection.database || "default"}`),
    h("section", { "aria-labelledby": "tables-heading" }, h("h3", { id: "tables-heading" }, "Tables"), tables),
    h("section", { "aria-labelledby": "activity-heading" }, h("h3", { id: "activity-heading" }, "Recent activity"), activity),
    dropped,
  );
  reload();
}
