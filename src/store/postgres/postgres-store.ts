/**
 * @module Opens a PostgreSQL metadata store (`pg` through Kysely) and migrates it. Several
 * Quiver processes may share one: each has a pool for queries, a few connections that hold
 * advisory locks across engine work, and one connection that LISTENs for change notices.
 */
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { KyselyStore } from "../kysely-store.js";
import type { Database } from "../schema.js";
import type { OpenStoreOptions } from "../store.js";
import { postgresAdapter } from "./postgres-adapter.js";
import { AdvisoryLocks } from "./advisory-locks.js";
import { NotifyEvents } from "./notify-events.js";
import { listenForClientErrors } from "./client-errors.js";

/** int8 (counts, epoch milliseconds, versions) and numeric (sums) as numbers: all stay far below 2^53. */
const numberTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC ? (text: string) => Number(text) : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"],
};

export interface PostgresStoreOptions extends OpenStoreOptions {
  /** Connections for queries (default 10). */
  poolSize?: number;
}

/**
 * How long a request waits to open a connection, or for a free one in a full pool, before it
 * answers 503: an unreachable server (a fail-over under way) fails fast instead of hanging.
 */
const connectTimeoutMs = 5_000;

export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<KyselyStore> {
  // Keep-alive probes find a server that vanished without closing its sockets (a fail-over).
  const config: pg.PoolConfig = { connectionString: url, types: numberTypes, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true, keepAliveInitialDelayMillis: 10_000 };
  const pool = new pg.Pool({ ...config, max: options.poolSize ?? 10 });
  // A connection the server dropped is replaced on next use: its query in flight fails as StoreUnavailable (503).
  listenForClientErrors(pool);
  const locks = new AdvisoryLocks(config);
  const events = new NotifyEvents(config, pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const store = new KyselyStore(db, postgresAdapter, {
    locks,
    events,
    close: async () => {
      await events.close();
      await locks.close();
    },
    trouble: () => (events.listening ? undefined : "change notices are not heard (the listening connection is reconnecting)"),
  });
  try {
    if (options.migrate !== false) await store.migrate();
    await events.start();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
