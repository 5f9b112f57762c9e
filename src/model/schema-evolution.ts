/**
 * @module Schema evolution models (spec/endpoints.md §3.10, §6.1–6.4).
 */
import { Type, type Static } from "@sinclair/typebox";
import { delimiterField, Nullable, RequestModel, ResponseModel, StringMap, Version } from "./common.js";

const Branch = Type.Optional(Nullable(Type.String()));
const FieldPath = Type.String({ minLength: 1 });

export const AddVirtualColumnEntry = Type.Object(
  {
    input_columns: Type.Array(FieldPath),
    outputs: Type.Array(
      Type.Object({
        column: Type.String(),
        struct_field: Type.String(),
        data_type: Type.Unknown(),
        nullable: Type.Boolean(),
        metadata: Type.Optional(Nullable(StringMap)),
      }),
    ),
    image: Type.String(),
    udf: Type.String(),
    udf_name: Type.String(),
    udf_version: Type.String(),
    udf_backend: Type.Optional(Nullable(Type.String())),
    auto_backfill: Type.Optional(Nullable(Type.Boolean())),
    manifest: Type.Optional(Nullable(Type.String())),
    manifest_checksum: Type.Optional(Nullable(Type.String())),
    field_metadata: Type.Optional(Nullable(StringMap)),
  },
  { additionalProperties: true },
);

export const AddColumnsEntry = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    expression: Type.Optional(Nullable(Type.String())),
    computed: Type.Optional(Nullable(Type.String())),
    virtual_column: Type.Optional(Nullable(AddVirtualColumnEntry)),
  },
  { additionalProperties: true },
);
export type AddColumnsEntry = Static<typeof AddColumnsEntry>;

export const AlterTableAddColumnsRequest = RequestModel("AlterTableAddColumnsRequest", {
  branch: Branch,
  new_columns: Type.Array(AddColumnsEntry),
});
export type AlterTableAddColumnsRequest = Static<typeof AlterTableAddColumnsRequest>;

export const AlterTableAddColumnsResponse = ResponseModel("AlterTableAddColumnsResponse", { version: Version });
export type AlterTableAddColumnsResponse = Static<typeof AlterTableAddColumnsResponse>;

export const AlterColumnsEntry = Type.Object(
  {
    path: FieldPath,
    data_type: Type.Optional(Type.Unknown({ description: "A type name such as \"int64\", or a JsonArrowDataType object" })),
    rename: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
    nullable: Type.Optional(Nullable(Type.Boolean())),
    virtual_column: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
  },
  { additionalProperties: true },
);
export type AlterColumnsEntry = Static<typeof AlterColumnsEntry>;

export const AlterTableAlterColumnsRequest = RequestModel("AlterTableAlterColumnsRequest", {
  branch: Branch,
  alterations: Type.Array(AlterColumnsEntry),
});
export type AlterTableAlterColumnsRequest = Static<typeof AlterTableAlterColumnsRequest>;

export const AlterTableAlterColumnsResponse = ResponseModel("AlterTableAlterColumnsResponse", { version: Version });
export type AlterTableAlterColumnsResponse = Static<typeof AlterTableAlterColumnsResponse>;

export const AlterTableDropColumnsRequest = RequestModel("AlterTableDropColumnsRequest", {
  branch: Branch,
  columns: Type.Array(FieldPath),
});
export type AlterTableDropColumnsRequest = Static<typeof AlterTableDropColumnsRequest>;

export const AlterTableDropColumnsResponse = ResponseModel("AlterTableDropColumnsResponse", {
  transaction_id: Type.Optional(Type.String()),
  version: Version,
});
export type AlterTableDropColumnsResponse = Static<typeof AlterTableDropColumnsResponse>;

export const UpdateFieldMetadataEntry = Type.Object({
  path: FieldPath,
  metadata: Type.Record(Type.String(), Nullable(Type.String())),
  replace: Type.Optional(Nullable(Type.Boolean())),
});

export const UpdateFieldMetadataRequest = RequestModel("UpdateFieldMetadataRequest", {
  branch: Branch,
  updates: Type.Array(UpdateFieldMetadataEntry),
});
export type UpdateFieldMetadataRequest = Static<typeof UpdateFieldMetadataRequest>;

export const UpdateFieldMetadataResponse = ResponseModel("UpdateFieldMetadataResponse", {
  version: Version,
  fields: Type.Optional(Type.Record(Type.String(), StringMap)),
});
export type UpdateFieldMetadataResponse = Static<typeof UpdateFieldMetadataResponse>;

/** In REST the body is the bare map; the model form wraps it (spec/endpoints.md §3.10). */
export const UpdateTableSchemaMetadataBody = Type.Record(Type.String(), Type.String(), { $id: "UpdateTableSchemaMetadataBody" });

export const UpdateTableSchemaMetadataRequest = RequestModel("UpdateTableSchemaMetadataRequest", {
  branch: Branch,
  metadata: Type.Optional(StringMap),
});
export type UpdateTableSchemaMetadataRequest = Static<typeof UpdateTableSchemaMetadataRequest>;

export const UpdateTableSchemaQuery = Type.Object({
  ...delimiterField,
  branch: Type.Optional(Type.String({ minLength: 1 })),
});
