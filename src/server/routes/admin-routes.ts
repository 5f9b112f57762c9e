/**
 * @module Quiver's admin API (docs/auth.md): databases, API keys, OAuth clients and the audit
 * log. Database creation and removal need a deployment-wide admin; a database's credentials
 * and audit log need admin of that database. Secrets appear only in creation responses.
 */
import type { TSchema } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { listAudit } from "../../auth/audit.js";
import {
  type CredentialInfo,
  createApiKey,
  createOAuthClient,
  listApiKeys,
  listOAuthClients,
  revokeApiKey,
  revokeOAuthClient,
} from "../../auth/credentials.js";
import { roleOn } from "../../auth/principal.js";
import { CatalogError } from "../../catalog/catalog-error.js";
import type { DatabaseInfo } from "../../catalog/catalog-scope.js";
import { createDatabase, dropDatabase, listDatabases } from "../../catalog/database-admin.js";
import * as M from "../../model/index.js";
import { principalOf } from "../auth/auth-gate.js";
import type { ServerServices } from "../services.js";
import { defineAdminOperation } from "./admin-route-kit.js";

const tag = "Admin";
type DatabaseParams = { database: string };

function wireDatabase(info: DatabaseInfo): M.DatabaseInfo {
  return { name: info.name, managed_versioning: info.managedVersioning, properties: info.properties };
}

function apiKeyInfo({ id, ...rest }: CredentialInfo) {
  return { key_id: id, ...rest };
}

function clientInfo({ id, ...rest }: CredentialInfo) {
  return { client_id: id, ...rest };
}

async function requireDatabase(services: ServerServices, name: string): Promise<void> {
  if (!(await services.registry.store.rows.findDatabase(name))) throw CatalogError.of("NamespaceNotFound", `database '${name}' does not exist`);
}

