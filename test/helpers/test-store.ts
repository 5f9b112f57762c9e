/**
 * Which metadata store the tests' servers use: the SQLite file under their root (the default), or,
 * with QUIVER_TEST_STORE=postgres, a fresh database on a real PostgreSQL. `npm test` runs the
 * HTTP suites once more on PostgreSQL; store-level tests loop over both dialects themselves.
 */
import path from "node:path";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import type { KyselyStore } from "../../src/store/kysely-store.js";
import { openStore } from "../../src/store/open-store.js";
import { metadataFileName } from "../../src/catalog/runtime/local-root.js";
import { migratedPostgresDatabase } from "./postgres.js";
import { tempRoot } from "./test-server.js";

export type StoreDialect = "sqlite" | "postgres";

export const storeDialects: readonly StoreDialect[] = ["sqlite", "postgres"];

export const testStoreDialect: StoreDialect = process.env.QUIVER_TEST_STORE === "postgres" ? "postgres" : "sqlite";

/** Per root, the PostgreSQL database of its servers, so a server restarted on a root finds its catalog. */
const databasesByRoot = new Map<string, Promise<string>>();

/** Where this process keeps its migrated SQLite template, when `npm test` named none. */
let sqliteTemplate: Promise<string> | undefined;

/**
 * A SQLite catalog with every migration applied and no rows, as a server leaves a store it opened
 * for the first time; answers its file. Migrating costs a server's start as much as the rest of it
 * together, so `npm test` makes one template for the run and names it in
 * QUIVER_TEST_SQLITE_TEMPLATE; a test file run on its own makes its own.
 */
export function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= process.env.QUIVER_TEST_SQLITE_TEMPLATE
    ? Promise.resolve(process.env.QUIVER_TEST_SQLITE_TEMPLATE)
    : createSqliteTemplate(tempRoot("quiver-sqlite-template-"), { removeAtExit: true });
  return sqliteTemplate;
}

/** Migrates a new SQLite catalog in `folder` and closes it, which folds its write-ahead log into the file. */
export async function createSqliteTemplate(folder: string, { removeAtExit = false } = {}): Promise<string> {
  if (removeAtExit) process.on("exit", () => rmSync(folder, { recursive: true, force: true }));
  const file = path.join(folder, metadataFileName);
  const store = await openStore(undefined, file);
  await store.close();
  return file;
}

/** The SQLite catalog file under `root`: a copy of the migrated template unless the root has one. */
async function sqliteCatalogIn(root: string): Promise<string> {
  const file = path.join(root, metadataFileName);
  if (!existsSync(file)) copyFileSync(await migratedSqliteTemplate(), file);
  return file;
}

/**
 * The `--store` of a server over `root` on the store under test. On SQLite, undefined: the
 * server's file under the root (`sqliteCatalogIn`). On PostgreSQL a database already migrated.
 * The migrations have tests of their own.
 */
export async function testStoreUrl(root: string): Promise<string | undefined> {
  if (testStoreDialect === "sqlite") {
    await sqliteCatalogIn(root);
    return undefined;
  }
  const key = path.resolve(root);
  let url = databasesByRoot.get(key);
  if (!url) {
    url = migratedPostgresDatabase();
    databasesByRoot.set(key, url);
  }
  return await url;
}

/** A fresh, migrated store of `dialect` (a copy of the template), closed (and its files removed) after the test. */
export async function openTestStore(t: { after(fn: () => unknown): void }, dialect: StoreDialect): Promise<KyselyStore> {
  const root = tempRoot();
  const url = dialect === "postgres" ? await migratedPostgresDatabase() : undefined;
  const store = await openStore(url, dialect === "sqlite" ? await sqliteCatalogIn(root) : path.join(root, metadataFileName));
  t.after(async () => {
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });
  return store;
}
