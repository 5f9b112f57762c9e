/**
 * The data explorer's form: which version or tag to read, the search mode (all rows, vector
 * search, full-text search), a SQL filter, the columns, the sort and the page size. Controls a
 * mode does not use are hidden; modes the table cannot serve (no vector column, no FTS index) are
 * disabled with the reason beside them.
 */
import { formatCount, h } from "./dom.js";
import { parseVector } from "./query-request.js";

const FLOAT_NAMES = new Set(["float", "double", "halffloat", "float16", "float32", "float64"]);
const DISTANCES = ["l2", "cosine", "dot"];
const PAGE_SIZES = [25, 50, 100, 500];

/** Columns of a JsonArrowSchema that vector search can use: fixed-size lists of floats. */
export function vectorColumns(schema) {
  return (schema?.fields ?? []).filter((field) => field.type.type === "fixed_size_list" && FLOAT_NAMES.has(field.type.fields?.[0]?.type.type)).map((field) => field.name);
}

/** Columns a scan can sort by: the top-level ones that are not lists, structs or binary. */
function sortableColumns(schema) {
  const unsortable = /list|struct|map|binary|union/;
  return (schema?.fields ?? []).filter((field) => !unsortable.test(field.type.type)).map((field) => field.name);
}

function labelled(id, label, control, hint) {
  return h("div", { class: "field" }, h("label", { for: id }, label), control, hint ? h("p", { class: "muted hint", id: `${id}-hint` }, hint) : null);
}

function select(id, options, attributes = {}) {
  return h("select", { id, name: id, ...attributes }, options.map(([value, label]) => h("option", { value }, label)));
}

/**
 * Builds the form. `schema` is the table's JsonArrowSchema, `ftsColumns` the columns with an FTS
 * index. Answers `{ element, state(), at, showVectorSearch(column, vector) }`; `state()` throws an
 * Error when the query vector does not parse.
 */
export function exploreForm(schema, ftsColumns) {
  const vectors = vectorColumns(schema);
  const names = (schema?.fields ?? []).map((field) => field.name);
  const at = select("explore-at", [["", "Latest version"]]);
  const modeButtons = [
    ["rows", "All rows", null],
    ["vector", "Vector search", vectors.length === 0 ? "no vector column" : null],
    ["text", "Full-text search", ftsColumns.length === 0 ? "no full-text index: create an FTS index first" : null],
  ].map(([value, label, unavailable]) => {
    const input = h("input", { type: "radio", name: "explore-mode", id: `explore-mode-${value}`, value, checked: value === "rows", disabled: unavailable !== null });
    return { value, input, element: h("span", { class: "choice" }, input, h("label", { for: input.id }, label), unavailable ? h("span", { class: "muted" }, ` (${unavailable})`) : null) };
  });
  const filter = h("input", { id: "explore-filter", name: "filter", autocomplete: "off", spellcheck: "false", placeholder: "e.g. id > 10 AND label = 'a'", "aria-describedby": "explore-filter-hint" });
  const vector = h("textarea", { id: "explore-vector", name: "vector", rows: 2, spellcheck: "false", placeholder: "[0.1, 0.2, 0.3]" });
  const vectorColumn = select("explore-vector-column", vectors.map((name) => [name, name]));
  const distance = select("explore-distance", DISTANCES.map((name) => [name, name]));
  const text = h("input", { id: "explore-text", name: "text", autocomplete: "off" });
  const checkboxes = names.map((name, i) => h("input", { type: "checkbox", id: `explore-column-${i}`, value: name, checked: true }));
  const sort = select("explore-sort", [["", "table order"], ...sortableColumns(schema).map((name) => [name, name])]);
  const order = select("explore-order", [["asc", "ascending"], ["desc", "descending"]], { "aria-label": "Sort order" });
  const pageSize = select("explore-page-size", PAGE_SIZES.map((size) => [String(size), formatCount(size)]));
  pageSize.value = "50";

  const vectorGroup = h(
    "fieldset",
    { class: "group", hidden: true },
    h("legend", {}, "Vector search"),
    labelled("explore-vector", "Query vector", vector, null),
    h("div", { class: "inline" }, labelled("explore-vector-column", "Vector column", vectorColumn), labelled("explore-distance", "Distance", distance)),
  );
  const textGroup = h("fieldset", { class: "group", hidden: true }, h("legend", {}, "Full-text search"), labelled("explore-text", "Search text", text, `Searches ${ftsColumns.join(", ")}.`));
  const sortGroup = h("div", { class: "inline" }, labelled("explore-sort", "Sort by", sort), h("div", { class: "field" }, h("span", { class: "label-spacer", "aria-hidden": "true" }, " "), order));
  const mode = () => modeButtons.find((button) => button.input.checked)?.value ?? "rows";
  const showMode = () => {
    vectorGroup.hidden = mode() !== "vector";
    textGroup.hidden = mode() !== "text";
    sort.disabled = mode() !== "rows";
    order.disabled = mode() !== "rows";
  };
  for (const button of modeButtons) button.input.addEventListener("change", showMode);

  const element = h(
    "div",
    { class: "explore-form" },
    h("div", { class: "inline" }, labelled("explore-at", "Read", at), h("fieldset", { class: "modes" }, h("legend", {}, "Search"), modeButtons.map((button) => button.element))),
    labelled("explore-filter", "Filter (SQL predicate)", filter, "Leave empty for every row."),
    vectorGroup,
    textGroup,
    h("fieldset", { class: "group columns-choice" }, h("legend", {}, "Columns"), checkboxes.map((box) => h("span", { class: "choice" }, box, h("label", { for: box.id }, box.value)))),
    h("div", { class: "inline" }, sortGroup, labelled("explore-page-size", "Rows per page", pageSize)),
  );

  return {
    element,
    /** The `Read` select, filled by the caller once versions and tags are listed. */
    at,
    state() {
      const chosen = checkboxes.filter((box) => box.checked).map((box) => box.value);
      const current = mode();
      return {
        mode: current,
        filter: filter.value,
        columns: chosen.length === checkboxes.length ? null : chosen,
        sort: sort.value ? { column: sort.value, ascending: order.value === "asc" } : null,
        vector: current === "vector" ? parseVector(vector.value) : undefined,
        vectorColumn: vectorColumn.value || undefined,
        distanceType: distance.value,
        text: text.value,
        pageSize: Number(pageSize.value),
      };
    },
    /** Switches to vector search for `vector` on `column` (the grid's "similar rows" action). */
    showVectorSearch(column, values) {
      modeButtons.find((button) => button.value === "vector").input.checked = true;
      vector.value = JSON.stringify(values);
      vectorColumn.value = column;
      showMode();
    },
  };
}
