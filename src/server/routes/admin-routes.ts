/**
 * @module Quiver's admin API (docs/auth.md): databases, API keys, OAuth clients and the audit
 * log. Database creation and removal need a deployment-wide admin; a database's credentials
 * and audit log need admin of that database. Secrets appear only in creation responses, never in
 * a retry's (see `OneTimeSecret`).
 */
import type { FastifyInstance } from "fastify";
import { listAudit } from "../../auth/audit.js";
import type { AccessDirectory } from "../../auth/access-directory.js";
import type { AuthStore } from "../../auth/auth-store.js";
import * as credentials from "../../auth/credentials.js";
import { roleOn } from "../../auth/principal.js";
import { CatalogError } from "../../model/catalog-error.js";
import type { DatabaseInfo } from "../../catalog/catalog-scope.js";
import { createDatabase, dropDatabase, listDatabases, shownStorageOptions, updateDatabaseSettings } from "../../catalog/runtime/database-admin.js";
import { sharedContainerReason } from "../../catalog/shared-containers.js";
import * as M from "../../model/index.js";
import { json } from "../../model/operations/operation-entry.js";
import { principalOf } from "../auth/auth-gate.js";
import type { ServerServices } from "../services.js";
import { adminOperationDefiner } from "./admin-route-kit.js";

const tag = "Admin";
const apiKeySecret = { field: "api_key", idField: "key_id", noun: "the API key" };
const clientSecret = { field: "client_secret", idField: "client_id", noun: "the OAuth client" };
type DatabaseParams = { database: string };

function wireDatabase(info: DatabaseInfo): M.DatabaseInfo {
  const options = shownStorageOptions(info);
  return {
    name: info.name,
    managed_versioning: info.managedVersioning,
    properties: info.properties,
    location: info.storageRoot,
    ...(Object.keys(options).length > 0 ? { storage_options: options } : {}),
    read_consistency_interval_ms: info.readConsistencyMs,
    auto_maintenance: info.autoMaintenance,
    outside_writers: info.outsideWriters,
  };
}

function apiKeyInfo({ id, ...rest }: credentials.CredentialInfo) {
  return { key_id: id, ...rest };
}

function clientInfo({ id, ...rest }: credentials.CredentialInfo) {
  return { client_id: id, ...rest };
}

/** `name`, once it is known to name a database (else 1). */
async function existingDatabase(authStore: AuthStore, name: string): Promise<string> {
  if (!(await authStore.databaseExists(name))) throw CatalogError.of("NamespaceNotFound", `database '${name}' does not exist`);
  return name;
}

