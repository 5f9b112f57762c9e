/**
 * @module The catalog of one local folder, without a server: the composition the `dir` client
 * uses. The folder has the server's layout (`quiver.sqlite` for metadata, table data under
 * `databases/<name>/`), so a Quiver started on the same folder sees the same namespaces and
 * tables.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { Engine } from "../engine/engine.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import type { Catalog } from "./catalog.js";
import { CatalogRegistry, defaultDatabaseName, ensureDatabase } from "./databases.js";

/** The metadata file inside the root; the server's composition root uses the same name. */
const metadataFileName = "quiver.sqlite";

export interface LocalCatalogOptions {
  /** Folder holding the metadata store and the table data; created when missing. */
  root: string;
  /** Database (tenant) to open; default `default`, the one the embedded server serves. */
  database?: string;
  /** Whether a database created here commits versions through the catalog; default false. */
  managedVersioning?: boolean;
}

export interface LocalCatalog {
  readonly root: string;
  readonly catalog: Catalog;
  /** Closes the engine's connections and the metadata store. Idempotent. */
  close(): Promise<void>;
}

/** Opens (and migrates) the store under `root`, makes sure the database exists, and returns its catalog. */
export async function openLocalCatalog(options: LocalCatalogOptions): Promise<LocalCatalog> {
  const root = path.resolve(options.root);
  mkdirSync(root, { recursive: true });
  const store = await openSqliteStore(path.join(root, metadataFileName));
  const engine = new Engine();
  try {
    const name = options.database ?? defaultDatabaseName;
    await ensureDatabase(store, root, name, { managedVersioning: options.managedVersioning ?? false });
    const catalog = await new CatalogRegistry(store, engine).catalogFor(name);
    if (!catalog) throw new Error(`database '${name}' could not be opened under ${root}`);
    let closed = false;
    return {
      root,
      catalog,
      async close() {
        if (closed) return;
        closed = true;
        engine.close();
        await store.close();
      },
    };
  } catch (error) {
    engine.close();
    await store.close();
    throw error;
  }
}
