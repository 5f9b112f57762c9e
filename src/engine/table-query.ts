/**
 * @module Reads: queries (plain scan, vector search, full-text search, hybrids), row counts,
 * query plans and table statistics. Query results leave the engine as IPC bytes, batch by batch.
 */
import type { Buffer } from "node:buffer";
import type { Engine, TableRef } from "./engine.js";
import { EngineError } from "./engine-errors.js";
import { mergeIpcFiles, rowsOfIpcFile } from "./ipc-file-merge.js";
import { type NativeQuery, type NativeTable, type NativeTableStatistics, type NativeVectorQuery, native } from "./lance-native.js";
import type * as Native from "lancedb-native-types";
import { objectPathOf } from "../storage/locations.js";
import type { StoreUsage } from "../storage/storages.js";
import { inSpan } from "../tracing/spans.js";

/** One node of a structured full-text query (spec/endpoints.md §5.6 `FtsQuery`). */
export type FtsNode =
  | { match: { terms: string; column?: string | null; boost?: number | null; fuzziness?: number | null; max_expansions?: number | null; operator?: string | null; prefix_length?: number | null } }
  | { phrase: { terms: string; column?: string | null; slop?: number | null } }
  | { boost: { positive: FtsNode; negative: FtsNode; negative_boost?: number | null } }
  | { multi_match: { match_queries: Extract<FtsNode, { match: unknown }>["match"][] } }
  | { boolean: { must: FtsNode[]; should: FtsNode[]; must_not: FtsNode[] } };

export type FullTextSpec = { kind: "string"; query: string; columns?: string[] } | { kind: "structured"; query: FtsNode };

/** A query with every knob normalized; absent fields mean the engine's default. */
export interface QuerySpec {
  /** Query vectors; empty for no vector search. */
  vectors: Float32Array[];
  vectorColumn?: string;
  distanceType?: string;
  nprobes?: number;
  minimumNprobes?: number;
  maximumNprobes?: number;
  ef?: number;
  refineFactor?: number;
  lowerBound?: number;
  upperBound?: number;
  bypassVectorIndex?: boolean;
  fastSearch?: boolean;
  /** Filter before the vector search (default) or after it. */
  prefilter?: boolean;
  filter?: string;
  fullText?: FullTextSpec;
  /** Field paths to return, or output name → SQL expression / field path. */
  columns?: { names: string[] } | { aliases: [string, string][] };
  /** Row limit; absent = every row (plain scans) or the engine's top-k default (searches). */
  limit?: number;
  offset?: number;
  withRowId?: boolean;
  orderBy?: Native.ColumnOrdering[];
}

type AnyQuery = NativeQuery | NativeVectorQuery;

/** Builds the native query for `spec` on an opened table. */
export async function buildQuery(table: NativeTable, spec: QuerySpec): Promise<AnyQuery> {
  let query: AnyQuery = table.query();
  const [firstVector, ...moreVectors] = spec.vectors;
  if (firstVector) {
    const vectorQuery = (query as NativeQuery).nearestTo(firstVector);
    for (const vector of moreVectors) vectorQuery.addQueryVector(vector);
    if (spec.vectorColumn) vectorQuery.column(spec.vectorColumn);
    if (spec.distanceType) vectorQuery.distanceType(spec.distanceType.toLowerCase());
    if (spec.nprobes !== undefined && spec.nprobes > 0) vectorQuery.nprobes(spec.nprobes);
    if (spec.minimumNprobes !== undefined && spec.minimumNprobes > 0) vectorQuery.minimumNprobes(spec.minimumNprobes);
    if (spec.maximumNprobes !== undefined && spec.maximumNprobes > 0) vectorQuery.maximumNprobes(spec.maximumNprobes);
    if (spec.ef !== undefined) vectorQuery.ef(spec.ef);
    if (spec.refineFactor !== undefined) vectorQuery.refineFactor(spec.refineFactor);
    if (spec.lowerBound !== undefined || spec.upperBound !== undefined) vectorQuery.distanceRange(spec.lowerBound ?? null, spec.upperBound ?? null);
    if (spec.bypassVectorIndex) vectorQuery.bypassVectorIndex();
    if (spec.prefilter === false) vectorQuery.postfilter();
    query = vectorQuery;
  }
  if (spec.fullText) query.fullTextSearch(await nativeFullText(table, spec.fullText));
  if (spec.filter) query.onlyIf(spec.filter);
  if (spec.columns && "names" in spec.columns) query.selectColumns(spec.columns.names);
  if (spec.columns && "aliases" in spec.columns) query.select(spec.columns.aliases);
  if (spec.limit !== undefined) query.limit(spec.limit);
  if (spec.offset) query.offset(spec.offset);
  if (spec.fastSearch) query.fastSearch();
  if (spec.withRowId) query.withRowId();
  if (spec.orderBy && spec.orderBy.length > 0) query.orderBy(spec.orderBy);
  return query;
}

