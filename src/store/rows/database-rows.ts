/**
 * @module Database (tenant) rows.
 */
import type { Kysely } from "kysely";
import type { Database, DatabaseRow, NewDatabaseRow } from "../schema.js";

export interface DatabaseRows {
  findDatabase(name: string): Promise<DatabaseRow | undefined>;
  listDatabases(): Promise<DatabaseRow[]>;
  insertDatabase(row: NewDatabaseRow): Promise<void>;
  deleteDatabase(name: string): Promise<void>;
}

export function databaseRows(db: Kysely<Database>): DatabaseRows {
  return {
    findDatabase: (name) => db.selectFrom("databases").selectAll().where("name", "=", name).executeTakeFirst(),
    listDatabases: () => db.selectFrom("databases").selectAll().orderBy("name").execute(),
    async insertDatabase(row) {
      await db.insertInto("databases").values(row).execute();
    },
    async deleteDatabase(name) {
      await db.deleteFrom("databases").where("name", "=", name).execute();
    },
  };
}
