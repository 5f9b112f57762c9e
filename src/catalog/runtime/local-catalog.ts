/**
 * @module The catalog of one local folder, without a server: the composition the `dir` client
 * uses. The folder has the server's layout (`quiver.sqlite` for metadata, table data under
 * `databases/<name>/`), so a Quiver started on the same folder sees the same namespaces and
 * tables.
 */
import type { Catalog } from "../catalog.js";
import { defaultDatabaseName, ensureDatabase } from "./database-registry.js";
import { openLocalRoot } from "./local-root.js";

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
  const local = await openLocalRoot(options.root, { managedVersioning: options.managedVersioning });
  try {
    const name = options.database ?? defaultDatabaseName;
    await ensureDatabase(local.storages, local.store, local.dataLocation, name, { managedVersioning: options.managedVersioning ?? false });
    const catalog = await local.registry.catalogFor(name);
    if (!catalog) throw new Error(`database '${name}' could not be opened under ${local.root}`);
    return { root: local.root, catalog, close: local.close };
  } catch (error) {
    await local.close();
    throw error;
  }
}
