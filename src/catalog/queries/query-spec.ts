/**
 * @module Turns a query request into the engine's query spec. It accepts the spec's shapes and
 * the LanceDB Cloud client's (spec/clients.md §2.4), in one place: `vector` as
 * `{single_vector|multi_vector}`, `[]`, `[n…]` or `[[n…]…]`; `columns` as
 * `{column_names|column_aliases}`, a list or an `{alias: sql}` map; `full_text_query` as
 * `{string_query|structured_query}` or the Cloud client's `{query, columns?}`.
 */
import type { FtsNode, FullTextSpec, QuerySpec } from "../../engine/engine.js";
import type { QueryTableRequest } from "../../model/query.js";
import { invalidInput } from "../../model/catalog-error.js";

/**
 * The engine counts rows in 32 bits: a `k` beyond that is "no limit" (the Cloud client sends
 * i64::MAX for it), and an offset beyond it is refused rather than wrapped.
 */
const engineCountLimit = 2 ** 32;
const distanceTypes = ["l2", "cosine", "dot", "hamming"];

export function toQuerySpec(request: QueryTableRequest): QuerySpec {
  const spec: QuerySpec = { vectors: vectorsOf(request.vector) };
  const k = request.k;
  if (k != null && k < engineCountLimit) spec.limit = k;
  if (request.offset != null && request.offset >= engineCountLimit) throw invalidInput(`offset must be below ${engineCountLimit}`);
  if (request.distance_type != null && !distanceTypes.includes(request.distance_type.toLowerCase())) {
    throw invalidInput(`distance_type must be one of ${distanceTypes.join(", ")}; got ${JSON.stringify(request.distance_type)}`);
  }
  const copy = <K extends keyof QuerySpec>(key: K, value: QuerySpec[K] | null | undefined) => {
    if (value !== undefined && value !== null) spec[key] = value;
  };
  copy("offset", request.offset);
  copy("vectorColumn", request.vector_column);
  copy("distanceType", request.distance_type);
  copy("nprobes", request.nprobes);
  copy("minimumNprobes", request.minimum_nprobes);
  copy("maximumNprobes", request.maximum_nprobes);
  copy("ef", request.ef);
  copy("refineFactor", request.refine_factor);
  copy("lowerBound", request.lower_bound);
  copy("upperBound", request.upper_bound);
  copy("bypassVectorIndex", request.bypass_vector_index);
  copy("fastSearch", request.fast_search);
  copy("prefilter", request.prefilter);
  copy("withRowId", request.with_row_id);
  if (request.filter) spec.filter = request.filter;
  const columns = columnsOf(request.columns);
  if (columns) spec.columns = columns;
  const fullText = fullTextOf(request.full_text_query);
  if (fullText) spec.fullText = fullText;
  // A hybrid search's rows come ranked by its reranker, which drops any ordering asked for.
  if (request.order_by && request.order_by.length > 0 && fullText && spec.vectors.length > 0) {
    throw invalidInput("order_by cannot be combined with a hybrid query (vector and full_text_query): its rows are ranked by relevance; order a vector or a full-text search alone");
  }
  // `k` = 0 answers no rows whatever the order, and the engine's top-k sort refuses a k of 0.
  if (request.order_by && request.order_by.length > 0 && spec.limit !== 0) {
    spec.orderBy = request.order_by.map((o) => ({ columnName: o.column_name, ascending: o.ascending ?? true, nullsFirst: o.nulls_first ?? false }));
  }
  return spec;
}

function isNumberArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((n) => typeof n === "number");
}

function vectorsOf(vector: unknown): Float32Array[] {
  if (vector === undefined || vector === null) return [];
  if (Array.isArray(vector)) {
    if (vector.length === 0) return [];
    if (isNumberArray(vector)) return [Float32Array.from(vector)];
    if (vector.every(isNumberArray)) return vector.map((v) => Float32Array.from(v as number[]));
    throw invalidInput("vector must be a list of numbers or a list of lists of numbers");
  }
  if (typeof vector !== "object") throw invalidInput("vector must be an object with single_vector or multi_vector");
  const { single_vector: single, multi_vector: multi } = vector as { single_vector?: unknown; multi_vector?: unknown };
  if (single != null && multi != null) throw invalidInput("give vector.single_vector or vector.multi_vector, not both");
  if (single != null) {
    if (!isNumberArray(single)) throw invalidInput("vector.single_vector must be a list of numbers");
    return single.length === 0 ? [] : [Float32Array.from(single)];
  }
  if (multi != null) {
    if (!Array.isArray(multi) || !multi.every(isNumberArray)) throw invalidInput("vector.multi_vector must be a list of lists of numbers");
    return multi.filter((v) => v.length > 0).map((v) => Float32Array.from(v));
  }
  return [];
}

