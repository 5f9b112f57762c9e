/**
 * @module Chooses the metadata store: a PostgreSQL URL (`--store`) for several replicas, else the
 * embedded SQLite file under the root.
 */
import type { KyselyStore } from "./kysely-store.js";
import type { OpenStoreOptions } from "./store.js";

const postgresSchemes = ["postgres:", "postgresql:"];

/** Checks a `--store` value; answers it unchanged. Throws with a message fit for the operator. */
export function checkStoreUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--store must be a URL such as postgres://user:password@host:5432/quiver, got '${redactStoreUrl(url)}'`);
  }
  if (!postgresSchemes.includes(parsed.protocol)) {
    throw new Error(`--store must be a postgres:// URL (without it, the SQLite file under --root is used), got '${redactStoreUrl(url)}'`);
  }
  return url;
}

/** The URL with its password hidden, for logs and errors. */
export function redactStoreUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ":***@");
  }
}

/**
 * Opens the store at `url` (PostgreSQL), or the SQLite file `sqliteFile` without one. Each
 * dialect's driver is loaded only when it is used.
 */
export async function openStore(url: string | undefined, sqliteFile: string, options: OpenStoreOptions = {}): Promise<KyselyStore> {
  if (url === undefined) return (await import("./sqlite/sqlite-store.js")).openSqliteStore(sqliteFile, options);
  const checked = checkStoreUrl(url);
  return (await import("./postgres/postgres-store.js")).openPostgresStore(checked, options);
}
