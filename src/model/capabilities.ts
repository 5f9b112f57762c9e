/**
 * @module The capability document (`GET /v1/capabilities`, a Quiver extension): what this server
 * is and serves, so a client checks instead of guessing from a version number. Deployment-wide
 * facts only, except `database`, which describes the caller's own database.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Nullable } from "./common.js";

export const CredentialVendingMode = Type.Union([Type.Literal("scoped"), Type.Literal("static"), Type.Literal("none")]);

export const Capabilities = Type.Object(
  {
    server: Type.Literal("quiver"),
    version: Type.String({ description: "Quiver's release version" }),
    operations: Type.Array(Type.String(), { description: "The spec operations served (operation ids, as in the OpenAPI document)" }),
    auth: Type.Object({ mode: Type.Union([Type.Literal("none"), Type.Literal("required")]) }),
    features: Type.Object({
      order_by: Type.Boolean({ description: "QueryTable takes `order_by`, applied before `offset` and `k`" }),
      vectorless_queries: Type.Boolean({ description: "QueryTable scans without `vector`, and `k` = 0 answers no rows" }),
      multipart_writes: Type.Boolean({ description: "The `multipart_write/*` routes and `insert?upload_id=` are served" }),
      async_jobs: Type.Boolean({ description: "Long work (view refreshes, backfills, index builds) runs as jobs under /v1/jobs" }),
      worker_pools: Type.Array(Type.String(), { description: "Pools a refresh's `cluster` may name; the first is the default" }),
      tracing: Type.Boolean({ description: "Requests' spans go to an OpenTelemetry collector (`--otel-endpoint`); `traceparent` is read either way" }),
      change_events: Type.Boolean({ description: "Committed changes are read as CloudEvents from `GET /v1/events` (docs/change-events.md)" }),
    }),
    limits: Type.Object({
      max_json_body_bytes: Nullable(Type.Integer({ description: "Largest JSON request body; null: no wire (the in-process `dir` client)" })),
      max_upload_bytes: Nullable(Type.Integer({ description: "Largest Arrow upload of one request; null: no limit" })),
      max_name_length: Type.Integer({ description: "Longest name of a namespace, table, tag, branch or database" }),
      max_identifier_length: Nullable(Type.Integer({ description: "Longest identifier, parts joined by the delimiter; null: no limit but the request's" })),
      name_pattern: Type.String({ description: "Characters a name may use, as a regular expression" }),
    }),
    storage: Type.Optional(
      Type.Object(
        {
          credential_vending: CredentialVendingMode,
          credential_ttl_seconds: Type.Integer(),
          object_stores: Type.Array(Type.String(), { description: "URI schemes of the object stores configured now (az, s3, gs); local folders are always served" }),
        },
        { description: "Left out for callers without credentials when auth is required" },
      ),
    ),
    database: Type.Optional(
      Type.Object(
        { name: Type.String(), managed_versioning: Type.Boolean() },
        { description: "The database the request addresses; left out for callers without credentials when auth is required" },
      ),
    ),
    unsupported: Type.Array(
      Type.Object({ method: Type.String(), path: Type.String(), feature: Type.String() }),
      { description: "Routes other clients call that this server answers 406 (code 0) naming the feature" },
    ),
  },
  { $id: "Capabilities" },
);
export type Capabilities = Static<typeof Capabilities>;
