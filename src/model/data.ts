/**
 * @module Row write models: insert, merge-insert, update, delete (spec/endpoints.md §5.2–5.5).
 */
import { Type, type Static } from "@sinclair/typebox";
import { delimiterField, Nullable, RequestModel, ResponseModel, StringMap, Version } from "./common.js";

/** InsertIntoTable's parameters besides the Arrow body (query string in REST). */
export const InsertIntoTableQuery = Type.Object({
  ...delimiterField,
  branch: Type.Optional(Type.String({ minLength: 1 })),
  mode: Type.Optional(Type.String({ description: "Append (default) | Overwrite" })),
  upload_id: Type.Optional(Type.String({ minLength: 1, description: "Stage the rows as a part of this multipart write instead of committing them" })),
  upload_part_id: Type.Optional(Type.String({ minLength: 1, description: "The part's id within the multipart write; the same part sent again replaces it" })),
});
export type InsertIntoTableQuery = Static<typeof InsertIntoTableQuery>;

export const InsertIntoTableRequest = RequestModel("InsertIntoTableRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  mode: Type.Optional(Nullable(Type.String({ default: "append" }))),
  upload_id: Type.Optional(Nullable(Type.String())),
  upload_part_id: Type.Optional(Nullable(Type.String())),
});
export type InsertIntoTableRequest = Static<typeof InsertIntoTableRequest>;

export const InsertIntoTableResponse = ResponseModel("InsertIntoTableResponse", {
  transaction_id: Type.Optional(Type.String()),
  num_inserted_rows: Type.Optional(Type.Integer({ minimum: 0 })),
  version: Type.Optional(Version),
});
export type InsertIntoTableResponse = Static<typeof InsertIntoTableResponse>;

const mergeFlags = {
  when_matched_update_all: Type.Optional(Type.Boolean({ default: false })),
  when_matched_update_all_filt: Type.Optional(Type.String()),
  when_not_matched_insert_all: Type.Optional(Type.Boolean({ default: false })),
  when_not_matched_by_source_delete: Type.Optional(Type.Boolean({ default: false })),
  when_not_matched_by_source_delete_filt: Type.Optional(Type.String()),
  timeout: Type.Optional(Type.String({ description: "Duration such as 30s, 5m, 250ms" })),
  use_index: Type.Optional(Type.Boolean()),
};

/** MergeInsertIntoTable's query string; `on` may repeat, once per key column. */
export const MergeInsertIntoTableQuery = Type.Object({
  ...delimiterField,
  branch: Type.Optional(Type.String({ minLength: 1 })),
  on: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  ...mergeFlags,
});
export type MergeInsertIntoTableQuery = Static<typeof MergeInsertIntoTableQuery>;

export const MergeInsertIntoTableRequest = RequestModel("MergeInsertIntoTableRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  on: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String({ minLength: 1 }))])),
  ...mergeFlags,
});
export type MergeInsertIntoTableRequest = Static<typeof MergeInsertIntoTableRequest>;

export const MergeInsertIntoTableResponse = ResponseModel("MergeInsertIntoTableResponse", {
  transaction_id: Type.Optional(Type.String()),
  num_updated_rows: Type.Optional(Type.Integer({ minimum: 0 })),
  num_inserted_rows: Type.Optional(Type.Integer({ minimum: 0 })),
  num_deleted_rows: Type.Optional(Type.Integer({ minimum: 0 })),
  /** The LanceDB Cloud client's fields: commit attempts in all, and source rows processed. */
  num_attempts: Type.Optional(Type.Integer({ minimum: 1 })),
  num_rows: Type.Optional(Type.Integer({ minimum: 0 })),
  version: Type.Optional(Version),
});
export type MergeInsertIntoTableResponse = Static<typeof MergeInsertIntoTableResponse>;

/** One `[field_path, sql_expression]` pair: exactly two strings. */
export const UpdatePair = Type.Array(Type.String(), { minItems: 2, maxItems: 2 });

export const UpdateTableRequest = RequestModel("UpdateTableRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  predicate: Type.Optional(Nullable(Type.String())),
  updates: Type.Array(UpdatePair),
  properties: Type.Optional(Nullable(StringMap)),
});
export type UpdateTableRequest = Static<typeof UpdateTableRequest>;

export const UpdateTableResponse = ResponseModel("UpdateTableResponse", {
  transaction_id: Type.Optional(Type.String()),
  updated_rows: Type.Integer({ minimum: 0 }),
  /** The same count under the name the LanceDB Cloud client reads. */
  rows_updated: Type.Optional(Type.Integer({ minimum: 0 })),
  version: Version,
  properties: Type.Optional(Nullable(StringMap)),
});
export type UpdateTableResponse = Static<typeof UpdateTableResponse>;

export const DeleteFromTableRequest = RequestModel("DeleteFromTableRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  predicate: Type.String(),
});
export type DeleteFromTableRequest = Static<typeof DeleteFromTableRequest>;

export const DeleteFromTableResponse = ResponseModel("DeleteFromTableResponse", {
  transaction_id: Type.Optional(Type.String()),
  version: Type.Optional(Version),
  /** Rows deleted: not in the spec's model, read by the LanceDB Cloud client. */
  num_deleted_rows: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type DeleteFromTableResponse = Static<typeof DeleteFromTableResponse>;

/** The query string of the multipart write routes: the branch, and the upload (complete, abort). */
/** CreateMultipartWrite's query: the upload id is what it answers, so it takes none. */
export const CreateMultipartWriteQuery = Type.Object({
  ...delimiterField,
  branch: Type.Optional(Type.String({ minLength: 1 })),
});

/** The query of the requests naming an upload: CreateMultipartWrite's, and the upload id. */
export const MultipartWriteQuery = Type.Object({
  ...CreateMultipartWriteQuery.properties,
  upload_id: Type.Optional(Type.String({ minLength: 1 })),
});

export const CreateMultipartWriteRequest = RequestModel("CreateMultipartWriteRequest", {
  branch: Type.Optional(Nullable(Type.String())),
});
export type CreateMultipartWriteRequest = Static<typeof CreateMultipartWriteRequest>;

export const CreateMultipartWriteResponse = ResponseModel("CreateMultipartWriteResponse", {
  upload_id: Type.String({ description: "Names the upload in each part's `insert?upload_id=` and in complete or abort" }),
  expires_at: Type.Optional(Type.Integer({ description: "When an upload not completed is aborted, in epoch milliseconds" })),
});
export type CreateMultipartWriteResponse = Static<typeof CreateMultipartWriteResponse>;

export const CompleteMultipartWriteRequest = RequestModel("CompleteMultipartWriteRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  upload_id: Type.Optional(Nullable(Type.String())),
});
export type CompleteMultipartWriteRequest = Static<typeof CompleteMultipartWriteRequest>;

export const CompleteMultipartWriteResponse = ResponseModel("CompleteMultipartWriteResponse", {
  version: Version,
  num_inserted_rows: Type.Optional(Type.Integer({ minimum: 0 })),
  transaction_id: Type.Optional(Type.String()),
});
export type CompleteMultipartWriteResponse = Static<typeof CompleteMultipartWriteResponse>;

export const AbortMultipartWriteRequest = RequestModel("AbortMultipartWriteRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  upload_id: Type.Optional(Nullable(Type.String())),
});
export type AbortMultipartWriteRequest = Static<typeof AbortMultipartWriteRequest>;

export const AbortMultipartWriteResponse = ResponseModel("AbortMultipartWriteResponse", {});
export type AbortMultipartWriteResponse = Static<typeof AbortMultipartWriteResponse>;
