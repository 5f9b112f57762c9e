/**
 * The QueryTable request (spec/endpoints.md §5.6) for what the data explorer's form holds. The same
 * body goes to ExplainTableQueryPlan and AnalyzeTableQueryPlan, so the plan shown is the plan of
 * the query that ran.
 */
import { formatCount } from "./dom.js";

/** The search modes: every row (filtered and sorted), nearest vectors, or full-text matches. */
export const MODES = ["rows", "vector", "text"];

/**
 * A query vector typed or pasted as `[0.1, 0.2]`, `0.1, 0.2` or `0.1 0.2`. Throws an Error naming
 * the first entry that is not a number.
 */
export function parseVector(text) {
  const entries = text.trim().replace(/^\[/, "").replace(/\]$/, "").split(/[\s,]+/).filter((entry) => entry !== "");
  if (entries.length === 0) throw new Error("the query vector is empty");
  return entries.map((entry, i) => {
    const value = Number(entry);
    if (!Number.isFinite(value)) throw new Error(`entry ${formatCount(i + 1)} of the query vector ("${entry}") is not a number`);
    return value;
  });
}

/**
 * The request body. `state` holds: `at` ({version, branch} to read, both optional), `mode`,
 * `filter`, `columns` (names, or null for all), `sort` ({column, ascending} or null), `vector`
 * (numbers), `vectorColumn`, `distanceType`, `text`, `pageSize`, `page` (from 0) and `withRowId`
 * (answer each row's `_rowid`, which a blob's bytes are addressed by).
 */
export function queryRequest(state) {
  const body = { k: state.pageSize, vector: null };
  if (state.page > 0) body.offset = state.page * state.pageSize;
  if (state.at?.version !== undefined) body.version = state.at.version;
  if (state.at?.branch) body.branch = state.at.branch;
  const filter = state.filter?.trim();
  if (filter) body.filter = filter;
  if (state.columns) body.columns = { column_names: state.columns };
  if (state.withRowId) body.with_row_id = true;
  if (state.mode === "vector") {
    body.vector = { single_vector: state.vector };
    if (state.vectorColumn) body.vector_column = state.vectorColumn;
    if (state.distanceType) body.distance_type = state.distanceType;
    // Filter first, so a page holds k matching rows rather than the matches among k neighbours.
    if (filter) body.prefilter = true;
  } else if (state.mode === "text") {
    body.full_text_query = { string_query: { query: state.text } };
  } else if (state.sort) {
    // Search results come ranked by distance or score; only a plain scan takes an order.
    body.order_by = [{ column_name: state.sort.column, ascending: state.sort.ascending }];
  }
  return body;
}

/** Which rows a page holds, as shown above the grid: `Rows 101–200 of 5,000`. */
export function pageCaption(page, pageSize, shown, total) {
  if (shown === 0) return total === undefined ? "No rows" : `No rows (of ${formatCount(total)})`;
  const first = page * pageSize + 1;
  const range = `Rows ${formatCount(first)}–${formatCount(first + shown - 1)}`;
  return total === undefined ? range : `${range} of ${formatCount(total)}`;
}
