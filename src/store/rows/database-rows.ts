/**
 * @module Database (tenant) rows.
 */
import type { Kysely } from "kysely";
import type { Database, DatabaseRow, DatabasesTable, NewDatabaseRow } from "../schema.js";
import type { Updateable } from "kysely";

export interface DatabaseRows {
  findDatabase(name: string): Promise<DatabaseRow | undefined>;
  listDatabases(): Promise<DatabaseRow[]>;
  insertDatabase(row: NewDatabaseRow): Promise<void>;
  /** Changes settings of database `name`; answers whether it exists. */
  updateDatabase(name: string, update: Updateable<Pick<DatabasesTable, "read_consistency_ms">>): Promise<boolean>;
  deleteDatabase(name: string): Promise<void>;
}

export function databaseRows(db: Kysely<Database>): DatabaseRows {
  return {
    findDatabase: (name) => db.selectFrom("databases").selectAll().where("name", "=", name).executeTakeFirst(),
    listDatabases: () => db.selectFrom("databases").selectAll().orderBy("name").execute(),
    async insertDatabase(row) {
      await db.insertInto("databases").values(row).execute();
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
