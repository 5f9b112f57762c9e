/**
 * The explorer's results: a grid of the rows a query answered, headed by each column's name and
 * Arrow type, with search distances and scores in their own highlighted columns, and a pager.
 * A row with a vector offers "Similar", which searches for its nearest rows.
 */
import { formatCount, h } from "./dom.js";
import { openRowPanel } from "./row-panel.js";
import { valueCell } from "./value-cell.js";

/** Columns Lance adds to search results: the distance to the query vector, the text score. */
const RANK_COLUMNS = new Set(["_distance", "_score", "_relevance_score"]);

/**
 * The grid. Each row opens in the row panel from its number (the first column); number columns
 * are right-aligned. `onSimilar(column, vector)` runs when a row's "Similar" button is pressed;
 * it is offered on the first vector column of the answer, when there is one. `layout` (a
 * `gridLayout`) says which columns are hidden and the widths of resized ones, and keeps new widths.
 * Arrow keys move between cells; Enter on a cell opens its row.
 */
export function resultsGrid(caption, { fields, rows }, { firstRow, onSimilar, layout }) {
  if (rows.length === 0) return h("p", { class: "muted", role: "status" }, caption);
  const vectorIndex = fields.findIndex((field) => field.vector);
  const chosen = layout ? layout.visible(fields) : [];
  // A layout hiding every column of this answer (another query's choice) shows them all.
  const shown = chosen.length > 0 ? chosen : fields.map((_, i) => i);
  const columnClass = (field) => [RANK_COLUMNS.has(field.name) ? "rank" : "", field.numeric ? "num" : ""].filter(Boolean).join(" ") || undefined;
  const headers = shown.map((index) => {
    const field = fields[index];
    const header = h("th", { scope: "col", class: columnClass(field) }, field.name, h("span", { class: "type" }, field.label));
    header.append(resizer(header, field.name, layout));
    const width = layout?.width(field.name);
    if (width) setHeaderWidth(header, width);
    return header;
  });
  if (vectorIndex >= 0) headers.unshift(h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions")));
  headers.unshift(h("th", { scope: "col", class: "num" }, "#"));
  const open = (i) => openRowPanel(fields, rows[i], firstRow + i);
  const body = rows.map((row, i) => {
    const number = firstRow + i;
    const cells = shown.map((column) => h("td", { class: columnClass(fields[column]), tabindex: -1 }, valueCell(row[column])));
    if (vectorIndex >= 0 && Array.isArray(row[vectorIndex])) {
      const similar = h("button", { type: "button", class: "secondary small", "aria-label": `Rows similar to row ${formatCount(number)}` }, "Similar");
      similar.addEventListener("click", () => onSimilar(fields[vectorIndex].name, row[vectorIndex]));
      cells.unshift(h("td", {}, similar));
    } else if (vectorIndex >= 0) {
      cells.unshift(h("td", {}));
    }
    const button = h("button", { type: "button", class: "link row-open", "aria-label": `Open row ${formatCount(number)}` }, formatCount(number));
    button.addEventListener("click", () => open(i));
    cells.unshift(h("th", { scope: "row", class: "num" }, button));
    return h("tr", {}, cells);
  });
  const table = h("table", { class: "results" }, h("caption", {}, caption), h("thead", {}, h("tr", {}, headers)), h("tbody", {}, body));
  table.addEventListener("keydown", (event) => {
    // Enter on a cell itself (not on its button or folded value, which have their own) opens the row.
    if (event.key === "Enter" && event.target.matches("tbody td")) {
      event.preventDefault();
      open([...table.tBodies[0].rows].indexOf(event.target.parentElement));
      return;
    }
    moveFocus(event, table);
  });
  return h("div", { class: "table-scroll results-scroll", tabindex: 0, role: "region", "aria-label": "Query results" }, table);
}

function setHeaderWidth(header, width) {
  const px = `${width}px`;
  header.style.width = px;
  header.style.minWidth = px;
  header.style.maxWidth = px;
}

/** Width steps of a column resized from the keyboard, and the narrowest a column gets. */
const RESIZE_STEP = 24;
const MIN_WIDTH = 48;

/**
 * A handle on a header's right edge: dragged, or focused and moved with the left and right arrow
 * keys, it sets the column's width (through the CSS object model, which the CSP allows); the
 * layout keeps the width for the next time the table is shown.
 */
function resizer(header, name, layout) {
  const handle = h("span", { class: "resizer", role: "separator", "aria-orientation": "vertical", "aria-label": `Resize column ${name}`, tabindex: 0 });
  const setWidth = (width) => {
    const px = Math.max(MIN_WIDTH, Math.round(width));
    setHeaderWidth(header, px);
    layout?.setWidth(name, px);
  };
  handle.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    const start = event.clientX;
    const width = header.getBoundingClientRect().width;
    handle.setPointerCapture(event.pointerId);
    const move = (moved) => setWidth(width + moved.clientX - start);
    const stop = () => {
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", stop);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", stop);
  });
  handle.addEventListener("keydown", (event) => {
    const step = { ArrowLeft: -RESIZE_STEP, ArrowRight: RESIZE_STEP }[event.key];
    if (!step) return;
    event.preventDefault();
    event.stopPropagation();
    setWidth(header.getBoundingClientRect().width + step);
  });
  return handle;
}

/** Arrow keys move the focus between the grid's cells (to a cell's button or folded value, when it has one). */
function moveFocus(event, table) {
  const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
  if (!step) return;
  const cell = event.target.closest("td, th");
  const row = cell?.parentElement;
  if (!cell || !row || row.parentElement.tagName !== "TBODY") return;
  const rows = [...table.tBodies[0].rows];
  const target = rows[rows.indexOf(row) + step[0]]?.cells[cell.cellIndex + step[1]];
  if (!target) return;
  event.preventDefault();
  const focusable = target.querySelector("button, summary") ?? target;
  focusable.focus();
}

/**
 * First / Previous / Next / Last buttons and the page number, in a navigation region named `label`. `update(page, shown, pageSize,
 * total)` sets them after each answer; without a total, Next is offered while a page comes back full.
 */
export function pager(go, label = "Pages") {
  const button = (label, name) => h("button", { type: "button", class: "secondary", "aria-label": name }, label);
  const first = button("« First", "First page");
  const previous = button("‹ Previous", "Previous page");
  const next = button("Next ›", "Next page");
  const last = button("Last »", "Last page");
  const position = h("span", { class: "muted", "aria-live": "polite" });
  const element = h("nav", { class: "pager", "aria-label": label, hidden: true }, first, previous, position, next, last);
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
      position.textContent = lastPage === undefined ? `Page ${formatCount(page + 1)}` : `Page ${formatCount(page + 1)} of ${formatCount(lastPage + 1)}`;
    },
  };
}
