/**
 * @module Version operation models (spec/endpoints.md §4): list, create, describe, delete,
 * batch-create and batch-commit.
 */
import { Type, type Static } from "@sinclair/typebox";
import { delimiterField, Nullable, ObjectId, pageFields, pageQueryFields, PageResponse, readAtFields, RequestModel, ResponseModel, StringMap, Version } from "./common.js";
import { DeclareTableRequest, DeclareTableResponse, DeregisterTableRequest, DeregisterTableResponse } from "./table.js";

export const ManifestNamingSchemes = ["V1", "V2"] as const;
export type ManifestNamingScheme = (typeof ManifestNamingSchemes)[number];

export const TableVersion = Type.Object(
  {
    version: Version,
    manifest_path: Type.String(),
    manifest_size: Type.Optional(Type.Integer({ minimum: 0 })),
    e_tag: Type.Optional(Type.String()),
    timestamp_millis: Type.Optional(Type.Integer()),
    metadata: Type.Optional(StringMap),
    /** Quiver's own: the Lance operation that committed the version (`Append`, `Update`, `Restore`, …). */
    operation: Type.Optional(Type.String()),
    /** Quiver's own: the operation's detail where Lance records one (a restore's source version, a delete's predicate). */
    operation_detail: Type.Optional(Type.String()),
  },
  { title: "TableVersion" },
);
export type TableVersion = Static<typeof TableVersion>;

export const ListTableVersionsRequest = RequestModel("ListTableVersionsRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  ...pageFields,
  descending: Type.Optional(Nullable(Type.Boolean())),
});
export type ListTableVersionsRequest = Static<typeof ListTableVersionsRequest>;

/** ListTableVersions takes its parameters in the query string (its body is `null` or absent). */
export const ListTableVersionsQuery = Type.Object({
  ...delimiterField,
  branch: Type.Optional(Type.String()),
  ...pageQueryFields,
  descending: Type.Optional(Type.Boolean()),
});
export type ListTableVersionsQuery = Static<typeof ListTableVersionsQuery>;

export const ListTableVersionsResponse = PageResponse("ListTableVersionsResponse", {
  versions: Type.Array(TableVersion),
});
export type ListTableVersionsResponse = Static<typeof ListTableVersionsResponse>;

const versionEntryFields = {
  version: Version,
  branch: Type.Optional(Nullable(Type.String())),
  manifest_path: Type.String({ minLength: 1 }),
  manifest_size: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  e_tag: Type.Optional(Nullable(Type.String())),
  metadata: Type.Optional(Nullable(StringMap)),
  naming_scheme: Type.Optional(Nullable(Type.String({ description: "V1 | V2 (default V2)" }))),
};

export const CreateTableVersionRequest = RequestModel("CreateTableVersionRequest", versionEntryFields);
export type CreateTableVersionRequest = Static<typeof CreateTableVersionRequest>;

export const CreateTableVersionResponse = ResponseModel("CreateTableVersionResponse", {
  transaction_id: Type.Optional(Type.String()),
  version: Type.Optional(TableVersion),
});
export type CreateTableVersionResponse = Static<typeof CreateTableVersionResponse>;

export const DescribeTableVersionRequest = RequestModel("DescribeTableVersionRequest", readAtFields);
export type DescribeTableVersionRequest = Static<typeof DescribeTableVersionRequest>;

export const DescribeTableVersionResponse = ResponseModel("DescribeTableVersionResponse", {
  version: TableVersion,
});
export type DescribeTableVersionResponse = Static<typeof DescribeTableVersionResponse>;

export const VersionRange = Type.Object(
  {
    start_version: Type.Integer({ minimum: 0 }),
    end_version: Type.Integer({ minimum: -1, description: "exclusive; -1 = through the latest version" }),
  },
  { title: "VersionRange" },
);
export type VersionRange = Static<typeof VersionRange>;

export const BatchDeleteTableVersionsRequest = RequestModel("BatchDeleteTableVersionsRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  ranges: Type.Array(VersionRange),
});
export type BatchDeleteTableVersionsRequest = Static<typeof BatchDeleteTableVersionsRequest>;

export const BatchDeleteTableVersionsResponse = ResponseModel("BatchDeleteTableVersionsResponse", {
  deleted_count: Type.Optional(Type.Integer({ minimum: 0 })),
  transaction_id: Type.Optional(Type.String()),
});
export type BatchDeleteTableVersionsResponse = Static<typeof BatchDeleteTableVersionsResponse>;

export const CreateTableVersionEntry = Type.Object(
  { id: ObjectId, ...versionEntryFields },
  { title: "CreateTableVersionEntry", additionalProperties: true },
);
export type CreateTableVersionEntry = Static<typeof CreateTableVersionEntry>;

export const BatchCreateTableVersionsRequest = RequestModel("BatchCreateTableVersionsRequest", {
  entries: Type.Array(CreateTableVersionEntry),
});
export type BatchCreateTableVersionsRequest = Static<typeof BatchCreateTableVersionsRequest>;

export const BatchCreateTableVersionsResponse = ResponseModel("BatchCreateTableVersionsResponse", {
  transaction_id: Type.Optional(Type.String()),
  versions: Type.Array(TableVersion),
});
export type BatchCreateTableVersionsResponse = Static<typeof BatchCreateTableVersionsResponse>;

export const CommitTableOperation = Type.Object(
  {
    declare_table: Type.Optional(Nullable(DeclareTableRequest)),
    create_table_version: Type.Optional(Nullable(CreateTableVersionRequest)),
    delete_table_versions: Type.Optional(Nullable(BatchDeleteTableVersionsRequest)),
    deregister_table: Type.Optional(Nullable(DeregisterTableRequest)),
  },
  { title: "CommitTableOperation" },
);
export type CommitTableOperation = Static<typeof CommitTableOperation>;

export const CommitTableResult = Type.Object(
  {
    declare_table: Type.Optional(DeclareTableResponse),
    create_table_version: Type.Optional(CreateTableVersionResponse),
    delete_table_versions: Type.Optional(BatchDeleteTableVersionsResponse),
    deregister_table: Type.Optional(DeregisterTableResponse),
  },
  { title: "CommitTableResult" },
);
export type CommitTableResult = Static<typeof CommitTableResult>;

export const BatchCommitTablesRequest = RequestModel("BatchCommitTablesRequest", {
  operations: Type.Array(CommitTableOperation),
});
export type BatchCommitTablesRequest = Static<typeof BatchCommitTablesRequest>;

export const BatchCommitTablesResponse = ResponseModel("BatchCommitTablesResponse", {
  transaction_id: Type.Optional(Type.String()),
  results: Type.Array(CommitTableResult),
});
export type BatchCommitTablesResponse = Static<typeof BatchCommitTablesResponse>;
