/**
 * @module Opens the embedded SQLite metadata store (better-sqlite3, WAL) and migrates it.
 */
import Sqlite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { KyselyStore } from "../kysely-store.js";
import type { Database } from "../schema.js";
import { sqliteAdapter } from "./sqlite-adapter.js";

export async function openSqliteStore(file: string): Promise<KyselyStore> {
  const connection = new Sqlite(file);
  connection.pragma("journal_mode = WAL");
  // NORMAL keeps WAL durable across process crashes; only an OS crash can lose the last commit.
  connection.pragma("synchronous = NORMAL");
  connection.pragma("foreign_keys = ON");
  connection.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  const store = new KyselyStore(db, sqliteAdapter);
  await store.migrate();
  return store;
}
