/**
 * @module A Quiver root folder opened in this process: the metadata store (`quiver.sqlite`), the
 * engine, and the default database. The server, the admin commands and the `dir` client all open
 * a root through here, so they agree on its layout.
 */
import path from "node:path";
import { Engine } from "../engine/engine.js";
import { storageFor } from "../storage/storage-for.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import type { Store } from "../store/store.js";
import type { JobSettings } from "./catalog-scope.js";
import { CatalogRegistry, defaultDatabaseName, ensureDatabase } from "./database-registry.js";

export const metadataFileName = "quiver.sqlite";

export interface LocalRoot {
  /** Absolute path of the folder. */
  root: string;
  store: Store;
  engine: Engine;
  registry: CatalogRegistry;
  /** Closes the engine's connections and the store. Idempotent. */
  close(): Promise<void>;
}

export interface LocalRootOptions {
  /** Whether the default database, when this call creates it, commits versions through the catalog. */
  managedVersioning?: boolean;
  /** Worker pools that refresh jobs may name; see `JobSettings`. */
  jobs?: JobSettings;
  /** Attempts of a write whose commits keep conflicting (default 6). */
  commitAttempts?: number;
}

/** Opens (creating and migrating when needed) the root at `root`. */
export async function openLocalRoot(root: string, options: LocalRootOptions = {}): Promise<LocalRoot> {
  const dir = path.resolve(root);
  await storageFor(dir).preparePrefix(dir);
  const store = await openSqliteStore(path.join(dir, metadataFileName));
  const engine = new Engine({ commitAttempts: options.commitAttempts });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    engine.close();
    await store.close();
  };
  try {
    await ensureDatabase(store, dir, defaultDatabaseName, { managedVersioning: options.managedVersioning ?? false });
  } catch (error) {
    await close();
    throw error;
  }
  return { root: dir, store, engine, registry: new CatalogRegistry(store, engine, options.jobs), close };
}
