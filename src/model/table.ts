/**
 * @module Table metadata operation models (spec/endpoints.md §3, §5.1).
 */
import { Type, type Static } from "@sinclair/typebox";
import { delimiterField, Nullable, ObjectId, pageFields, PageResponse, readAtFields, RequestModel, ResponseModel, StringMap, TransactionResponse, Version } from "./common.js";
import type { JsonArrowSchema } from "./schema-json.js";

export const RegisterTableRequest = RequestModel("RegisterTableRequest", {
  location: Type.String({ minLength: 1 }),
  mode: Type.Optional(Nullable(Type.String({ description: "Create (default) | Overwrite" }))),
  properties: Type.Optional(Nullable(StringMap)),
});
export type RegisterTableRequest = Static<typeof RegisterTableRequest>;

export const RegisterTableResponse = ResponseModel("RegisterTableResponse", {
  transaction_id: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
  properties: Type.Optional(Nullable(StringMap)),
});
export type RegisterTableResponse = Static<typeof RegisterTableResponse>;

export const DescribeTableRequest = RequestModel("DescribeTableRequest", {
  version: Type.Optional(Nullable(Version)),
  tag: Type.Optional(Nullable(Type.String())),
  branch: Type.Optional(Nullable(Type.String())),
  with_table_uri: Type.Optional(Nullable(Type.Boolean())),
  load_detailed_metadata: Type.Optional(Nullable(Type.Boolean())),
  check_declared: Type.Optional(Nullable(Type.Boolean())),
  vend_credentials: Type.Optional(Nullable(Type.Boolean())),
});
export type DescribeTableRequest = Static<typeof DescribeTableRequest>;

export const TableBasicStats = Type.Object(
  {
    num_deleted_rows: Type.Integer({ minimum: 0 }),
    num_fragments: Type.Integer({ minimum: 0 }),
  },
  { title: "TableBasicStats" },
);
export type TableBasicStats = Static<typeof TableBasicStats>;

export const DescribeTableResponse = ResponseModel("DescribeTableResponse", {
  table: Type.Optional(Type.String()),
  namespace: Type.Optional(Type.Array(Type.String())),
  version: Type.Optional(Version),
  location: Type.Optional(Type.String()),
  table_uri: Type.Optional(Type.String()),
  schema: Type.Optional(Type.Unsafe<JsonArrowSchema>(Type.Ref("JsonArrowSchema"))),
  storage_options: Type.Optional(StringMap),
  stats: Type.Optional(Nullable(TableBasicStats)),
  metadata: Type.Optional(StringMap),
  properties: Type.Optional(Nullable(StringMap)),
  managed_versioning: Type.Optional(Type.Boolean()),
  is_only_declared: Type.Optional(Nullable(Type.Boolean())),
});
export type DescribeTableResponse = Static<typeof DescribeTableResponse>;

/** Describe's switches travel as query parameters in REST and win over the body. */
export const DescribeTableQuery = Type.Object({
  ...delimiterField,
  with_table_uri: Type.Optional(Type.Boolean()),
  load_detailed_metadata: Type.Optional(Type.Boolean()),
  check_declared: Type.Optional(Type.Boolean()),
});

export const TableExistsRequest = RequestModel("TableExistsRequest", readAtFields);
export type TableExistsRequest = Static<typeof TableExistsRequest>;

export const DropTableRequest = RequestModel("DropTableRequest", {});
export type DropTableRequest = Static<typeof DropTableRequest>;

/** Drop and deregister answer the same fields. */
const removedTableFields = {
  transaction_id: Type.Optional(Type.String()),
  id: Type.Optional(ObjectId),
  location: Type.Optional(Type.String()),
  properties: Type.Optional(Nullable(StringMap)),
};

export const DropTableResponse = ResponseModel("DropTableResponse", removedTableFields);
export type DropTableResponse = Static<typeof DropTableResponse>;

export const DeregisterTableRequest = RequestModel("DeregisterTableRequest", {});
export type DeregisterTableRequest = Static<typeof DeregisterTableRequest>;

export const DeregisterTableResponse = ResponseModel("DeregisterTableResponse", removedTableFields);
export type DeregisterTableResponse = Static<typeof DeregisterTableResponse>;