function stringList(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string" && v.length > 0)) throw invalidInput(`${what} must be a list of non-empty strings`);
  return value as string[];
}

function stringPairs(value: unknown, what: string): [string, string][] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidInput(`${what} must map output names to expressions`);
  const pairs = Object.entries(value);
  if (!pairs.every(([, v]) => typeof v === "string" && v.length > 0)) throw invalidInput(`${what} values must be non-empty strings`);
  return pairs as [string, string][];
}

function columnsOf(columns: unknown): QuerySpec["columns"] | undefined {
  if (columns === undefined || columns === null) return undefined;
  if (Array.isArray(columns)) return { names: stringList(columns, "columns") };
  if (typeof columns !== "object") throw invalidInput("columns must be an object with column_names or column_aliases");
  const { column_names: names, column_aliases: aliases } = columns as { column_names?: unknown; column_aliases?: unknown };
  if (names != null && aliases != null) throw invalidInput("give columns.column_names or columns.column_aliases, not both");
  if (names != null) return { names: stringList(names, "columns.column_names") };
  if (aliases != null) return { aliases: stringPairs(aliases, "columns.column_aliases") };
  // The Cloud client's select({alias: "sql"}) map.
  const pairs = stringPairs(columns, "columns");
  return pairs.length === 0 ? undefined : { aliases: pairs };
}

function fullTextOf(query: unknown): FullTextSpec | undefined {
  if (query === undefined || query === null) return undefined;
  if (typeof query !== "object" || Array.isArray(query)) throw invalidInput("full_text_query must be an object");
  const q = query as Record<string, unknown>;
  if (q.string_query != null) {
    const s = q.string_query as { query?: unknown; columns?: unknown };
    if (typeof s.query !== "string") throw invalidInput("full_text_query.string_query.query must be a string");
    return s.columns == null ? { kind: "string", query: s.query } : { kind: "string", query: s.query, columns: stringList(s.columns, "string_query.columns") };
  }
  if (q.structured_query != null) return { kind: "structured", query: ftsNode((q.structured_query as { query?: unknown }).query) };
  // The Cloud client: {query: "text", columns?} before server 0.3.0, {query: FtsQuery} after.
  if (typeof q.query === "string") {
    return q.columns == null ? { kind: "string", query: q.query } : { kind: "string", query: q.query, columns: stringList(q.columns, "full_text_query.columns") };
  }
  if (q.query != null) return { kind: "structured", query: ftsNode(q.query) };
  throw invalidInput("full_text_query needs string_query or structured_query");
}

/** Validates one structured FTS node; also takes the Cloud client's multi_match `{query, columns, boost[]}`. */
function ftsNode(node: unknown): FtsNode {
  if (typeof node !== "object" || node === null) throw invalidInput("a full-text query node must be an object");
  const entries = Object.entries(node).filter(([, v]) => v != null);
  if (entries.length !== 1) throw invalidInput("a full-text query node sets exactly one of match, phrase, boost, multi_match, boolean");
  const [kind, body] = entries[0] as [string, Record<string, unknown>];
  const text = (value: unknown, what: string) => {
    if (typeof value !== "string") throw invalidInput(`${kind}.${what} must be a string`);
    return value;
  };
  switch (kind) {
    case "match":
      return { match: { ...body, terms: text(body.terms ?? body.query, "terms") } as Extract<FtsNode, { match: unknown }>["match"] };
    case "phrase":
      return { phrase: { ...body, terms: text(body.terms ?? body.query, "terms") } as Extract<FtsNode, { phrase: unknown }>["phrase"] };
    case "boost":
      return { boost: { positive: ftsNode(body.positive), negative: ftsNode(body.negative), negative_boost: (body.negative_boost as number | null) ?? null } };
    case "multi_match": {
      if (Array.isArray(body.match_queries)) {
        return { multi_match: { match_queries: body.match_queries.map((m) => (ftsNode({ match: m }) as Extract<FtsNode, { match: unknown }>).match) } };
      }
      const terms = text(body.query, "query");
      const columns = stringList(body.columns, "multi_match.columns");
      const boosts = Array.isArray(body.boost) ? (body.boost as number[]) : [];
      return { multi_match: { match_queries: columns.map((column, i) => ({ terms, column, boost: boosts[i] ?? 1, operator: (body.operator as string) ?? null })) } };
    }
    case "boolean": {
      const list = (value: unknown) => (Array.isArray(value) ? value.map(ftsNode) : []);
      return { boolean: { must: list(body.must), should: list(body.should), must_not: list(body.must_not) } };
    }
    default:
      throw invalidInput(`unknown full-text query kind ${kind}`);
  }
}
