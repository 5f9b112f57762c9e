/**
 * @module Row types of the metadata store, one interface per table. Both dialects share them.
 * Booleans are stored as 0/1 integers, maps as JSON text, times as epoch milliseconds.
 */
import type { Insertable, Selectable, Updateable } from "kysely";

export interface DatabasesTable {
  name: string;
  storage_root: string;
  managed_versioning: number;
  properties: string;
  created_at: number;
}

export interface NamespacesTable {
  database: string;
  /** Components joined with "/" (never part of a name); the root has no row. */
  path: string;
  parent_path: string;
  name: string;
  properties: string;
  created_at: number;
}

export interface TablesTable {
  id: string;
  database: string;
  namespace_path: string;
  name: string;
  location: string;
  /** 1 when Quiver chose the location (and may delete it on drop). */
  managed_location: number;
  properties: string;
  storage_options: string;
  created_at: number;
  updated_at: number;
}

/** A credential row: API keys and OAuth clients share the shape (secrets only as salted hashes). */
export interface CredentialColumns {
  /** Null for a deployment-wide credential. */
  database: string | null;
  role: string;
  salt: string;
  secret_hash: string;
  description: string;
  created_at: number;
  revoked_at: number | null;
}

export interface ApiKeysTable extends CredentialColumns {
  key_id: string;
}

export interface OAuthClientsTable extends CredentialColumns {
  client_id: string;
}

export interface AuditLogTable {
  id: string;
  at: number;
  database: string | null;
  principal: string;
  operation: string;
  target: string;
  outcome: string;
  status: number;
  error_code: number | null;
  request_id: string;
  /** The call context map as JSON text. */
  context: string;
}

export interface Database {
  databases: DatabasesTable;
  namespaces: NamespacesTable;
  tables: TablesTable;
  api_keys: ApiKeysTable;
  oauth_clients: OAuthClientsTable;
  audit_log: AuditLogTable;
}

export type DatabaseRow = Selectable<DatabasesTable>;
export type NewDatabaseRow = Insertable<DatabasesTable>;
export type NamespaceRow = Selectable<NamespacesTable>;
export type NewNamespaceRow = Insertable<NamespacesTable>;
export type TableRow = Selectable<TablesTable>;
export type NewTableRow = Insertable<TablesTable>;
export type TableRowUpdate = Updateable<TablesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKeyRow = Insertable<ApiKeysTable>;
export type OAuthClientRow = Selectable<OAuthClientsTable>;
export type NewOAuthClientRow = Insertable<OAuthClientsTable>;
export type AuditRow = Selectable<AuditLogTable>;
export type NewAuditRow = Insertable<AuditLogTable>;
