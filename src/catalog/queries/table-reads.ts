/**
 * @module Reads (spec/endpoints.md §3.9, §5.6–5.9): QueryTable, CountTableRows,
 * ExplainTableQueryPlan, AnalyzeTableQueryPlan, GetTableStats.
 */
import { EngineError } from "../../engine/engine-errors.js";
import type { QueryResult, TableRef } from "../../engine/engine.js";
import type {
  AnalyzeTableQueryPlanRequest,
  CountTableRowsRequest,
  ExplainTableQueryPlanRequest,
  GetTableStatsRequest,
  GetTableStatsResponse,
  QueryTableRequest,
} from "../../model/query.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { overridesOf, translating } from "../failures.js";
import { tableLabel } from "../identifiers.js";
import { toQuerySpec } from "./query-spec.js";
import { loadTable } from "../table-lookup.js";
import { refOf, refOverrides } from "../table-refs.js";
import { readRefOf } from "../table-heads.js";
import { demandOverrides, readDemandOf } from "../read-demand.js";

/**
 * Runs `read` on the table `request` names, at the table's location and the ref the engine reads
 * at for `ref` and what the reader asks (the request's read demand, see read-demand.ts); engine
 * failures come out as the catalog errors naming that table, version and branch. A version asked
 * for that is not on the store yet is 404, code 11.
 */
export function readingTable<T>(scope: CatalogScope, request: WithId<object>, ref: TableRef, read: (location: string, at: TableRef) => Promise<T>): Promise<T> {
  const subject = tableLabel(request.id);
  const demand = readDemandOf(request);
  return translating(subject, async () => {
    const row = await loadTable(scope, request.id);
    return read(row.location, readRefOf(scope, row, ref, demand));
  }, overridesOf(refOverrides(subject, ref), demandOverrides(subject, ref, demand)));
}

/**
 * QueryTable: a filtered scan, vector search (one or several query vectors), full-text search
 * or both, on the latest version of main unless `version`/`branch` say otherwise. Without `k`
 * a scan returns every row and a search the engine's top 10; `k` ≥ 2^53 means no limit. The
 * result is one Arrow IPC file, produced batch by batch. Throws 1, 4, 11, 12, 13, 19, 22.
 */
export async function queryTable(scope: CatalogScope, request: WithId<QueryTableRequest>): Promise<QueryResult> {
  const spec = toQuerySpec(request);
  return readingTable(scope, request, refOf(request), (location, at) => scope.engine.query.run(location, at, spec));
}

/** CountTableRows: rows matching `predicate` (all when absent). Throws 1, 4, 11, 12, 13, 22. */
export async function countTableRows(scope: CatalogScope, request: WithId<CountTableRowsRequest>): Promise<number> {
  return readingTable(scope, request, refOf(request), (location, at) =>
    scope.engine.query.count(location, at, request.predicate || null).catch((error: unknown) => {
      // A declared-only table has no rows yet.
      if (error instanceof EngineError && error.kind === "dataset-not-found") return 0;
      throw error;
    }),
  );
}

/** ExplainTableQueryPlan: the plan of `query`, more detailed with `verbose` (default false). Throws 1, 4, 11, 12, 13, 19. */
export async function explainTableQueryPlan(scope: CatalogScope, request: WithId<ExplainTableQueryPlanRequest>): Promise<string> {
  const query = request.query as QueryTableRequest;
  const spec = toQuerySpec(query);
  const ref = refOf({ version: query.version, branch: request.branch ?? query.branch });
  return readingTable(scope, request, ref, (location, at) => scope.engine.query.explain(location, at, spec, request.verbose ?? false));
}

/** AnalyzeTableQueryPlan: runs the query and answers its plan with execution metrics. Throws 1, 4, 11, 12, 13, 19. */
export async function analyzeTableQueryPlan(scope: CatalogScope, request: WithId<AnalyzeTableQueryPlanRequest>): Promise<string> {
  const spec = toQuerySpec(request);
  return readingTable(scope, request, refOf(request), (location, at) => scope.engine.query.analyze(location, at, spec));
}

/** GetTableStats: size, rows, indices and fragment statistics of a branch (main by default). Throws 1, 4, 19, 22. */
export async function getTableStats(scope: CatalogScope, request: WithId<GetTableStatsRequest>): Promise<GetTableStatsResponse> {
  return readingTable(scope, request, refOf({ branch: request.branch }), async (location, at) => {
    const stats = await scope.engine.query.statistics(location, at);
    const l = stats.fragmentStats.lengths;
    return {
      total_bytes: stats.totalBytes,
      num_rows: stats.numRows,
      num_indices: stats.numIndices,
      fragment_stats: {
        num_fragments: stats.fragmentStats.numFragments,
        num_small_fragments: stats.fragmentStats.numSmallFragments,
        lengths: { min: l.min, max: l.max, mean: l.mean, p25: l.p25, p50: l.p50, p75: l.p75, p99: l.p99 },
      },
    };
  });
}