export const RestoreTableRequest = RequestModel("RestoreTableRequest", {
  version: Version,
  branch: Type.Optional(Nullable(Type.String())),
});
export type RestoreTableRequest = Static<typeof RestoreTableRequest>;

export const RestoreTableResponse = ResponseModel("RestoreTableResponse", {
  transaction_id: Type.Optional(Type.String()),
  version: Type.Optional(Version),
});
export type RestoreTableResponse = Static<typeof RestoreTableResponse>;

export const RenameTableRequest = RequestModel("RenameTableRequest", {
  new_table_name: Type.String({ minLength: 1 }),
  new_namespace_id: Type.Optional(Nullable(ObjectId)),
  /** The LanceDB Cloud client's spelling of `new_namespace_id`. */
  new_namespace: Type.Optional(Nullable(ObjectId)),
});
export type RenameTableRequest = Static<typeof RenameTableRequest>;

export const RenameTableResponse = TransactionResponse("RenameTableResponse");
export type RenameTableResponse = Static<typeof RenameTableResponse>;

export const DeclareTableRequest = RequestModel("DeclareTableRequest", {
  location: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  vend_credentials: Type.Optional(Nullable(Type.Boolean())),
  properties: Type.Optional(Nullable(StringMap)),
});
export type DeclareTableRequest = Static<typeof DeclareTableRequest>;

export const DeclareTableResponse = ResponseModel("DeclareTableResponse", {
  transaction_id: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
  storage_options: Type.Optional(StringMap),
  properties: Type.Optional(Nullable(StringMap)),
  managed_versioning: Type.Optional(Type.Boolean()),
});
export type DeclareTableResponse = Static<typeof DeclareTableResponse>;

/** CreateTable's parameters besides the Arrow body (query string in REST). */
export const CreateTableRequest = RequestModel("CreateTableRequest", {
  mode: Type.Optional(Nullable(Type.String({ description: "Create (default) | ExistOk | Overwrite" }))),
  properties: Type.Optional(Nullable(StringMap)),
  storage_options: Type.Optional(Nullable(StringMap)),
});
export type CreateTableRequest = Static<typeof CreateTableRequest>;

export const CreateTableQuery = Type.Object({
  ...delimiterField,
  mode: Type.Optional(Type.String()),
  properties: Type.Optional(Type.String({ description: "JSON-encoded map of table properties" })),
  storage_options: Type.Optional(Type.String({ description: "JSON-encoded map of storage options" })),
});

export const CreateTableResponse = ResponseModel("CreateTableResponse", {
  transaction_id: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
  version: Type.Optional(Version),
  storage_options: Type.Optional(StringMap),
  properties: Type.Optional(Nullable(StringMap)),
});
export type CreateTableResponse = Static<typeof CreateTableResponse>;

export const ListDroppedTablesRequest = RequestModel("ListDroppedTablesRequest", pageFields);
export type ListDroppedTablesRequest = Static<typeof ListDroppedTablesRequest>;

/** A table dropped under a drop retention, restorable until `purge_at`. */
const DroppedTable = Type.Object({
  dropped_id: Type.String({ description: "names this drop in UndropTable when several drops of one name are kept" }),
  id: ObjectId,
  name: Type.String(),
  location: Type.String(),
  dropped_at: Type.String({ description: "RFC 3339" }),
  purge_at: Type.String({ description: "RFC 3339: from then on the purge deletes its data" }),
  dropped_by: Type.Optional(Type.String()),
});

export const ListDroppedTablesResponse = PageResponse("ListDroppedTablesResponse", {
  tables: Type.Array(DroppedTable),
});
export type ListDroppedTablesResponse = Static<typeof ListDroppedTablesResponse>;

export const UndropTableRequest = RequestModel("UndropTableRequest", {
  dropped_id: Type.Optional(Nullable(Type.String({ description: "which kept drop to restore; default the newest" }))),
});
export type UndropTableRequest = Static<typeof UndropTableRequest>;

export const UndropTableResponse = ResponseModel("UndropTableResponse", {
  id: Type.Optional(ObjectId),
  location: Type.Optional(Type.String()),
  properties: Type.Optional(Nullable(StringMap)),
});
export type UndropTableResponse = Static<typeof UndropTableResponse>;
