/**
 * @module Opens the embedded SQLite metadata store (better-sqlite3, WAL) and migrates it. One
 * process serves a SQLite store, so its locks and change notices live in that process.
 */
import Sqlite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { KyselyStore } from "../kysely-store.js";
import type { OpenStoreOptions } from "../store.js";
import type { Database } from "../schema.js";
import { LocalEvents } from "../store-events.js";
import { ProcessLocks } from "../store-locks.js";
import { sqliteAdapter } from "./sqlite-adapter.js";
import { withStatementCache } from "./statement-cache.js";

export async function openSqliteStore(file: string, options: OpenStoreOptions = {}): Promise<KyselyStore> {
  const connection = new Sqlite(file);
  connection.pragma("journal_mode = WAL");
  // NORMAL keeps WAL durable across process crashes; only an OS crash can lose the last commit.
  connection.pragma("synchronous = NORMAL");
  connection.pragma("foreign_keys = ON");
  connection.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  const store = new KyselyStore(db, sqliteAdapter, { locks: new ProcessLocks(), events: new LocalEvents(), close: async () => undefined });
  if (options.migrate !== false) await store.migrate();
  return store;
}
