/**
 * A table's Data tab: the explorer form, its results page by page, and the query plan one click
 * away. A plain scan counts its matches (CountTableRows with the same filter and version) so the
 * pager knows the last page; searches page until a page comes back short. Reading an older
 * version or a tag is time travel: every call of the tab then names that version. A query reading
 * a blob column asks for `_rowid` too, by which each blob's bytes are read (`blob-cell.js`).
 */
import { api, connection } from "./api.js";
import { tableFromIPC, tableToIPC } from "./arrow.js";
import { decodeArrow } from "./arrow-values.js";
import { blobColumnNames, exportColumns, readsBlobs, withBlobValues } from "./blob-values.js";
import { actionError, actionSucceeded, errorBox, formatCount, formatTime, h, replaceChildren } from "./dom.js";
import { exploreForm } from "./explore-form.js";
import { download, toCsv, toJsonLines } from "./export-rows.js";
import { columnsMenu, gridLayout } from "./grid-layout.js";
import { toParquet } from "./parquet-export.js";
import { operationText } from "./operation-text.js";
import { pageCaption, queryRequest } from "./query-request.js";
import { pager, resultsGrid } from "./results-grid.js";

/** A select offers at most this many versions, the newest; tags reach older ones. */
const LISTED_VERSIONS = 500;

async function newestVersions(parts) {
  const versions = [];
  let token;
  do {
    const page = await api.listTableVersions(parts, token);
    versions.push(...page.versions);
    token = page.page_token;
  } while (token && versions.length < LISTED_VERSIONS);
  return versions.slice(0, LISTED_VERSIONS);
}

/** Fills the `Read` select with the newest versions and every tag; answers where each option reads. */
async function fillVersions(parts, select) {
  const places = new Map([["", {}]]);
  const [versions, tags] = await Promise.all([newestVersions(parts), api.listTableTags(parts)]);
  const tagOptions = Object.entries(tags.tags).sort(([a], [b]) => a.localeCompare(b)).map(([name, tag]) => {
    places.set(`tag:${name}`, { version: tag.version, branch: tag.branch ?? undefined });
    return h("option", { value: `tag:${name}` }, `Tag ${name} (version ${tag.version}${tag.branch ? ` of ${tag.branch}` : ""})`);
  });
  const versionOptions = versions.map((v) => {
    places.set(`v:${v.version}`, { version: v.version });
    const what = v.operation ? ` · ${operationText(v)}` : "";
    return h("option", { value: `v:${v.version}` }, `Version ${v.version} (${formatTime(v.timestamp_millis)})${what}`);
  });
  if (tagOptions.length > 0) select.append(h("optgroup", { label: "Tags" }, tagOptions));
  select.append(h("optgroup", { label: "Versions" }, versionOptions));
  return places;
}

/** The most rows an export asks for: the whole result of a scan up to this, a search's page. */
const EXPORT_LIMIT = 100_000;

/**
 * The request whose answer an export holds: every row of a scan (to the limit), a search's page as
 * shown; of the table's columns (`names`) only those the grid shows, so hidden ones are not read.
 */
export function exportRequest(state, total, names = [], hidden = new Set()) {
  const wanted = (state.columns ?? names).filter((name) => !hidden.has(name));
  const columns = hidden.size > 0 && wanted.length > 0 ? wanted : state.columns;
  if (state.mode !== "rows") return queryRequest({ ...state, columns });
  return queryRequest({ ...state, columns, page: 0, pageSize: Math.max(1, Math.min(total ?? EXPORT_LIMIT, EXPORT_LIMIT)) });
}

/**
 * The export's bytes as the grid shows them: the columns the layout hides (a search's `_distance`
 * or `_score`, which the request cannot leave out) are left out, unless that would leave none.
 */
function shownColumns(bytes, hidden) {
  const table = tableFromIPC(bytes);
  const names = table.schema.fields.map((field) => field.name).filter((name) => !hidden.has(name));
  return names.length === table.schema.fields.length || names.length === 0 ? { table, bytes } : { table: table.select(names), bytes: null };
}

