/**
 * @module Tables dropped under a drop retention: the table's row, moved out of `tables` so its
 * name is free and no listing or lookup sees it, with the records that went with it (managed
 * versions, references to folders it reads), until an undrop puts them back or the purge forgets
 * them. The row keeps the table's id, so an undrop restores the same table.
 */
import { type Kysely, type Selectable, sql } from "kysely";
import type { Database, DroppedTablesTable, TableMapColumn, TableRow, TablesTable, WithMaps } from "../schema.js";
import { decodeMaps, encodeMaps } from "./json-columns.js";
import { subtreeRange } from "./namespace-rows.js";
import type { TableDataRefRow } from "./shared-data-rows.js";
import { tableMaps } from "./table-rows.js";

/**
 * What went with a dropped table, as it was stored: its `table_versions` rows, which the undrop
 * puts back as they were, and its `table_data_refs` rows.
 */
export interface KeptRecords {
  versions: Record<string, unknown>[];
  refs: TableDataRefRow[];
}

/** A kept drop as read: its map columns and its kept records decoded. */
export type DroppedTableRow = Omit<WithMaps<Selectable<DroppedTablesTable>, TableMapColumn>, "kept_records"> & { kept_records: KeptRecords };

export interface DroppedTableRows {
  /**
   * Moves the table's row and the records that go with it into `dropped_tables`, then deletes
   * the row (and, by cascade, those records) from `tables`.
   */
  keepDroppedTable(row: TableRow, kept: { dropped_at: number; purge_at: number; dropped_by: string | null }): Promise<void>;
  /**
   * Puts a kept table back into `tables` with
   * its records, and forgets it as dropped. Answers the restored row.
   */
  undropTable(id: string): Promise<TableRow | undefined>;
  findDroppedTable(id: string): Promise<DroppedTableRow | undefined>;
  /** Kept drops of `name` in a namespace, newest first. */
  findDroppedTablesNamed(database: string, namespacePath: string, name: string): Promise<DroppedTableRow[]>;
  /** Kept drops directly in a namespace. */
  listDroppedTablesIn(database: string, namespacePath: string): Promise<DroppedTableRow[]>;
  /** Kept drops of every database. */
  listAllDroppedTables(): Promise<DroppedTableRow[]>;
  /** Kept drops of every database whose purge time has come, oldest first. */
  listDroppedTablesDue(now: number): Promise<DroppedTableRow[]>;
  /** Forgets a kept drop; answers whether a row went. */
  deleteDroppedTable(id: string): Promise<boolean>;
  /**
   * A table of any database, live or kept as dropped, whose folder is one of `at` (not empty) or
   * lies inside the directory `below`, if any. One statement reads both tables, so a drop or undrop moving a
   * row between them meanwhile is seen on one side or the other, never on neither.
   */
  findFolderHolder(at: readonly string[], below: string): Promise<FolderHolder | undefined>;
}

/** A table holding a folder: live, or kept as dropped. */
export interface FolderHolder {
  id: string;
  database: string;
  location: string;
  dropped: boolean;
}

export function droppedTableRows(db: Kysely<Database>): DroppedTableRows {
  const numeric = (row: Selectable<DroppedTablesTable>): Selectable<DroppedTablesTable> => ({
    ...row,
    managed_location: Number(row.managed_location),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    dropped_at: Number(row.dropped_at),
    purge_at: Number(row.purge_at),
  });
  const asRow = (row: Selectable<DroppedTablesTable>): DroppedTableRow => ({
    ...decodeMaps(numeric(row), tableMaps),
    kept_records: JSON.parse(row.kept_records) as KeptRecords,
  });
  /** The dropped tables that stood in one namespace. */
  const droppedIn = (database: string, namespacePath: string) =>
    db.selectFrom("dropped_tables").selectAll().where("database", "=", database).where("namespace_path", "=", namespacePath);
  return {
    async keepDroppedTable(decodedRow, kept) {
      const row = encodeMaps<Selectable<TablesTable>, TableMapColumn>(decodedRow, tableMaps);
      const versions = await db.selectFrom("table_versions").selectAll().where("table_id", "=", row.id).execute();
      const refs = await db.selectFrom("table_data_refs").selectAll().where("table_id", "=", row.id).execute();
      const records: KeptRecords = { versions: versions.map((v) => ({ ...v })), refs: refs.map((r) => ({ ...r })) };
      await db
        .insertInto("dropped_tables")
        .values({
          id: row.id,
          database: row.database,
          namespace_path: row.namespace_path,
          name: row.name,
          location: row.location,
          managed_location: row.managed_location,
          properties: row.properties,
          storage_options: row.storage_options,
          created_at: row.created_at,
          updated_at: row.updated_at,
          kept_records: JSON.stringify(records),
          ...kept,
        })
        .execute();
      await db.deleteFrom("tables").where("id", "=", row.id).execute();
    },
    async undropTable(id) {
      const dropped = await db.selectFrom("dropped_tables").selectAll().where("id", "=", id).executeTakeFirst();
      if (!dropped) return undefined;
      const { kept_records, dropped_at: _at, purge_at: _purge, dropped_by: _by, ...fields } = numeric(dropped);
      // The head starts unknown: the first read looks at the store again, and records what it finds.
      const row: Selectable<TablesTable> = { ...fields, updated_at: Date.now(), head_version: null, outside_writes_until: null };
      await db.insertInto("tables").values(row).execute();
      const records = JSON.parse(kept_records) as KeptRecords;
      for (const version of records.versions) await db.insertInto("table_versions").values(version as never).execute();
      for (const ref of records.refs) await db.insertInto("table_data_refs").values(ref as never).execute();
      await db.deleteFrom("dropped_tables").where("id", "=", id).execute();
      return decodeMaps(row, tableMaps);
    },
    findDroppedTable: async (id) => {
      const row = await db.selectFrom("dropped_tables").selectAll().where("id", "=", id).executeTakeFirst();
      return row && asRow(row);
    },
    findDroppedTablesNamed: async (database, namespacePath, name) =>
      (await droppedIn(database, namespacePath).where("name", "=", name).orderBy("dropped_at", "desc").orderBy("id").execute()).map(asRow),
    listDroppedTablesIn: async (database, namespacePath) =>
      (await droppedIn(database, namespacePath).orderBy("name").orderBy("dropped_at").orderBy("id").execute()).map(asRow),
    listAllDroppedTables: async () => (await db.selectFrom("dropped_tables").selectAll().orderBy("database").orderBy("id").execute()).map(asRow),
    listDroppedTablesDue: async (now) =>
      (await db.selectFrom("dropped_tables").selectAll().where("purge_at", "<=", now).orderBy("purge_at").orderBy("id").execute()).map(asRow),
    async deleteDroppedTable(id) {
      const result = await db.deleteFrom("dropped_tables").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async findFolderHolder(at, below) {
      const [low, high] = subtreeRange(below);
      const holding = sql<boolean>`(location in (${sql.join([...at])}) or (location >= ${low} and location < ${high}))`;
      const row = await db
        .selectFrom("tables")
        .select(["id", "database", "location", sql<number>`0`.as("dropped")])
        .where(holding)
        .unionAll(db.selectFrom("dropped_tables").select(["id", "database", "location", sql<number>`1`.as("dropped")]).where(holding))
        .limit(1)
        .executeTakeFirst();
      return row && { id: row.id, database: row.database, location: row.location, dropped: Number(row.dropped) === 1 };
    },
  };
}
