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


export interface Database {
  databases: DatabasesTable;
  namespaces: NamespacesTable;
  tables: TablesTable;
}

export type DatabaseRow = Selectable<DatabasesTable>;
export type NewDatabaseRow = Insertable<DatabasesTable>;
export type NamespaceRow = Selectable<NamespacesTable>;
export type NewNamespaceRow = Insertable<NamespacesTable>;
export type TableRow = Selectable<TablesTable>;
export type NewTableRow = Insertable<TablesTable>;
export type TableRowUpdate = Updateable<TablesTable>;