/** An answer's display rows (blobs as BlobValues) for `state`'s query of table `parts`. */
function answerRows(parts, state, bytes) {
  return withBlobValues(decodeArrow(bytes), { parts, at: state.at, origin: location.origin });
}

/** `shownColumns` for display rows: blobs keep the URLs their `_rowid` gave even when `_rowid` is hidden. */
function shownRows({ fields, rows }, hidden) {
  const kept = fields.flatMap((field, i) => (hidden.has(field.name) ? [] : [i]));
  if (kept.length === fields.length || kept.length === 0) return { fields, rows };
  return { fields: kept.map((i) => fields[i]), rows: rows.map((row) => kept.map((i) => row[i])) };
}

/**
 * Export buttons for the result shown (the columns the grid shows, see `docs/console.md`);
 * `ready(state, total)` after each answer, `ready(null)` after a failure.
 */
function exportBar(parts, results, names, layout) {
  let current = null;
  const status = h("span", { class: "muted", role: "status" });
  const button = (format, label) => {
    const element = h("button", { type: "button", class: "secondary small", disabled: true }, label);
    element.addEventListener("click", () => save(format));
    return element;
  };
  const buttons = [button("csv", "CSV"), button("jsonl", "JSON lines"), button("arrow", "Arrow"), button("parquet", "Parquet")];
  const save = async (format) => {
    if (!current) return;
    const { state, total } = current;
    status.textContent = "Exporting…";
    try {
      const answer = await api.queryTable(parts, exportRequest(state, total, names, layout.hidden));
      const name = parts[parts.length - 1];
      if (format === "arrow") {
        const { table, bytes } = shownColumns(answer, layout.hidden);
        download(`${name}.arrow`, "application/vnd.apache.arrow.file", bytes ?? tableToIPC(table, "file"));
      } else {
        const { fields, rows } = shownRows(answerRows(parts, state, answer), layout.hidden);
        // CSV and Parquet hold a blob as two columns, its size and its URL; JSON lines as an object.
        const flat = exportColumns(fields, rows);
        if (format === "csv") download(`${name}.csv`, "text/csv", toCsv(flat.fields, flat.rows));
        else if (format === "jsonl") download(`${name}.jsonl`, "application/x-ndjson", toJsonLines(fields, rows));
        else download(`${name}.parquet`, "application/vnd.apache.parquet", await toParquet(flat.fields, flat.rows));
      }
      status.textContent = "";
    } catch (error) {
      status.textContent = "";
      results.prepend(actionError(error, "Exporting the result"));
    }
  };
  const element = h("div", { class: "export", role: "group", "aria-label": "Export the result" }, h("span", { class: "muted" }, "Export"), buttons, status);
  return {
    element,
    ready(state, total) {
      current = state ? { state, total } : null;
      for (const each of buttons) each.disabled = current === null;
      element.title = current && state.mode !== "rows" ? "Exports the page of search results shown" : `Exports every row of the query (up to ${formatCount(EXPORT_LIMIT)})`;
    },
  };
}

function planView(kind, text) {
  return h("section", { class: "plan", "aria-label": `${kind} plan` }, h("h3", {}, kind === "Explain" ? "Query plan" : "Query plan with run statistics"), h("pre", { tabindex: 0 }, text));
}

