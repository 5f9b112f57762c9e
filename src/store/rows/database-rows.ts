/**
 * @module Database (tenant) rows.
 */
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { Database, DatabaseMapColumn, DatabaseRow, DatabasesTable, NewDatabaseRow } from "../schema.js";
import { decodeMaps, encodeMaps } from "./json-columns.js";

const maps: readonly DatabaseMapColumn[] = ["properties", "storage_options"];
const decoded = (row: Selectable<DatabasesTable>): DatabaseRow => decodeMaps(row, maps);

export interface DatabaseRows {
  findDatabase(name: string): Promise<DatabaseRow | undefined>;
  listDatabases(): Promise<DatabaseRow[]>;
  insertDatabase(row: NewDatabaseRow): Promise<void>;
  /** Changes settings of database `name`; answers whether it exists. */
  updateDatabase(name: string, update: Updateable<Pick<DatabasesTable, "read_consistency_ms" | "auto_maintenance" | "outside_writers">>): Promise<boolean>;
  deleteDatabase(name: string): Promise<void>;
}

export function databaseRows(db: Kysely<Database>): DatabaseRows {
  return {
    async findDatabase(name) {
      const row = await db.selectFrom("databases").selectAll().where("name", "=", name).executeTakeFirst();
      return row && decoded(row);
    },
    listDatabases: async () => (await db.selectFrom("databases").selectAll().orderBy("name").execute()).map(decoded),
    async insertDatabase(row) {
      await db.insertInto("databases").values(encodeMaps<Insertable<DatabasesTable>, DatabaseMapColumn>(row, maps)).execute();
    },
    async updateDatabase(name, update) {
      const result = await db.updateTable("databases").set(update).where("name", "=", name).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async deleteDatabase(name) {
      await db.deleteFrom("databases").where("name", "=", name).execute();
    },
  };
}
