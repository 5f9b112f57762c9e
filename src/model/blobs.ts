/**
 * @module Blob and LSM models of the LanceDB Cloud client (spec/clients.md §2.3): FetchTableBlobs
 * (whole blobs of several rows), GetTableBlobBytes (one blob's bytes, by HTTP range), and the two
 * LSM getters, which report the write spec another writer installed.
 */
import { Type, type Static } from "@sinclair/typebox";
import { delimiterField, Nullable, readAtFields, RequestModel, ResponseModel } from "./common.js";

/** A row id as a query with row ids answers it (`_rowid`). */
const RowId = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

export const FetchTableBlobsRequest = RequestModel("FetchTableBlobsRequest", {
  ...readAtFields,
  column: Type.String({ minLength: 1 }),
  row_ids: Type.Array(RowId, { maxItems: 100_000 }),
});
export type FetchTableBlobsRequest = Static<typeof FetchTableBlobsRequest>;

export const GetTableBlobBytesRequest = RequestModel("GetTableBlobBytesRequest", {
  ...readAtFields,
  column: Type.String({ minLength: 1 }),
  row_id: Type.String({ description: "The row id, in decimal" }),
});
export type GetTableBlobBytesRequest = Static<typeof GetTableBlobBytesRequest>;

export const GetTableBlobBytesQuery = Type.Object({ ...delimiterField, ...readAtFields });

export const GetTableLsmWriteSpecRequest = RequestModel("GetTableLsmWriteSpecRequest", {});
export type GetTableLsmWriteSpecRequest = Static<typeof GetTableLsmWriteSpecRequest>;

const LsmSharding = Type.Object({
  mode: Type.Union([Type.Literal("bucket"), Type.Literal("identity"), Type.Literal("unsharded")]),
  column: Type.Optional(Type.String()),
  num_buckets: Type.Optional(Type.Integer({ minimum: 1 })),
});

export const GetTableLsmWriteSpecResponse = ResponseModel("GetTableLsmWriteSpecResponse", {
  lsm_write_spec: Nullable(
    Type.Object({
      sharding: LsmSharding,
      maintained_indexes: Type.Array(Type.String()),
      writer_config_defaults: Type.Record(Type.String(), Type.String()),
    }),
  ),
});
export type GetTableLsmWriteSpecResponse = Static<typeof GetTableLsmWriteSpecResponse>;

export const GetTableLsmStatsRequest = RequestModel("GetTableLsmStatsRequest", {
  include_generation_rows: Type.Optional(Nullable(Type.Boolean())),
});
export type GetTableLsmStatsRequest = Static<typeof GetTableLsmStatsRequest>;

/** Null for a table with no LSM write path; a table with one is refused (406), its live state being its writer's. */
export const GetTableLsmStatsResponse = ResponseModel("GetTableLsmStatsResponse", { lsm_stats: Type.Null() });
export type GetTableLsmStatsResponse = Static<typeof GetTableLsmStatsResponse>;