/** The full-text query object the binding takes: `{query, columns}` or `{query: JsFullTextQuery}`. */
async function nativeFullText(table: NativeTable, fullText: FullTextSpec): Promise<object> {
  if (fullText.kind === "string") return { query: fullText.query, columns: fullText.columns ?? null };
  let ftsColumns: string[] | undefined;
  // A match without a column searches every FTS-indexed column.
  const defaultColumns = async () => {
    ftsColumns ??= (await table.listIndices()).filter((index) => index.indexType.toUpperCase() === "FTS").flatMap((index) => index.columns);
    if (ftsColumns.length === 0) throw new EngineError("invalid-input", "full-text search needs an FTS index; create one first");
    return ftsColumns;
  };
  const build = async (node: FtsNode): Promise<Native.JsFullTextQuery> => {
    const Q = native().JsFullTextQuery;
    if ("match" in node) {
      const m = node.match;
      const operator = (m.operator ?? "Or").toUpperCase();
      const args = [m.boost ?? 1, m.fuzziness ?? 0, m.max_expansions ?? 50, operator, m.prefix_length ?? 0] as const;
      if (m.column) return Q.matchQuery(m.terms, m.column, ...args);
      const columns = await defaultColumns();
      if (columns.length === 1) return Q.matchQuery(m.terms, columns[0] as string, ...args);
      return Q.multiMatchQuery(m.terms, columns, null, operator);
    }
    if ("phrase" in node) {
      const p = node.phrase;
      const column = p.column ?? (await defaultColumns())[0];
      return Q.phraseQuery(p.terms, column as string, p.slop ?? 0);
    }
    if ("boost" in node) {
      const b = node.boost;
      return Q.boostQuery(await build(b.positive), await build(b.negative), b.negative_boost ?? null);
    }
    if ("multi_match" in node) {
      const queries = node.multi_match.match_queries;
      const first = queries[0];
      if (!first) throw new EngineError("invalid-input", "multi_match needs at least one match query");
      const columns = queries.map((q) => q.column).filter((c): c is string => Boolean(c));
      const boosts = queries.map((q) => q.boost ?? 1);
      return Q.multiMatchQuery(first.terms, columns.length > 0 ? columns : await defaultColumns(), columns.length === queries.length ? boosts : null, (first.operator ?? "Or").toUpperCase());
    }
    const clauses: [string, Native.JsFullTextQuery][] = [];
    for (const q of node.boolean.must) clauses.push(["MUST", await build(q)]);
    for (const q of node.boolean.should) clauses.push(["SHOULD", await build(q)]);
    for (const q of node.boolean.must_not) clauses.push(["MUST_NOT", await build(q)]);
    return Q.booleanQuery(clauses);
  };
  return { query: await build(fullText.query) };
}

/** A query's result as one Arrow IPC file, produced batch by batch. */
export interface QueryResult {
  version: number;
  /** IPC file bytes; planning errors are raised before the first chunk is produced. */
  chunks: AsyncIterable<Buffer>;
  /**
   * What the engine's reads of the table's objects cost until the answer was ready to start:
   * all of it for an answer of at most two batches. Undefined when no object cache serves the
   * table (a local folder, the cache off).
   */
  storeUsage?: (StoreUsage & { readFrom: "object-store" | "local-copy" }) | undefined;
}

/** Largest batch the engine hands over at once: bounds memory per response. */
const maxBatchRows = 8192;

/**
 * Runs a query, on a local copy of the table when one holds the version read (the store when the
 * copy fails it). The first batch is fetched before returning, so a bad filter or an unknown
 * column fails here and never after the response has started; while the answer may go on, the
 * second is fetched too, so the store reads counted for an answer of up to two batches are all of
 * its reads.
 */
