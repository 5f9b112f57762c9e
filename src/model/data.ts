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
});
export type InsertIntoTableQuery = Static<typeof InsertIntoTableQuery>;

export const InsertIntoTableRequest = RequestModel("InsertIntoTableRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  mode: Type.Optional(Nullable(Type.String({ default: "append" }))),
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
