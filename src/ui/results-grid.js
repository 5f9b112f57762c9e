/**
 * The explorer's results: a grid of the rows a query answered, headed by each column's name and
 * Arrow type, with search distances and scores in their own highlighted columns, and a pager.
 * A row with a vector offers "Similar", which searches for its nearest rows.
 */
import { h } from "./dom.js";
import { valueCell } from "./value-cell.js";

/** Columns Lance adds to search results: the distance to the query vector, the text score. */
const RANK_COLUMNS = new Set(["_distance", "_score", "_relevance_score"]);

/**
 * The grid. `onSimilar(column, vector)` runs when a row's "Similar" button is pressed; it is
 * offered on the first vector column of the answer, when there is one.
 */
export function resultsGrid(caption, { fields, rows }, { firstRow, onSimilar }) {
  if (rows.length === 0) return h("p", { class: "muted", role: "status" }, caption);
  const vectorIndex = fields.findIndex((field) => field.vector);
  const headers = fields.map((field) => h("th", { scope: "col", class: RANK_COLUMNS.has(field.name) ? "rank" : undefined }, field.name, h("span", { class: "type" }, field.label)));
  if (vectorIndex >= 0) headers.unshift(h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions")));
  const body = rows.map((row, i) => {
    const cells = row.map((value, column) => h("td", { class: RANK_COLUMNS.has(fields[column].name) ? "rank" : undefined }, valueCell(value)));
    if (vectorIndex >= 0 && Array.isArray(row[vectorIndex])) {
      const similar = h("button", { type: "button", class: "secondary small", "aria-label": `Rows similar to row ${firstRow + i}` }, "Similar");
      similar.addEventListener("click", () => onSimilar(fields[vectorIndex].name, row[vectorIndex]));
      cells.unshift(h("td", {}, similar));
    } else if (vectorIndex >= 0) {
      cells.unshift(h("td", {}));
    }
    return h("tr", {}, cells);
  });
  return h(
    "div",
    { class: "table-scroll", tabindex: 0, role: "region", "aria-label": "Query results" },
    h("table", { class: "results" }, h("caption", {}, caption), h("thead", {}, h("tr", {}, headers)), h("tbody", {}, body)),
  );
}

/**
 * First / Previous / Next / Last buttons and the page number. `update(page, shown, pageSize,
 * total)` sets them after each answer; without a total, Next is offered while a page comes back full.
 */
export function pager(go) {
  const button = (label, name) => h("button", { type: "button", class: "secondary", "aria-label": name }, label);
  const first = button("« First", "First page");
  const previous = button("‹ Previous", "Previous page");
  const next = button("Next ›", "Next page");
  const last = button("Last »", "Last page");
  const position = h("span", { class: "muted", "aria-live": "polite" });
  const element = h("nav", { class: "pager", "aria-label": "Pages", hidden: true }, first, previous, position, next, last);
  let state = { page: 0, lastPage: 0 };
  first.addEventListener("click", () => go(0));
  previous.addEventListener("click", () => go(state.page - 1));
  next.addEventListener("click", () => go(state.page + 1));
  last.addEventListener("click", () => go(state.lastPage));
  return {
    element,
    update(page, shown, pageSize, total) {
      const lastPage = total === undefined ? undefined : Math.max(0, Math.ceil(total / pageSize) - 1);
      state = { page, lastPage };
      element.hidden = page === 0 && (lastPage === 0 || (lastPage === undefined && shown < pageSize));
      first.disabled = page === 0;
      previous.disabled = page === 0;
      next.disabled = lastPage === undefined ? shown < pageSize : page >= lastPage;
      last.disabled = lastPage === undefined || page >= lastPage;
      last.hidden = lastPage === undefined;
      position.textContent = lastPage === undefined ? `Page ${page + 1}` : `Page ${page + 1} of ${lastPage + 1}`;
    },
  };
}
