/**
 * @module Materialized-view operation models (spec/endpoints.md §10). Quiver's JSON form of
 * the opaque `source_query` and of the `udtf` envelope is in docs/materialized-views.md.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Nullable, RequestModel, ResponseModel, Version } from "./common.js";

export const MaterializedViewKinds = ["query", "udtf", "chunker"] as const;
export type MaterializedViewKind = (typeof MaterializedViewKinds)[number];

export const MaterializedViewUdtfEntry = Type.Object(
  {
    kind: Type.String({ description: "udtf | chunker; must equal the request's kind" }),
    udtf: Type.String({ description: "Base64 JSON envelope naming the function and its parameters" }),
    udtf_sha: Type.String({ description: "SHA-256 (hex) of the envelope" }),
    udtf_name: Type.String(),
    udtf_version: Type.String(),
    input_columns: Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1 })))),
    partition_by: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
    partition_by_indexed_column: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
    num_cpus: Type.Optional(Nullable(Type.Number())),
    num_gpus: Type.Optional(Nullable(Type.Number())),
    memory: Type.Optional(Nullable(Type.Integer())),
    error_handling: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
    batch: Type.Optional(Nullable(Type.Boolean())),
    manifest: Type.Optional(Nullable(Type.String())),
    manifest_checksum: Type.Optional(Nullable(Type.String())),
  },
  { title: "MaterializedViewUdtfEntry", additionalProperties: true },
);
export type MaterializedViewUdtfEntry = Static<typeof MaterializedViewUdtfEntry>;

export const CreateMaterializedViewRequest = RequestModel("CreateMaterializedViewRequest", {
  kind: Type.String({ description: "query | udtf | chunker" }),
  source_query: Type.String({ description: "Quiver: JSON {source, projections?, filter?}" }),
  output_schema: Type.String({ description: "Base64-encoded Arrow IPC schema of the view output" }),
  udtf_spec: Type.Optional(Nullable(MaterializedViewUdtfEntry)),
  with_no_data: Type.Optional(Nullable(Type.Boolean({ default: true }))),
  auto_refresh: Type.Optional(Nullable(Type.Boolean())),
});
export type CreateMaterializedViewRequest = Static<typeof CreateMaterializedViewRequest>;

export const CreateMaterializedViewResponse = ResponseModel("CreateMaterializedViewResponse", {
  version: Version,
  job_id: Type.Optional(Nullable(Type.String())),
});
export type CreateMaterializedViewResponse = Static<typeof CreateMaterializedViewResponse>;

const PositiveInt = Type.Integer({ minimum: 1 });

export const RefreshMaterializedViewRequest = RequestModel("RefreshMaterializedViewRequest", {
  src_version: Type.Optional(Nullable(Version)),
  max_rows_per_fragment: Type.Optional(Nullable(PositiveInt)),
  concurrency: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 64 }))),
  intra_applier_concurrency: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 64 }))),
  source_task_size: Type.Optional(Nullable(PositiveInt)),
  cluster: Type.Optional(Nullable(Type.String())),
  output_limit: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  manifest: Type.Optional(Nullable(Type.String())),
});
export type RefreshMaterializedViewRequest = Static<typeof RefreshMaterializedViewRequest>;

export const RefreshMaterializedViewResponse = ResponseModel("RefreshMaterializedViewResponse", {
  job_id: Type.String(),
});
export type RefreshMaterializedViewResponse = Static<typeof RefreshMaterializedViewResponse>;