export function adminRoutes(app: FastifyInstance, services: ServerServices, authStore: AuthStore, dataLocation: string, access?: AccessDirectory): void {
  const store = services.registry.store;
  const storages = services.registry.engine.storages;
  const define = adminOperationDefiner(app, services);

  define<unknown, unknown, unknown>(
    { operationId: "ListDatabases", summary: "List the databases the caller may see", tag, methods: ["GET"], path: "/v1/admin/databases", body: "none", response: json(M.ListDatabasesResponse), access: "read", scope: "authenticated", audit: false },
    async ({ request }) => {
      const principal = principalOf(request);
      // A database is listed to its roles' holders and to whoever holds USAGE on it by a grant.
      const grants = principal && access ? (await access.accessOf(principal)).grants : undefined;
      const visible = (name: string) => principal !== undefined && (roleOn(principal, name) !== undefined || grants?.holds("USAGE", { kind: "database", database: name }) === true);
      return { databases: (await listDatabases(store, dataLocation, visible)).map(wireDatabase) };
    },
  );

  define<M.CreateDatabaseRequest, unknown, unknown>(
    { operationId: "CreateDatabase", summary: "Create a database (tenant)", tag, methods: ["POST"], path: "/v1/admin/databases", body: "json", request: M.CreateDatabaseRequest, response: json(M.DatabaseInfo), access: "admin", successStatus: 201, scope: "deployment-admin", audit: true },
    async ({ body }) => {
      const created = await createDatabase(storages, store, dataLocation, body.name, {
        managedVersioning: body.managed_versioning ?? false,
        location: body.location ?? undefined,
        storageOptions: body.storage_options ?? undefined,
        readConsistencyMs: body.read_consistency_interval_ms ?? null,
        outsideWriters: body.outside_writers ?? false,
      });
      // The operator learns at once when clients of the new database will get no credentials.
      const reason = await sharedContainerReason(storages, store, created, dataLocation, services.registry.vending);
      return { ...wireDatabase(created), ...(reason === undefined ? {} : { warnings: [reason] }) };
    },
  );

  define<M.UpdateDatabaseSettingsRequest, unknown, DatabaseParams>(
    { operationId: "UpdateDatabaseSettings", summary: "Change a database's settings (its read-consistency interval, its outside writers, its automatic maintenance)", tag, methods: ["POST"], path: "/v1/admin/databases/{database}/settings", body: "json", request: M.UpdateDatabaseSettingsRequest, response: json(M.DatabaseInfo), access: "admin", scope: "deployment-admin", audit: true },
    async ({ params, body }) => wireDatabase(await updateDatabaseSettings(store, dataLocation, params.database, {
        readConsistencyMs: body.read_consistency_interval_ms,
        autoMaintenance: body.auto_maintenance,
        outsideWriters: body.outside_writers === null ? false : body.outside_writers,
      })),
  );

  define<unknown, M.DropDatabaseQuery, DatabaseParams>(
    { operationId: "DropDatabase", summary: "Drop a database with its credentials and data", tag, methods: ["POST"], path: "/v1/admin/databases/{database}/drop", body: "none", querySchema: M.DropDatabaseQuery, response: json(M.DatabaseInfo), access: "admin", scope: "deployment-admin", audit: true },
    async ({ params, query }) => {
      const dropped = wireDatabase(await dropDatabase(storages, store, dataLocation, params.database, { cascade: query.cascade ?? false }));
      // A later database of the same name starts with no grants.
      const name = params.database;
      await authStore.forgetGrants([`database:${name}`], ["namespace", "table", "view"].map((kind) => `${kind}:${name}:`));
      return dropped;
    },
  );

  define<unknown, unknown, DatabaseParams>(
    { operationId: "ListApiKeys", summary: "List a database's API keys (never their secrets)", tag, methods: ["GET"], path: "/v1/admin/databases/{database}/api-keys", body: "none", response: json(M.ListApiKeysResponse), access: "admin", scope: "database-admin", audit: false },
    async ({ params }) => ({ api_keys: (await credentials.listApiKeys(authStore, await existingDatabase(authStore, params.database))).map(apiKeyInfo) }),
  );

  define<M.CreateCredentialRequest, unknown, DatabaseParams>(
    { operationId: "CreateApiKey", summary: "Create an API key for a database; the key is shown once", tag, methods: ["POST"], path: "/v1/admin/databases/{database}/api-keys", body: "json", request: M.CreateCredentialRequest, response: json(M.CreateApiKeyResponse), access: "admin", successStatus: 201, scope: "database-admin", audit: true, oneTimeSecret: apiKeySecret },
    async ({ params, body }) => apiKeyInfo(await credentials.createApiKey(authStore, { database: params.database, role: body.role, description: body.description })),
  );

  define<unknown, unknown, DatabaseParams & { key_id: string }>(
    { operationId: "RevokeApiKey", summary: "Revoke an API key of a database", tag, methods: ["POST"], path: "/v1/admin/databases/{database}/api-keys/{key_id}/revoke", body: "none", response: json(M.ApiKeyInfo), access: "admin", scope: "database-admin", audit: true },
    async ({ params }) => apiKeyInfo(await credentials.revokeApiKey(authStore, params.key_id, params.database)),
  );

  define<unknown, unknown, unknown>(
    { operationId: "ListDeploymentApiKeys", summary: "List every API key of the deployment", tag, methods: ["GET"], path: "/v1/admin/api-keys", body: "none", response: json(M.ListApiKeysResponse), access: "admin", scope: "deployment-admin", audit: false },
    async () => ({ api_keys: (await credentials.listApiKeys(authStore, undefined)).map(apiKeyInfo) }),
  );

  define<M.CreateCredentialRequest, unknown, unknown>(
    { operationId: "CreateDeploymentApiKey", summary: "Create a deployment-wide API key (its role holds on every database)", tag, methods: ["POST"], path: "/v1/admin/api-keys", body: "json", request: M.CreateCredentialRequest, response: json(M.CreateApiKeyResponse), access: "admin", successStatus: 201, scope: "deployment-admin", audit: true, oneTimeSecret: apiKeySecret },
    async ({ body }) => apiKeyInfo(await credentials.createApiKey(authStore, { database: null, role: body.role, description: body.description })),
  );

  define<unknown, unknown, { key_id: string }>(
    { operationId: "RevokeDeploymentApiKey", summary: "Revoke any API key", tag, methods: ["POST"], path: "/v1/admin/api-keys/{key_id}/revoke", body: "none", response: json(M.ApiKeyInfo), access: "admin", scope: "deployment-admin", audit: true },
    async ({ params }) => apiKeyInfo(await credentials.revokeApiKey(authStore, params.key_id)),
  );

  define<unknown, unknown, DatabaseParams>(
    { operationId: "ListOAuthClients", summary: "List a database's OAuth clients (never their secrets)", tag, methods: ["GET"], path: "/v1/admin/databases/{database}/oauth-clients", body: "none", response: json(M.ListOAuthClientsResponse), access: "admin", scope: "database-admin", audit: false },
    async ({ params }) => ({ clients: (await credentials.listOAuthClients(authStore, await existingDatabase(authStore, params.database))).map(clientInfo) }),
  );

  define<M.CreateCredentialRequest, unknown, DatabaseParams>(
    { operationId: "CreateOAuthClient", summary: "Register an OAuth client for a database; the secret is shown once", tag, methods: ["POST"], path: "/v1/admin/databases/{database}/oauth-clients", body: "json", request: M.CreateCredentialRequest, response: json(M.CreateOAuthClientResponse), access: "admin", successStatus: 201, scope: "database-admin", audit: true, oneTimeSecret: clientSecret },
    async ({ params, body }) => {
      const { id: _id, ...created } = await credentials.createOAuthClient(authStore, { database: params.database, role: body.role, description: body.description });
      return created;
    },
  );

  define<unknown, unknown, DatabaseParams & { client_id: string }>(
    { operationId: "RevokeOAuthClient", summary: "Revoke an OAuth client; its tokens stop working at once", tag, methods: ["POST"], path: "/v1/admin/databases/{database}/oauth-clients/{client_id}/revoke", body: "none", response: json(M.OAuthClientInfo), access: "admin", scope: "database-admin", audit: true },
    async ({ params }) => clientInfo(await credentials.revokeOAuthClient(authStore, params.client_id, params.database)),
  );

  define<unknown, M.AuditQuery, DatabaseParams>(
    { operationId: "ListAuditRecords", summary: "List a database's audit records, newest first", tag, methods: ["GET"], path: "/v1/admin/databases/{database}/audit", body: "none", querySchema: M.AuditQuery, response: json(M.ListAuditResponse), access: "admin", scope: "database-admin", audit: false },
    async ({ params, query }) => listAudit(authStore, await existingDatabase(authStore, params.database), query.page_token, query.limit),
  );

  define<unknown, M.AuditQuery, unknown>(
    { operationId: "ListDeploymentAuditRecords", summary: "List every audit record, newest first", tag, methods: ["GET"], path: "/v1/admin/audit", body: "none", querySchema: M.AuditQuery, response: json(M.ListAuditResponse), access: "admin", scope: "deployment-admin", audit: false },
    async ({ query }) => listAudit(authStore, undefined, query.page_token, query.limit),
  );
}