export async function explorePanel(parts) {
  const [table, indexes] = await Promise.all([api.describeTable(parts), api.listTableIndices(parts)]);
  const ftsColumns = indexes.indexes.filter((index) => index.index_type === "FTS").flatMap((index) => index.columns);
  const form = exploreForm(table.schema, ftsColumns);
  const results = h("div", { class: "results-area" });
  const names = (table.schema?.fields ?? []).map((field) => field.name);
  const blobNames = blobColumnNames(table.schema);
  const layout = gridLayout(connection.database, parts);
  const columnsChoice = h("div", { class: "columns-menu-slot" });
  let shown = null;
  /** Draws the grid of the last answer with the layout's choices. */
  const drawGrid = () => replaceChildren(results, resultsGrid(shown.caption, shown.answer, { firstRow: shown.firstRow, onSimilar: searchSimilar, layout }));
  /** Draws the grid and its columns menu (kept open while columns are hidden and shown). */
  const draw = () => {
    drawGrid();
    replaceChildren(columnsChoice, shown.answer.rows.length > 0 ? columnsMenu(shown.answer.fields, layout, drawGrid) : null);
  };
  const plan = h("div");
  const places = new Map([["", {}]]);
  let submitted = null;

  const run = async (page) => {
    const state = { ...submitted, page };
    results.setAttribute("aria-busy", "true");
    try {
      const request = queryRequest(state);
      const counting = state.mode === "rows" ? api.countTableRows(parts, state.at, state.filter.trim()) : undefined;
      const [bytes, total] = await Promise.all([api.queryTable(parts, request), counting]);
      const answer = answerRows(parts, state, bytes);
      const caption = pageCaption(page, state.pageSize, answer.rows.length, total);
      shown = { caption, answer, firstRow: page * state.pageSize + 1 };
      draw();
      for (const paging of pagers) paging.update(page, answer.rows.length, state.pageSize, total);
      exporting.ready(state, total);
      actionSucceeded();
    } catch (error) {
      shown = null;
      replaceChildren(columnsChoice);
      replaceChildren(results, actionError(error, "Querying the table"));
      for (const paging of pagers) paging.element.hidden = true;
      exporting.ready(null);
    } finally {
      results.removeAttribute("aria-busy");
    }
  };
  // The same pager above and below the grid.
  const pagers = [pager((page) => run(page), "Pages, above the results"), pager((page) => run(page), "Pages, below the results")];
  const exporting = exportBar(parts, results, names, layout);

  /** Reads the form; shows why when it cannot be read (a malformed query vector). */
  const readForm = () => {
    try {
      const state = form.state();
      return { ...state, at: places.get(form.at.value) ?? {}, withRowId: readsBlobs(blobNames, state.columns) };
    } catch (error) {
      replaceChildren(results, actionError(error, "Reading the query"));
      return null;
    }
  };
  const submit = () => {
    submitted = readForm();
    if (submitted) run(0);
  };
  const searchSimilar = (column, vector) => {
    form.showVectorSearch(column, vector);
    submit();
  };
  const showPlan = async (kind) => {
    const state = readForm();
    if (!state) return;
    const request = queryRequest({ ...state, page: 0 });
    plan.setAttribute("aria-busy", "true");
    try {
      const text = kind === "Explain" ? await api.explainTableQueryPlan(parts, request) : await api.analyzeTableQueryPlan(parts, request);
      replaceChildren(plan, planView(kind, text));
      actionSucceeded();
    } catch (error) {
      replaceChildren(plan, actionError(error, kind === "Explain" ? "Explaining the query" : "Analyzing the query"));
    } finally {
      plan.removeAttribute("aria-busy");
    }
  };

  const explain = h("button", { type: "button", class: "secondary" }, "Explain plan");
  const analyze = h("button", { type: "button", class: "secondary" }, "Analyze plan");
  explain.addEventListener("click", () => showPlan("Explain"));
  analyze.addEventListener("click", () => showPlan("Analyze"));
  const element = h("form", { class: "explorer", "aria-label": "Query the table" }, form.element, h("div", { class: "row" }, h("button", { type: "submit" }, "Run query"), explain, analyze));
  element.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });

  // The versions and tags arrive after the first page of rows; the select starts at "Latest".
  fillVersions(parts, form.at)
    .then((found) => found.forEach((place, key) => places.set(key, place)))
    .catch((error) => element.append(errorBox(error, "Listing versions and tags")));
  submit();
  return h("div", {}, element, h("div", { class: "results-bar" }, pagers[0].element, h("div", { class: "grid-tools" }, columnsChoice, exporting.element)), results, pagers[1].element, plan);
}
