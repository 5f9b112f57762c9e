/**
 * @module Shared table data: the folders of other tables that a table reads data files from
 * (a shallow clone reads its source's, and its source's sources), and the folders of dropped
 * tables kept because a live table still reads them. A reference goes with its table's row.
 */
import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database } from "../schema.js";

export interface TableDataRefsTable {
  /** The table that reads the files. */
  table_id: string;
  database: string;
  /** The other table's folder. */
  location: string;
  /** The branch of that table the reader was made from ("" for main). */
  branch: string;
  /** The version of that branch the reader was made from: its files must outlive cleanup there. */
  version: number;
}

export interface RetainedTableDataTable {
  database: string;
  /** The dropped table's folder, kept while some `table_data_refs` row names it. */
  location: string;
  dropped_at: number;
}

declare module "../schema.js" {
  interface Database {
    table_data_refs: TableDataRefsTable;
    retained_table_data: RetainedTableDataTable;
  }
}

export type TableDataRefRow = Selectable<TableDataRefsTable>;
export type NewTableDataRefRow = Insertable<TableDataRefsTable>;
export type RetainedTableDataRow = Selectable<RetainedTableDataTable>;

export interface SharedDataRows {
  insertTableDataRef(row: NewTableDataRefRow): Promise<void>;
  /** The folders the table reads besides its own, with the versions it was made from. */
  listTableDataRefs(tableId: string): Promise<TableDataRefRow[]>;
  /** References to the folder `location` by tables of the database, ordered by table id. */
  listDataRefsTo(database: string, location: string): Promise<TableDataRefRow[]>;
  /** Records a kept folder; one already recorded stays as it is. */
  insertRetainedData(row: RetainedTableDataRow): Promise<void>;
  /** Kept folders of dropped tables, of one database, by location. */
  listRetainedData(database: string): Promise<RetainedTableDataRow[]>;
  /** Forgets a kept folder; answers whether a row went. */
  deleteRetainedData(database: string, location: string): Promise<boolean>;
}

export function sharedDataRows(db: Kysely<Database>): SharedDataRows {
  const asRef = (row: TableDataRefRow): TableDataRefRow => ({ ...row, version: Number(row.version) });
  return {
    async insertTableDataRef(row) {
      await db.insertInto("table_data_refs").values(row).execute();
    },
    listTableDataRefs: async (tableId) =>
      (await db.selectFrom("table_data_refs").selectAll().where("table_id", "=", tableId).orderBy("location").execute()).map(asRef),
    listDataRefsTo: async (database, location) =>
      (await db.selectFrom("table_data_refs").selectAll().where("database", "=", database).where("location", "=", location).orderBy("table_id").execute()).map(asRef),
    async insertRetainedData(row) {
      await db
        .insertInto("retained_table_data")
        .values(row)
        .onConflict((conflict) => conflict.columns(["database", "location"]).doNothing())
        .execute();
    },
    listRetainedData: async (database) =>
      (await db.selectFrom("retained_table_data").selectAll().where("database", "=", database).orderBy("location").execute()).map((row) => ({
        ...row,
        dropped_at: Number(row.dropped_at),
      })),
    async deleteRetainedData(database, location) {
      const result = await db.deleteFrom("retained_table_data").where("database", "=", database).where("location", "=", location).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
