/**
 * Which metadata store the tests' servers use: the SQLite file under their root (the default), or,
 * with QUIVER_TEST_STORE=postgres, a fresh database on a real PostgreSQL. `npm test` runs the
 * HTTP suites once more on PostgreSQL; store-level tests loop over both dialects themselves.
 */
import path from "node:path";
import { rmSync } from "node:fs";
import type { KyselyStore } from "../../src/store/kysely-store.js";
import { openStore } from "../../src/store/open-store.js";
import { freshPostgresDatabase, migratedPostgresDatabase } from "./postgres.js";
import { tempRoot } from "./test-server.js";

export type StoreDialect = "sqlite" | "postgres";

export const storeDialects: readonly StoreDialect[] = ["sqlite", "postgres"];

export const testStoreDialect: StoreDialect = process.env.QUIVER_TEST_STORE === "postgres" ? "postgres" : "sqlite";

/** Per root, the PostgreSQL database of its servers, so a server restarted on a root finds its catalog. */
const databasesByRoot = new Map<string, Promise<string>>();

/**
 * The `--store` of a server over `root` on the store under test; undefined for SQLite. On
 * PostgreSQL a database already migrated: the migrations have tests of their own.
 */
export function testStoreUrl(root: string): Promise<string | undefined> {
  if (testStoreDialect === "sqlite") return Promise.resolve(undefined);
  const key = path.resolve(root);
  let url = databasesByRoot.get(key);
  if (!url) {
    url = migratedPostgresDatabase();
    databasesByRoot.set(key, url);
  }
  return url;
}

/** A fresh, migrated store of `dialect`, closed (and its files removed) after the test. */
export async function openTestStore(t: { after(fn: () => unknown): void }, dialect: StoreDialect): Promise<KyselyStore> {
  const root = tempRoot();
  const url = dialect === "postgres" ? await freshPostgresDatabase() : undefined;
  const store = await openStore(url, path.join(root, "quiver.sqlite"));
  t.after(async () => {
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });
  return store;
}
