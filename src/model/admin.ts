/**
 * @module Models of Quiver's admin API (databases, API keys, OAuth clients, audit log) and of
 * the OAuth 2.0 token endpoint. These are Quiver extensions, not Lance Namespace models.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Nullable, StringMap } from "./common.js";

export const DatabaseInfo = Type.Object(
  {
    name: Type.String(),
    managed_versioning: Type.Boolean(),
    properties: StringMap,
    location: Type.String({ description: "Where the database's new tables go: a folder or an object-store URI (its own location, or the server's data location + the name)" }),
    storage_options: Type.Optional(StringMap),
    read_consistency_interval_ms: Nullable(
      Type.Integer({ description: "How long a read may answer without looking at the store for commits made outside Quiver (ms); null looks on every read" }),
    ),
    auto_maintenance: Type.Optional(
      Nullable(Type.Boolean({ description: "Automatic maintenance of the database's tables: true, false, or null to follow the server's --auto-maintenance (docs/maintenance.md)" })),
    ),
    outside_writers: Type.Optional(Type.Boolean({ description: "Writers holding their own storage keys commit to the database's tables: reads always look at the store (docs/read-freshness.md)" })),
    warnings: Type.Optional(
      Type.Array(Type.String(), { description: "On creation: what the operator should know, e.g. that clients get no credentials where they would reach a container other databases share" }),
    ),
  },
  { $id: "DatabaseInfo" },
);
export type DatabaseInfo = Static<typeof DatabaseInfo>;

const ReadConsistencyInterval = Type.Integer({
  minimum: 0,
  maximum: 86_400_000,
  description:
    "Milliseconds a read may answer from a kept table handle without looking at the store for commits made outside Quiver; null (the default) looks on every read. Commits through Quiver are seen at once either way (docs/object-storage.md)",
});

export const CreateDatabaseRequest = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    managed_versioning: Type.Optional(Nullable(Type.Boolean())),
    location: Type.Optional(Nullable(Type.String({ minLength: 1, description: "A folder or object-store URI of its own, kept whatever the server's data location; without it, the database follows the serving server's data location + the name" }))),
    storage_options: Type.Optional(Nullable(StringMap)),
    read_consistency_interval_ms: Type.Optional(Nullable(ReadConsistencyInterval)),
    outside_writers: Type.Optional(
      Nullable(Type.Boolean({ description: "Writers holding their own storage keys commit to the database's tables: reads always look at the store (docs/read-freshness.md); default false" })),
    ),
  },
  { $id: "CreateDatabaseRequest" },
);
export type CreateDatabaseRequest = Static<typeof CreateDatabaseRequest>;

export const UpdateDatabaseSettingsRequest = Type.Object(
  {
    read_consistency_interval_ms: Type.Optional(Nullable(ReadConsistencyInterval)),
    auto_maintenance: Type.Optional(
      Nullable(Type.Boolean({ description: "Automatic maintenance of the database's tables: true, false, or null to follow the server (docs/maintenance.md)" })),
    ),
    outside_writers: Type.Optional(
      Nullable(Type.Boolean({ description: "Writers holding their own storage keys commit to the database's tables: reads always look at the store (docs/read-freshness.md); default false" })),
    ),
  },
  { $id: "UpdateDatabaseSettingsRequest" },
);
export type UpdateDatabaseSettingsRequest = Static<typeof UpdateDatabaseSettingsRequest>;

export const ListDatabasesResponse = Type.Object({ databases: Type.Array(DatabaseInfo) }, { $id: "ListDatabasesResponse" });

export const DropDatabaseQuery = Type.Object({ cascade: Type.Optional(Type.Boolean()) });
export type DropDatabaseQuery = Static<typeof DropDatabaseQuery>;

const CredentialFields = {
  database: Nullable(Type.String({ description: "null for a deployment-wide credential" })),
  role: Type.String({ description: "read | write | admin | none (holds nothing until granted)" }),
  description: Type.String(),
  created_at: Type.Integer({ description: "epoch milliseconds" }),
  revoked_at: Nullable(Type.Integer()),
};

export const ApiKeyInfo = Type.Object({ key_id: Type.String(), ...CredentialFields }, { $id: "ApiKeyInfo" });
export type ApiKeyInfo = Static<typeof ApiKeyInfo>;

export const CreateCredentialRequest = Type.Object(
  {
    role: Type.String({ description: "read | write | admin | none (holds nothing until granted)" }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { $id: "CreateCredentialRequest" },
);
export type CreateCredentialRequest = Static<typeof CreateCredentialRequest>;

export const CreateApiKeyResponse = Type.Object(
  { ...ApiKeyInfo.properties, api_key: Type.String({ description: "the secret; shown only in this response" }) },
  { $id: "CreateApiKeyResponse" },
);
export const ListApiKeysResponse = Type.Object({ api_keys: Type.Array(ApiKeyInfo) }, { $id: "ListApiKeysResponse" });

export const OAuthClientInfo = Type.Object({ client_id: Type.String(), ...CredentialFields }, { $id: "OAuthClientInfo" });
export const CreateOAuthClientResponse = Type.Object(
  { ...OAuthClientInfo.properties, client_secret: Type.String({ description: "shown only in this response" }) },
  { $id: "CreateOAuthClientResponse" },
);
export const ListOAuthClientsResponse = Type.Object({ clients: Type.Array(OAuthClientInfo) }, { $id: "ListOAuthClientsResponse" });

export const AuditRecord = Type.Object(
  {
    id: Type.String(),
    at: Type.Integer({ description: "epoch milliseconds" }),
    database: Nullable(Type.String()),
    principal: Type.String(),
    operation: Type.String(),
    target: Type.String(),
    outcome: Type.String({ description: "ok | denied | failed" }),
    status: Type.Integer(),
    error_code: Nullable(Type.Integer()),
    request_id: Type.String(),
    context: StringMap,
  },
  { $id: "AuditRecord" },
);
export type AuditRecord = Static<typeof AuditRecord>;
export const AuditQuery = Type.Object({
  page_token: Type.Optional(Type.String()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});
export type AuditQuery = Static<typeof AuditQuery>;
export const ListAuditResponse = Type.Object(
  { records: Type.Array(AuditRecord), page_token: Type.Optional(Type.String()) },
  { $id: "ListAuditResponse" },
);

export const TokenResponse = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal("Bearer"),
    expires_in: Type.Integer({ description: "seconds" }),
  },
  { $id: "TokenResponse" },
);
