/**
 * @module Row types of the metadata store, one interface per table. Both dialects share them.
 * Booleans are stored as 0/1 integers, maps as JSON text (handed out decoded: `WithMaps`), times
 * as epoch milliseconds.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

export interface DatabasesTable {
  name: string;
  /**
   * The database's own location (a folder or an object-store URI), or `''` when it has none:
   * its tables then live under the serving process's `<data location>/<name>`.
   */
  storage_root: string;
  managed_versioning: number;
  properties: string;
  /** The database's own storage options as JSON; `{}` when its tables use the server's. */
  storage_options: ColumnType<string, string | undefined, string>;
  created_at: number;
  /**
   * How long (ms) a look at the store for commits made outside Quiver is trusted by reads; null
   * looks on every read (see docs/object-storage.md, "Read freshness").
   */
  read_consistency_ms: ColumnType<number | null, number | null | undefined, number | null>;
  /** Automatic table maintenance: 1 on, 0 off, null to follow the server (docs/maintenance.md). */
  auto_maintenance: ColumnType<number | null, number | null | undefined, number | null>;
  /** 1 when writers holding their own storage keys commit to the database's tables (docs/read-freshness.md). */
  outside_writers: ColumnType<number | null, number | null | undefined, number | null>;
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
  /**
   * The newest version of the main branch Quiver committed or saw, null until then: only ever
   * raised (see `TableRows.raiseTableHead`).
   */
  head_version: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * When the last credentials Quiver vended with write access to the table run out (epoch ms),
   * null when none were: until then a client may commit to the store without the catalog knowing.
   * Only ever raised (see `TableRows.raiseOutsideWrites`).
   */
  outside_writes_until: ColumnType<number | null, number | null | undefined, number | null>;
}

/**
 * A table dropped under a drop retention: its `tables` row (the same id), moved out so its name
 * is free and no listing sees it, with what went with it, until an undrop or the purge.
 */