function runQuery(engine: Engine, location: string, ref: TableRef, spec: QuerySpec): Promise<QueryResult> {
  return inSpan("engine.query", { "quiver.table.location": location }, async () => {
    const stopMeter = engine.storages.meterEngineReads(location);
    try {
      const { value: chunks, fromCopy, version } = await engine.readOnCopyOrStore(location, ref, (table) => startQuery(engine, table, spec));
      const usage = stopMeter?.();
      return { version, chunks, storeUsage: usage && { ...usage, readFrom: fromCopy ? "local-copy" : "object-store" } };
    } finally {
      stopMeter?.();
    }
  });
}

/**
 * Starts `spec` on `table`: its answer with the first batches fetched (the version it reads is
 * asked alongside, by `readOnCopyOrStore`).
 */
async function startQuery(engine: Engine, table: NativeTable, spec: QuerySpec): Promise<AsyncIterable<Buffer>> {
  const query = await engine.call(() => buildQuery(table, spec));
  const iterator = await engine.call(() => query.execute(maxBatchRows));
  const first = (await engine.call(() => iterator.next())) ?? (await engine.call(() => query.outputSchema()));
  // A first batch already holding the whole limit is the whole answer (with one query vector:
  // several get `limit` rows each), which spares asking the engine for an end it has reached.
  const complete = spec.limit !== undefined && spec.vectors.length <= 1 && rowsOfIpcFile(first) >= spec.limit;
  const second = complete ? null : await engine.call(() => iterator.next());
  let peeked = second !== null;
  const next = second === null ? async () => null : async () => {
    if (!peeked) return engine.call(() => iterator.next());
    peeked = false;
    return second;
  };
  return mergeIpcFiles(first, next);
}

/** Rows matching `predicate` (all rows without one). */
function countRows(engine: Engine, location: string, ref: TableRef, predicate?: string | null): Promise<number> {
  return inSpan("engine.countRows", { "quiver.table.location": location }, async () => {
    const { value } = await engine.readOnCopyOrStore(location, ref, (table) => engine.call(() => table.countRows(predicate ?? null)));
    return value;
  });
}

/** The plan the engine would run for `spec`. */
async function explainQuery(engine: Engine, location: string, ref: TableRef, spec: QuerySpec, verbose: boolean): Promise<string> {
  const table = await engine.readTable(location, ref);
  const plan = await engine.call(async () => (await buildQuery(table, spec)).explainPlan(verbose));
  return withAbsoluteUris(plan, location);
}

/** Runs `spec` and returns its plan with execution metrics. */
async function analyzeQuery(engine: Engine, location: string, ref: TableRef, spec: QuerySpec): Promise<string> {
  const table = await engine.readTable(location, ref);
  const plan = await engine.call(async () => (await buildQuery(table, spec)).analyzePlan());
  return withAbsoluteUris(plan, location);
}

/**
 * Lance prints the files a plan reads as object-store paths, which drop a local path's leading
 * slash (`uri=tmp/t.lance/data`) and a URI's scheme and bucket; the plan shows the table's
 * location as clients know it.
 */
export function withAbsoluteUris(plan: string, location: string): string {
  return plan.split(`uri=${objectPathOf(location).replace(/^\/+/, "")}`).join(`uri=${location}`);
}

async function tableStatistics(engine: Engine, location: string, ref: TableRef): Promise<NativeTableStatistics> {
  const table = await engine.readTable(location, ref);
  return engine.call(() => table.stats());
}

/** The reads of one engine: queries, counts, plans and statistics of one version of a table. */
export class TableQueries {
  constructor(private readonly engine: Engine) {}

  /** Runs `spec` and returns its rows as Arrow IPC. */
  run(location: string, ref: TableRef, spec: QuerySpec): Promise<QueryResult> {
    return runQuery(this.engine, location, ref, spec);
  }

  /** Rows matching `predicate` (every row when absent). */
  count(location: string, ref: TableRef, predicate?: string | null): Promise<number> {
    return countRows(this.engine, location, ref, predicate);
  }

  /** The plan `spec` would run. */
  explain(location: string, ref: TableRef, spec: QuerySpec, verbose: boolean): Promise<string> {
    return explainQuery(this.engine, location, ref, spec, verbose);
  }

  /** Runs `spec` and returns its plan with execution metrics. */
  analyze(location: string, ref: TableRef, spec: QuerySpec): Promise<string> {
    return analyzeQuery(this.engine, location, ref, spec);
  }

  /** Storage and fragment statistics of the table. */
  statistics(location: string, ref: TableRef): Promise<NativeTableStatistics> {
    return tableStatistics(this.engine, location, ref);
  }
}