export function adminRoutes(app: FastifyInstance, services: ServerServices, dataRoot: string): void {
  const store = services.registry.store;
  const none = { kind: "none" } as const;
  const json = (schema: TSchema) => ({ kind: "json", schema }) as const;

  defineAdminOperation<unknown, unknown, unknown>(
    app,
    services,
    { operationId: "ListDatabases", summary: "List the databases the caller may see", tag, methods: ["GET"], url: "/v1/admin/databases", body: none, response: json(M.ListDatabasesResponse), access: "read" },
    { scope: "authenticated", audit: false },
    async ({ request }) => {
      const principal = principalOf(request);
      const visible = (name: string) => principal !== undefined && roleOn(principal, name) !== undefined;
      return { databases: (await listDatabases(store, visible)).map(wireDatabase) };
    },
  );

  defineAdminOperation<M.CreateDatabaseRequest, unknown, unknown>(
    app,
    services,
    { operationId: "CreateDatabase", summary: "Create a database (tenant)", tag, methods: ["POST"], url: "/v1/admin/databases", body: json(M.CreateDatabaseRequest), response: json(M.DatabaseInfo), access: "admin", successStatus: 201 },
    { scope: "deployment-admin", audit: true },
    async ({ body }) => wireDatabase(await createDatabase(store, dataRoot, body.name, { managedVersioning: body.managed_versioning ?? false })),
  );

  defineAdminOperation<unknown, M.DropDatabaseQuery, DatabaseParams>(
    app,
    services,
    { operationId: "DropDatabase", summary: "Drop a database with its credentials and data", tag, methods: ["POST"], url: "/v1/admin/databases/:database/drop", body: none, querystring: M.DropDatabaseQuery, response: json(M.DatabaseInfo), access: "admin" },
    { scope: "deployment-admin", audit: true },
    async ({ params, query }) => {
      const dropped = await dropDatabase(store, params.database, { cascade: query.cascade ?? false });
      services.registry.invalidate(params.database);
      return wireDatabase(dropped);
    },
  );

  defineAdminOperation<unknown, unknown, DatabaseParams>(
    app,
    services,
    { operationId: "ListApiKeys", summary: "List a database's API keys (never their secrets)", tag, methods: ["GET"], url: "/v1/admin/databases/:database/api-keys", body: none, response: json(M.ListApiKeysResponse), access: "admin" },
    { scope: "database-admin", audit: false },
    async ({ params }) => {
      await requireDatabase(services, params.database);
      return { api_keys: (await listApiKeys(store, params.database)).map(apiKeyInfo) };
    },
  );

  defineAdminOperation<M.CreateCredentialRequest, unknown, DatabaseParams>(
    app,
    services,
    { operationId: "CreateApiKey", summary: "Create an API key for a database; the key is shown once", tag, methods: ["POST"], url: "/v1/admin/databases/:database/api-keys", body: json(M.CreateCredentialRequest), response: json(M.CreateApiKeyResponse), access: "admin", successStatus: 201 },
    { scope: "database-admin", audit: true },
    async ({ params, body }) => apiKeyInfo(await createApiKey(store, { database: params.database, role: body.role, description: body.description })),
  );

  defineAdminOperation<unknown, unknown, DatabaseParams & { key_id: string }>(
    app,
    services,
    { operationId: "RevokeApiKey", summary: "Revoke an API key of a database", tag, methods: ["POST"], url: "/v1/admin/databases/:database/api-keys/:key_id/revoke", body: none, response: json(M.ApiKeyInfo), access: "admin" },
    { scope: "database-admin", audit: true },
    async ({ params }) => apiKeyInfo(await revokeApiKey(store, params.key_id, params.database)),
  );

  defineAdminOperation<unknown, unknown, unknown>(
    app,
    services,
    { operationId: "ListDeploymentApiKeys", summary: "List every API key of the deployment", tag, methods: ["GET"], url: "/v1/admin/api-keys", body: none, response: json(M.ListApiKeysResponse), access: "admin" },
    { scope: "deployment-admin", audit: false },
    async () => ({ api_keys: (await listApiKeys(store, undefined)).map(apiKeyInfo) }),
  );

  defineAdminOperation<M.CreateCredentialRequest, unknown, unknown>(
    app,
    services,
    { operationId: "CreateDeploymentApiKey", summary: "Create a deployment-wide API key (its role holds on every database)", tag, methods: ["POST"], url: "/v1/admin/api-keys", body: json(M.CreateCredentialRequest), response: json(M.CreateApiKeyResponse), access: "admin", successStatus: 201 },
    { scope: "deployment-admin", audit: true },
    async ({ body }) => apiKeyInfo(await createApiKey(store, { database: null, role: body.role, description: body.description })),
  );

  defineAdminOperation<unknown, unknown, { key_id: string }>(
    app,
    services,
    { operationId: "RevokeDeploymentApiKey", summary: "Revoke any API key", tag, methods: ["POST"], url: "/v1/admin/api-keys/:key_id/revoke", body: none, response: json(M.ApiKeyInfo), access: "admin" },
    { scope: "deployment-admin", audit: true },
    async ({ params }) => apiKeyInfo(await revokeApiKey(store, params.key_id)),
  );

  defineAdminOperation<unknown, unknown, DatabaseParams>(
    app,
    services,
    { operationId: "ListOAuthClients", summary: "List a database's OAuth clients (never their secrets)", tag, methods: ["GET"], url: "/v1/admin/databases/:database/oauth-clients", body: none, response: json(M.ListOAuthClientsResponse), access: "admin" },
    { scope: "database-admin", audit: false },
    async ({ params }) => {
      await requireDatabase(services, params.database);
      return { clients: (await listOAuthClients(store, params.database)).map(clientInfo) };
    },
  );

  defineAdminOperation<M.CreateCredentialRequest, unknown, DatabaseParams>(
    app,
    services,
    { operationId: "CreateOAuthClient", summary: "Register an OAuth client for a database; the secret is shown once", tag, methods: ["POST"], url: "/v1/admin/databases/:database/oauth-clients", body: json(M.CreateCredentialRequest), response: json(M.CreateOAuthClientResponse), access: "admin", successStatus: 201 },
    { scope: "database-admin", audit: true },
    async ({ params, body }) => {
      const { id: _id, ...created } = await createOAuthClient(store, { database: params.database, role: body.role, description: body.description });
      return created;
    },
  );

  defineAdminOperation<unknown, unknown, DatabaseParams & { client_id: string }>(
    app,
    services,
    { operationId: "RevokeOAuthClient", summary: "Revoke an OAuth client; its tokens stop working at once", tag, methods: ["POST"], url: "/v1/admin/databases/:database/oauth-clients/:client_id/revoke", body: none, response: json(M.OAuthClientInfo), access: "admin" },
    { scope: "database-admin", audit: true },
    async ({ params }) => clientInfo(await revokeOAuthClient(store, params.client_id, params.database)),
  );

  defineAdminOperation<unknown, M.AuditQuery, DatabaseParams>(
    app,
    services,
    { operationId: "ListAuditRecords", summary: "List a database's audit records, newest first", tag, methods: ["GET"], url: "/v1/admin/databases/:database/audit", body: none, querystring: M.AuditQuery, response: json(M.ListAuditResponse), access: "admin" },
    { scope: "database-admin", audit: false },
    async ({ params, query }) => {
      await requireDatabase(services, params.database);
      return listAudit(store, params.database, query.page_token, query.limit);
    },
  );

  defineAdminOperation<unknown, M.AuditQuery, unknown>(
    app,
    services,
    { operationId: "ListDeploymentAuditRecords", summary: "List every audit record, newest first", tag, methods: ["GET"], url: "/v1/admin/audit", body: none, querystring: M.AuditQuery, response: json(M.ListAuditResponse), access: "admin" },
    { scope: "deployment-admin", audit: false },
    async ({ query }) => listAudit(store, undefined, query.page_token, query.limit),
  );
}