export interface DroppedTablesTable extends Omit<TablesTable, "head_version" | "outside_writes_until"> {
  /** JSON: the table's `table_versions` and `table_data_refs` rows at the drop. */
  kept_records: string;
  dropped_at: number;
  /** When the purge may delete the table's data. */
  purge_at: number;
  /** The principal that dropped it, when known. */
  dropped_by: string | null;
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

export interface TableVersionsTable {
  table_id: string;
  /** "" is the main branch. */
  branch: string;
  version: number;
  /** Final manifest location (absolute path). */
  manifest_path: string;
  /** The staged manifest while the version awaits finalizing; null once it is in place. */
  staged_path: string | null;
  manifest_size: number | null;
  e_tag: string | null;
  naming_scheme: string;
  metadata: string;
  timestamp_millis: number;
  transaction_id: string | null;
}

export interface TransactionsTable {
  id: string;
  database: string;
  status: string;
  /** The spec operation that opened it, e.g. "BatchCreateTableVersions". */
  operation: string;
  properties: string;
  created_at: number;
  updated_at: number;
}

/** A secret named by its use (e.g. `access-tokens`), base64url. */
export interface SigningKeysTable {
  name: string;
  secret: string;
  created_at: number;
}

/** A shared request budget: the caller's or database's next theoretical arrival, in epoch seconds. */
export interface RateLimitCellsTable {
  key: string;
  due_at: number;
}

/**
 * An `Idempotency-Key` claim of one mutating request: in flight while `status` is null (held
 * until `lease_until`, renewed while the request runs), then the kept answer until `expires_at`.
 */
export interface IdempotencyKeysTable {
  database: string;
  principal: string;
  key: string;
  /** Who holds the claim: a random token of the request that took it. */
  owner: string;
  /** SHA-256 (hex) of the request the key was first used for; `''` until its body was read. */
  fingerprint: string;
  lease_until: number;
  status: number | null;
  content_type: string | null;
  /** The answer's body in base64; null when it was too large to keep. */
  body: string | null;
  created_at: number;
  expires_at: number;
}

/**
 * One change event in the outbox: `event` is the whole CloudEvent as JSON; the other columns
 * are copies of its attributes to page and filter by. `seq` follows commit order across every
 * database; `database_seq` numbers the events of its database and `audience` (the least role
 * that sees it) alone: 1, 2, 3, … in commit order.
 */
export interface ChangeEventsTable {
  seq: Generated<number>;
  audience: string;
  database_seq: number;
  id: string;
  database: string;
  type: string;
  subject: string;
  time: number;
  event: string;
}

/** The newest change-event number (`database_seq`) of a database ("" for deployment-wide events) and audience. */
export interface ChangeEventCountersTable {
  database: string;
  audience: string;
  last_seq: number;
}

/** How far a push target has acknowledged the outbox: the `seq` of its last event. */
export interface EventDeliveriesTable {
  target: string;
  position: number;
  updated_at: number;
}

/**
 * A multipart write: `open` while parts arrive, `completing` once its commit began (on top of
 * `base_version`), `committed` with the `version` it made; kept until `expires_at`.
 */
export interface MultipartWritesTable {
  upload_id: string;
  database: string;
  table_id: string;
  /** The branch written; null for main. */
  branch: string | null;
  /** 1 when a part asked for `mode=overwrite`: the completion then replaces every row. */
  overwrite: number;
  state: "open" | "completing" | "committed";
  base_version: number | null;
  version: number | null;
  num_rows: number | null;
  created_at: number;
  expires_at: number;
}

/** One staged part of a multipart write: an Arrow IPC file at `object` beside the table's data. */
export interface MultipartPartsTable {
  upload_id: string;
  part_id: string;
  object: string;
  num_rows: number;
  bytes: number;
  created_at: number;
}

/** A privilege on an object held by a subject, all in LanceDB's authorization grammar. */
export interface AuthzGrantsTable {
  subject: string;
  object: string;
  privilege: string;
  granted_at: number;
  /** The audit subject of whoever granted it. */
  granted_by: string;
}

/** A role held by a principal or group. */
export interface AuthzRoleBindingsTable {
  subject: string;
  role: string;
  bound_at: number;
}

/** One row counting every change of grants and role bindings. */
export interface AuthzChangesTable {
  id: number;
  version: ColumnType<number, number, number>;
}

export type AuthzGrantRow = Selectable<AuthzGrantsTable>;
export type AuthzRoleBindingRow = Selectable<AuthzRoleBindingsTable>;

export interface Database {
  databases: DatabasesTable;
  namespaces: NamespacesTable;
  tables: TablesTable;
  api_keys: ApiKeysTable;
  oauth_clients: OAuthClientsTable;
  audit_log: AuditLogTable;
  table_versions: TableVersionsTable;
  transactions: TransactionsTable;
  signing_keys: SigningKeysTable;
  rate_limit_cells: RateLimitCellsTable;
  idempotency_keys: IdempotencyKeysTable;
  dropped_tables: DroppedTablesTable;
  change_events: ChangeEventsTable;
  change_event_counters: ChangeEventCountersTable;
  event_deliveries: EventDeliveriesTable;
  multipart_writes: MultipartWritesTable;
  multipart_parts: MultipartPartsTable;
  authz_grants: AuthzGrantsTable;
  authz_role_bindings: AuthzRoleBindingsTable;
  authz_changes: AuthzChangesTable;
}

/** A map of strings; the store keeps it as JSON text and hands it out decoded. */
export type StringMap = Record<string, string>;

/**
 * `Row` with its JSON columns `K` as the maps they hold: the row functions (`rows/*.ts`) encode
 * them on the way in and decode them on the way out, so no caller sees the JSON text.
 */
export type WithMaps<Row, K extends PropertyKey> = { [P in keyof Row]: P extends K ? Exclude<Row[P], string> | StringMap : Row[P] };

export type DatabaseMapColumn = "properties" | "storage_options";
export type NamespaceMapColumn = "properties";
export type TableMapColumn = "properties" | "storage_options";
export type AuditMapColumn = "context";
export type TableVersionMapColumn = "metadata";
export type TransactionMapColumn = "properties";

export type DatabaseRow = WithMaps<Selectable<DatabasesTable>, DatabaseMapColumn>;
export type NewDatabaseRow = WithMaps<Insertable<DatabasesTable>, DatabaseMapColumn>;
export type NamespaceRow = WithMaps<Selectable<NamespacesTable>, NamespaceMapColumn>;
export type NewNamespaceRow = WithMaps<Insertable<NamespacesTable>, NamespaceMapColumn>;
export type TableRow = WithMaps<Selectable<TablesTable>, TableMapColumn>;
export type NewTableRow = WithMaps<Insertable<TablesTable>, TableMapColumn>;
export type TableRowUpdate = WithMaps<Updateable<TablesTable>, TableMapColumn>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKeyRow = Insertable<ApiKeysTable>;
export type OAuthClientRow = Selectable<OAuthClientsTable>;
export type NewOAuthClientRow = Insertable<OAuthClientsTable>;
export type AuditRow = WithMaps<Selectable<AuditLogTable>, AuditMapColumn>;
export type NewAuditRow = WithMaps<Insertable<AuditLogTable>, AuditMapColumn>;
export type TableVersionRow = WithMaps<Selectable<TableVersionsTable>, TableVersionMapColumn>;
export type NewTableVersionRow = WithMaps<Insertable<TableVersionsTable>, TableVersionMapColumn>;
export type TransactionRow = WithMaps<Selectable<TransactionsTable>, TransactionMapColumn>;
export type NewTransactionRow = WithMaps<Insertable<TransactionsTable>, TransactionMapColumn>;
export type TransactionRowUpdate = WithMaps<Updateable<TransactionsTable>, TransactionMapColumn>;
export type SigningKeyRow = Selectable<SigningKeysTable>;
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
