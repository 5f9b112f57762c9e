/**
 * A table's Indexes tab: the indexes (ListTableIndices) with how much of the table each covers,
 * drawn as stacked bars, a form building a new one and a Drop button on each. Builds and drops are
 * asked for as jobs (`wait: false`), followed live until they finish, then the list is read again.
 */
import { api } from "./api.js";
import { actionError, actionSucceeded, dataTable, formatBytes, formatCount, h, labelled, loadInto, replaceChildren, stackForm } from "./dom.js";
import { stackedBars } from "./charts.js";
import { vectorColumns } from "./explore-form.js";
import { watchJob } from "./job-progress.js";

/** Every index type the server builds (INVERTED is FTS by another name), with what each is for. */
const VECTOR_TYPES = ["IVF_PQ", "IVF_FLAT", "IVF_RQ", "IVF_HNSW_SQ", "IVF_HNSW_PQ"];
const SCALAR_TYPES = ["BTREE", "BITMAP", "LABEL_LIST", "FTS", "FM"];
const TYPE_HINTS = {
  BTREE: "sorted values: equality and ranges",
  BITMAP: "few distinct values",
  LABEL_LIST: "lists of labels",
  FTS: "full-text search",
  FM: "substring search",
  IVF_PQ: "vectors, product-quantized",
  IVF_FLAT: "vectors, exact within partitions",
  IVF_RQ: "vectors, RaBitQ-quantized",
  IVF_HNSW_SQ: "vectors, HNSW graph, scalar-quantized",
  IVF_HNSW_PQ: "vectors, HNSW graph, product-quantized",
};

/** "a BTREE", "an IVF_PQ": the article a type name takes when read aloud. */
function withArticle(type) {
  return `${/^[AEFIOU]/.test(type) ? "an" : "a"} ${type}`;
}

/** The index type a column most likely wants: vectors IVF_PQ, text FTS, anything else BTREE. */
function suggestedType(field) {
  if (!field) return "BTREE";
  if (field.type.type === "fixed_size_list") return "IVF_PQ";
  if (/^(utf8|string|large_utf8|large_string)$/.test(field.type.type)) return "FTS";
  return "BTREE";
}

function coverage(indexes) {
  const covered = indexes.filter((index) => typeof index.num_indexed_rows === "number");
  if (covered.length === 0) return null;
  return stackedBars(
    "Index coverage: indexed and unindexed rows",
    covered.map((index) => ({ name: index.index_name, parts: [index.num_indexed_rows, index.num_unindexed_rows ?? 0] })),
    ["indexed rows", "unindexed rows"],
  );
}

function createForm(parts, schema, jobs, onFinished) {
  const fields = schema?.fields ?? [];
  const vectors = new Set(vectorColumns(schema));
  const result = h("div");
  const column = h("select", { id: "new-index-column", required: true }, fields.map((field) => h("option", { value: field.name }, field.name)));
  const type = h("select", { id: "new-index-type" }, [...SCALAR_TYPES, ...VECTOR_TYPES].map((name) => h("option", { value: name }, `${name} (${TYPE_HINTS[name]})`)));
  const distance = h("select", { id: "new-index-distance" }, ["l2", "cosine", "dot"].map((name) => h("option", { value: name }, name)));
  const name = h("input", { id: "new-index-name", autocomplete: "off", placeholder: "column_idx" });
  const distanceField = h("div", { class: "field" }, h("label", { for: distance.id }, "Distance (vector indexes)"), distance);
  const showDistance = () => {
    distanceField.hidden = !VECTOR_TYPES.includes(type.value);
  };
  column.addEventListener("change", () => {
    type.value = suggestedType(fields.find((field) => field.name === column.value));
    showDistance();
  });
  type.addEventListener("change", showDistance);
  type.value = suggestedType(fields[0]);
  showDistance();
  const form = stackForm([labelled("Column", column), labelled("Index type", type), distanceField, labelled("Name (optional)", name)], "Create index", result);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const request = { column: column.value, index_type: type.value, name: name.value.trim() || undefined };
    if (vectors.has(column.value) && VECTOR_TYPES.includes(type.value)) request.distance_type = distance.value;
    replaceChildren(result);
    try {
      const { job_id: jobId } = await api.createTableIndex(parts, request);
      actionSucceeded();
      jobs.prepend(watchJob(jobId, `Building ${withArticle(request.index_type)} index on ${request.column}`, onFinished));
    } catch (error) {
      replaceChildren(result, actionError(error, "Creating the index"));
    }
  });
  return h("section", { class: "action" }, h("h3", {}, "Create an index"), form);
}

function dropButton(parts, index, jobs, onFinished, result) {
  const button = h("button", { type: "button", class: "danger small", "aria-label": `Drop index ${index.index_name}` }, "Drop");
  button.addEventListener("click", async () => {
    if (!confirm(`Drop index ${index.index_name}? Queries on ${index.columns.join(", ")} fall back to scans.`)) return;
    try {
      const { job_id: jobId } = await api.dropTableIndex(parts, index.index_name);
      actionSucceeded();
      jobs.prepend(watchJob(jobId, `Dropping index ${index.index_name}`, onFinished));
    } catch (error) {
      replaceChildren(result, actionError(error, `Dropping index ${index.index_name}`));
    }
  });
  return button;
}

export async function indexesPanel(parts) {
  const table = await api.describeTable(parts);
  const list = h("div");
  const jobs = h("div", { class: "jobs-watched" });
  const result = h("div");
  const showList = () =>
    loadInto(list, "Listing indexes", async () => {
      const { indexes } = await api.listTableIndices(parts);
      const rows = indexes.map((index) => [
        index.index_name,
        index.columns.join(", "),
        index.index_type ?? "–",
        index.status,
        formatCount(index.num_indexed_rows ?? 0),
        formatCount(index.num_unindexed_rows ?? 0),
        formatBytes(index.size_bytes ?? undefined),
        dropButton(parts, index, jobs, showList, result),
      ]);
      return h("div", {}, dataTable("Indexes", ["Index", "Columns", "Type", "Status", "Indexed rows", "Unindexed rows", "Size", "Action"], rows, { empty: "none yet" }), coverage(indexes));
    });
  await showList();
  return h("div", {}, list, result, jobs, createForm(parts, table.schema, jobs, showList));
}
