/**
 * @module The databases (tenants) of a root and their catalogs: `ensureDatabase` registers a
 * database with its own storage root, `CatalogRegistry` hands out each database's `Catalog`.
 */
import path from "node:path";
import type { Engine } from "../engine/engine.js";
import type { DatabaseRow } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { UniqueViolation } from "../store/store-errors.js";
import { Catalog } from "./catalog.js";
import type { DatabaseInfo, JobSettings } from "./catalog-scope.js";
import { validateName } from "./identifiers.js";
import { fromJsonColumn } from "../store/rows/json-columns.js";

export const defaultDatabaseName = "default";

export function toDatabaseInfo(row: DatabaseRow): DatabaseInfo {
  return {
    name: row.name,
    storageRoot: row.storage_root,
    managedVersioning: row.managed_versioning === 1,
    properties: fromJsonColumn(row.properties),
  };
}

export interface CreateDatabaseOptions {
  managedVersioning?: boolean;
}

/** Creates a database whose tables live under `<dataRoot>/databases/<name>`, unless it exists. */
export async function ensureDatabase(store: Store, dataRoot: string, name: string, options: CreateDatabaseOptions = {}): Promise<DatabaseInfo> {
  validateName(name, "database");
  const existing = await store.rows.findDatabase(name);
  if (existing) return toDatabaseInfo(existing);
  try {
    await store.rows.insertDatabase({
      name,
      storage_root: path.join(path.resolve(dataRoot), "databases", name),
      managed_versioning: options.managedVersioning ? 1 : 0,
      properties: "{}",
      created_at: Date.now(),
    });
  } catch (error) {
    if (!(error instanceof UniqueViolation)) throw error;
  }
  return toDatabaseInfo((await store.rows.findDatabase(name)) as DatabaseRow);
}

/** Catalog instances per database, created on first use. */
export class CatalogRegistry {
  private readonly catalogs = new Map<string, Catalog>();

  constructor(
    readonly store: Store,
    readonly engine: Engine,
    readonly jobs?: JobSettings,
  ) {}

  /** The catalog of `name`, or undefined when no such database exists. */
  async catalogFor(name: string): Promise<Catalog | undefined> {
    const cached = this.catalogs.get(name);
    if (cached) return cached;
    const row = await this.store.rows.findDatabase(name);
    if (!row) return undefined;
    const catalog = new Catalog({ store: this.store, engine: this.engine, database: toDatabaseInfo(row), jobs: this.jobs });
    this.catalogs.set(name, catalog);
    return catalog;
  }

  async databaseNames(): Promise<string[]> {
    return (await this.store.rows.listDatabases()).map((row) => row.name);
  }

  /** Forgets cached catalogs, e.g. after a database's settings changed. */
  invalidate(name?: string): void {
    if (name === undefined) this.catalogs.clear();
    else this.catalogs.delete(name);
  }
}
