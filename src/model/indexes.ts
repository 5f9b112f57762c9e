/**
 * @module Index models (spec/endpoints.md §7).
 */
import { Type, type Static } from "@sinclair/typebox";
import { delimiterField, Nullable, pageFields, PageResponse, readAtFields, RequestModel, ResponseModel } from "./common.js";

const Positive = Type.Optional(Nullable(Type.Integer({ minimum: 1 })));

export const CreateTableIndexRequest = RequestModel("CreateTableIndexRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  column: Type.String({ minLength: 1 }),
  index_type: Type.Optional(Type.String({ description: "BTREE, BITMAP, LABEL_LIST, FTS, IVF_FLAT, IVF_PQ, IVF_RQ, IVF_HNSW_SQ, IVF_HNSW_PQ; absent or AUTO = by column type" })),
  name: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  distance_type: Type.Optional(Nullable(Type.String())),
  /** The LanceDB Cloud client's spelling of `distance_type`. */
  metric_type: Type.Optional(Nullable(Type.String())),
  /** Replace an index of the same name; default true, as in the LanceDB clients (false: an existing name is code 7). */
  replace: Type.Optional(Nullable(Type.Boolean())),
  num_partitions: Positive,
  num_sub_vectors: Positive,
  num_bits: Positive,
  sample_rate: Positive,
  max_iterations: Positive,
  target_partition_size: Positive,
  m: Positive,
  ef_construction: Positive,
  with_position: Type.Optional(Nullable(Type.Boolean())),
  base_tokenizer: Type.Optional(Nullable(Type.String())),
  language: Type.Optional(Nullable(Type.String())),
  max_token_length: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  lower_case: Type.Optional(Nullable(Type.Boolean())),
  stem: Type.Optional(Nullable(Type.Boolean())),
  remove_stop_words: Type.Optional(Nullable(Type.Boolean())),
  ascii_folding: Type.Optional(Nullable(Type.Boolean())),
  /** Quiver: false runs the build as a job and answers 202 with `job_id` (docs/jobs.md). */
  wait: Type.Optional(Nullable(Type.Boolean())),
});
export type CreateTableIndexRequest = Static<typeof CreateTableIndexRequest>;

export const CreateTableIndexResponse = ResponseModel("CreateTableIndexResponse", {
  /** Quiver: the name of the index built (the request's `name`, else `<column>_idx`). */
  index_name: Type.Optional(Type.String()),
  transaction_id: Type.Optional(Type.String()),
  /** Quiver: the job running the operation, when the client asked not to wait (202). */
  job_id: Type.Optional(Type.String()),
});
export type CreateTableIndexResponse = Static<typeof CreateTableIndexResponse>;

export const CreateTableScalarIndexResponse = ResponseModel("CreateTableScalarIndexResponse", {
  /** Quiver: the name of the index built (the request's `name`, else `<column>_idx`). */
  index_name: Type.Optional(Type.String()),
  transaction_id: Type.Optional(Type.String()),
  /** Quiver: the job running the operation, when the client asked not to wait (202). */
  job_id: Type.Optional(Type.String()),
});

export const ListTableIndicesRequest = RequestModel("ListTableIndicesRequest", {
  ...readAtFields,
  ...pageFields,
});
export type ListTableIndicesRequest = Static<typeof ListTableIndicesRequest>;

export const IndexContent = Type.Object(
  {
    index_name: Type.String(),
    index_uuid: Type.String(),
    columns: Type.Array(Type.String({ minLength: 1 })),
    status: Type.String(),
    index_type: Type.Optional(Type.String()),
    type_url: Type.Optional(Type.String()),
    num_indexed_rows: Type.Optional(Type.Integer({ minimum: 0 })),
    num_unindexed_rows: Type.Optional(Type.Integer({ minimum: 0 })),
    size_bytes: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
    num_segments: Type.Optional(Type.Integer({ minimum: 0 })),
    created_at: Type.Optional(Nullable(Type.String({ format: "date-time" }))),
    index_version: Type.Optional(Type.Integer({ minimum: 0 })),
    index_details: Type.Optional(Nullable(Type.String())),
  },
  { $id: "IndexContent" },
);
export type IndexContent = Static<typeof IndexContent>;

