/**
 * @module Index operations (spec/endpoints.md §7): CreateTableIndex, CreateTableScalarIndex,
 * ListTableIndices, DescribeTableIndexStats, DropTableIndex; and the LanceDB clients' cache
 * prewarming (PrewarmTableIndex, PrewarmTablePageCache). Builds finish before answering.
 */
import { type IndexSpec, indexTypes, specIndexType } from "../../engine/engine.js";
import type {
  CreateTableIndexRequest,
  CreateTableIndexResponse,
  DescribeTableIndexStatsRequest,
  DescribeTableIndexStatsResponse,
  DropTableIndexRequest,
  DropTableIndexResponse,
  IndexContent,
  ListTableIndicesRequest,
  ListTableIndicesResponse,
  PrewarmTableIndexRequest,
  PrewarmTableIndexResponse,
  PrewarmTablePageCacheRequest,
  PrewarmTablePageCacheResponse,
} from "../../model/indexes.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { recordCommittedWrite } from "../transaction-records.js";
import { tableLabel } from "../identifiers.js";
import { pageAfter } from "../pagination.js";
import { loadTableWithData } from "../table-lookup.js";
import { refOf } from "../table-refs.js";
import { indexNotFound, withTableData } from "./table-with-data.js";

/** The name an index is built under: the request's `name`, else `<column>_idx` as Lance names it. */
export function indexNameOf(spec: IndexSpec): string {
  return spec.name ?? `${spec.column}_idx`;
}

/**
 * The engine's build parameters of a request; an unknown `index_type` is InvalidInput (13).
 * `replace` defaults to true, as the LanceDB clients document it (the Cloud client never sends
 * it); only an explicit false protects an existing index.
 */
export function indexSpecOf(request: CreateTableIndexRequest): IndexSpec {
  const indexType = (request.index_type ?? "AUTO").trim().replace(/^"+|"+$/g, "").toUpperCase();
  if (!(indexTypes as readonly string[]).includes(indexType)) {
    throw invalidInput(`index_type ${JSON.stringify(request.index_type)} is not one of ${indexTypes.join(", ")}`);
  }
  const v = <T>(value: T | null | undefined): T | undefined => value ?? undefined;
  return {
    column: request.column,
    indexType,
    name: v(request.name),
    replace: request.replace ?? true,
    distanceType: v(request.distance_type ?? request.metric_type),
    numPartitions: v(request.num_partitions),
    numSubVectors: v(request.num_sub_vectors),
    numBits: v(request.num_bits),
    sampleRate: v(request.sample_rate),
    maxIterations: v(request.max_iterations),
    m: v(request.m),
    efConstruction: v(request.ef_construction),
    withPosition: v(request.with_position),
    baseTokenizer: v(request.base_tokenizer),
    language: v(request.language),
    maxTokenLength: v(request.max_token_length),
    lowerCase: v(request.lower_case),
    stem: v(request.stem),
    removeStopWords: v(request.remove_stop_words),
    asciiFolding: v(request.ascii_folding),
  };
}

/**
 * CreateTableIndex: builds a vector (IVF_FLAT, IVF_PQ, IVF_RQ, IVF_HNSW_SQ, IVF_HNSW_PQ), scalar
 * (BTREE, BITMAP, LABEL_LIST) or full-text (FTS) index on `column`; without `index_type` the
 * engine picks by column type. `name` defaults to `<column>_idx`; an index of that name is
 * rebuilt, unless `replace` is false (then 7). Answers the `index_name` built and the commit's
 * `transaction_id`.
 * Throws 1, 4, 7, 12, 13, 14, 19.
 */
export async function createTableIndex(scope: CatalogScope, request: WithId<CreateTableIndexRequest>): Promise<CreateTableIndexResponse> {
  const spec = indexSpecOf(request);
  const ref = refOf({ branch: request.branch });
  const version = await withTableData(scope, request.id, ref, (row) => scope.engine.indexes.create(row.location, ref, spec), (subject) => ({
    "index-exists": CatalogError.of("TableIndexAlreadyExists", `${subject} already has an index named '${indexNameOf(spec)}'`),
  }));
  return { index_name: indexNameOf(spec), ...(await recordCommittedWrite(scope, "CreateTableIndex", request.id, version, request.branch, { index_name: indexNameOf(spec), column: request.column })) };
}

/**
 * ListTableIndices: every index of the version/branch asked for, ordered by name, paged by
 * `limit` with the last name as `page_token`. Throws 1, 4, 11, 19, 22.
 */