export const ListTableIndicesResponse = PageResponse("ListTableIndicesResponse", {
  indexes: Type.Array(IndexContent),
});
export type ListTableIndicesResponse = Static<typeof ListTableIndicesResponse>;

export const DescribeTableIndexStatsRequest = RequestModel("DescribeTableIndexStatsRequest", {
  ...readAtFields,
  index_name: Type.Optional(Nullable(Type.String())),
});
export type DescribeTableIndexStatsRequest = Static<typeof DescribeTableIndexStatsRequest>;

export const DescribeTableIndexStatsResponse = ResponseModel("DescribeTableIndexStatsResponse", {
  distance_type: Type.Optional(Nullable(Type.String())),
  index_type: Type.Optional(Nullable(Type.String())),
  num_indexed_rows: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  num_unindexed_rows: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  num_indices: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
});
export type DescribeTableIndexStatsResponse = Static<typeof DescribeTableIndexStatsResponse>;

export const DropTableIndexRequest = RequestModel("DropTableIndexRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  index_name: Type.Optional(Type.String()),
});
export type DropTableIndexRequest = Static<typeof DropTableIndexRequest>;

export const DropTableIndexResponse = ResponseModel("DropTableIndexResponse", {
  transaction_id: Type.Optional(Type.String()),
  /** Quiver: the job running the operation, when the client asked not to wait (202). */
  job_id: Type.Optional(Type.String()),
});
export type DropTableIndexResponse = Static<typeof DropTableIndexResponse>;

/** Query string of the index builds: `wait=false` runs one as a job (docs/jobs.md). */
export const IndexJobQuery = Type.Object({
  ...delimiterField,
  wait: Type.Optional(Type.Boolean()),
});

/** Query string of the routes that take `branch` there (index drop). */
export const BranchQuery = Type.Object({
  ...delimiterField,
  branch: Type.Optional(Type.String({ minLength: 1 })),
  /** Quiver: false runs the drop as a job (docs/jobs.md). */
  wait: Type.Optional(Type.Boolean()),
});

/** Query string of the prewarm routes, whose bodies carry no branch (the index one has none). */
export const PrewarmQuery = Type.Object({
  ...delimiterField,
  branch: Type.Optional(Type.String({ minLength: 1 })),
});
export type PrewarmQuery = Static<typeof PrewarmQuery>;

/** PrewarmTableIndex (the LanceDB clients' `index/{name}/prewarm`): no body; `branch` in the query. */
export const PrewarmTableIndexRequest = RequestModel("PrewarmTableIndexRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  index_name: Type.Optional(Type.String()),
});
export type PrewarmTableIndexRequest = Static<typeof PrewarmTableIndexRequest>;

export const PrewarmTableIndexResponse = ResponseModel("PrewarmTableIndexResponse", {});
export type PrewarmTableIndexResponse = Static<typeof PrewarmTableIndexResponse>;

/** PrewarmTablePageCache (the LanceDB clients' `page_cache/prewarm`): `columns` empty or absent means all. */
export const PrewarmTablePageCacheRequest = RequestModel("PrewarmTablePageCacheRequest", {
  columns: Type.Optional(Nullable(Type.Array(Type.String()))),
  branch: Type.Optional(Nullable(Type.String())),
});
export type PrewarmTablePageCacheRequest = Static<typeof PrewarmTablePageCacheRequest>;

export const PrewarmTablePageCacheResponse = ResponseModel("PrewarmTablePageCacheResponse", {});
export type PrewarmTablePageCacheResponse = Static<typeof PrewarmTablePageCacheResponse>;