export async function listTableIndices(scope: CatalogScope, request: WithId<ListTableIndicesRequest>): Promise<ListTableIndicesResponse> {
  const ref = refOf(request);
  return withTableData(scope, request.id, ref, async (row) => {
    const all = (await scope.engine.indexes.list(row.location, ref)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const limit = request.limit || undefined;
    const page = pageAfter(all, request.page_token || undefined, limit, (index) => index.name);
    const indexes: IndexContent[] = page.items.map((index) => {
      const content: IndexContent = {
        index_name: index.name,
        index_uuid: index.indexUuid ?? "",
        columns: index.columns,
        status: (index.numUnindexedRows ?? 0) > 0 ? "ready, with unindexed rows" : "ready",
        index_type: specIndexType(index.indexType),
      };
      if (index.typeUrl) content.type_url = index.typeUrl;
      if (index.numIndexedRows !== undefined) content.num_indexed_rows = index.numIndexedRows;
      if (index.numUnindexedRows !== undefined) content.num_unindexed_rows = index.numUnindexedRows;
      content.size_bytes = index.sizeBytes ?? null;
      if (index.numSegments !== undefined) content.num_segments = index.numSegments;
      content.created_at = index.createdAt ? new Date(index.createdAt).toISOString() : null;
      if (index.indexVersion !== undefined) content.index_version = index.indexVersion;
      content.index_details = index.indexDetails === undefined ? null : JSON.stringify(index.indexDetails);
      return content;
    });
    return page.page_token === undefined ? { indexes } : { indexes, page_token: page.page_token };
  });
}

/** DescribeTableIndexStats: rows indexed and not, type, metric and segments of one index. Throws 1, 4, 6, 11, 19, 22. */
export async function describeTableIndexStats(
  scope: CatalogScope,
  request: WithId<DescribeTableIndexStatsRequest> & { index_name: string },
): Promise<DescribeTableIndexStatsResponse> {
  const ref = refOf(request);
  return withTableData(scope, request.id, ref, async (row) => {
    const stats = await scope.engine.indexes.statistics(row.location, ref, request.index_name);
    return {
      index_type: specIndexType(stats.indexType),
      distance_type: stats.distanceType ?? null,
      num_indexed_rows: stats.numIndexedRows,
      num_unindexed_rows: stats.numUnindexedRows,
      num_indices: stats.numIndices ?? null,
    };
  }, indexNotFound(request.index_name));
}

/** DropTableIndex: removes one index (the data stays); answers the commit's `transaction_id`. Throws 1, 4, 6, 19, 22. */
export async function dropTableIndex(scope: CatalogScope, request: WithId<DropTableIndexRequest> & { index_name: string }): Promise<DropTableIndexResponse> {
  const ref = refOf({ branch: request.branch });
  const version = await withTableData(scope, request.id, ref, (row) => scope.engine.indexes.drop(row.location, ref, request.index_name), indexNotFound(request.index_name));
  return recordCommittedWrite(scope, "DropTableIndex", request.id, version, request.branch, { index_name: request.index_name });
}

/**
 * PrewarmTableIndex: loads index `index_name` into the engine's index cache, so the next
 * searches of the table through this server skip reading it. Throws 1, 4, 6, 19, 22.
 */
export async function prewarmTableIndex(scope: CatalogScope, request: WithId<PrewarmTableIndexRequest> & { index_name: string }): Promise<PrewarmTableIndexResponse> {
  const ref = refOf({ branch: request.branch });
  await withTableData(scope, request.id, ref, (row) => scope.engine.indexes.prewarm(row.location, ref, request.index_name), indexNotFound(request.index_name));
  return {};
}

/**
 * PrewarmTablePageCache: the Lance binding prewarms data pages only for tables it reaches over
 * HTTP, not for the local tables this server opens, so this answers Unsupported (0) once the
 * table is found. Throws 0, 1, 4, 19.
 */
export async function prewarmTablePageCache(scope: CatalogScope, request: WithId<PrewarmTablePageCacheRequest>): Promise<PrewarmTablePageCacheResponse> {
  await translating(tableLabel(request.id), () => loadTableWithData(scope, request.id));
  throw CatalogError.of("Unsupported", "prewarming the page cache is not supported: this server's Lance engine prewarms data pages only for remote tables; index prewarming (index/{name}/prewarm) is supported");
}
