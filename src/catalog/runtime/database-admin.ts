/**
 * @module Database (tenant) administration: create, list, drop. Each database has its own
 * storage root (its own location, or else the serving process's `<data location>/<name>`) and its
 * own catalog.
 */
import type { Storages } from "../../storage/storages.js";
import { DeletionOutsideScope, normalizeLocation, parentLocation } from "../../storage/locations.js";
import { redactedOptionsOf } from "../../storage/storage-options.js";
import type { Store } from "../../store/store.js";
import { CatalogError } from "../../model/catalog-error.js";
import type { DatabaseInfo } from "../catalog-scope.js";
import { hasOwnLocation, toDatabaseInfo } from "../database-info.js";
import { type CreateDatabaseOptions, announceDatabaseChange, checkedReadConsistency, ensureDatabase } from "./database-registry.js";
import { validateName } from "../identifiers.js";
import { recordChange } from "../change-events.js";

/**
 * Creates a database. Defaults: managed versioning off. Throws 13 for an invalid name, 2
 * (NamespaceAlreadyExists: a database is the outermost namespace) when it exists.
 */
export async function createDatabase(storages: Storages, store: Store, dataLocation: string, name: string, options: CreateDatabaseOptions = {}): Promise<DatabaseInfo> {
  validateName(name, "database");
  if (await store.rows.findDatabase(name)) throw CatalogError.of("NamespaceAlreadyExists", `database '${name}' already exists`);
  return ensureDatabase(storages, store, dataLocation, name, options);
}

/** Settings of a database that may change after its creation. */
export interface DatabaseSettings {
  /**
   * How long (ms) a read may answer from a kept table handle without looking at the store for
   * commits made outside Quiver (clients writing with vended credentials); null looks on every
   * read. Commits through Quiver are seen at once either way.
   */
  readConsistencyMs?: number | null;
  /**
   * Automatic maintenance of the database's tables (docs/maintenance.md): on, off, or null to
   * follow the server's `--auto-maintenance`. A table's `quiver.auto_maintenance` property wins.
   */
  autoMaintenance?: boolean | null;
  /**
   * Writers holding their own storage keys commit to the database's tables directly: every read
   * looks at the store alongside, and a periodic check records what they commit. Default false.
   */
  outsideWriters?: boolean;
}

/**
 * Changes `settings` of database `name` (what is absent stays) and answers the database. Every
 * process on the store hears of it. Throws 1 when it does not exist, 13 for a value out of range.
 */
export async function updateDatabaseSettings(store: Store, dataLocation: string, name: string, settings: DatabaseSettings): Promise<DatabaseInfo> {
  const update: { read_consistency_ms?: number | null; auto_maintenance?: number | null; outside_writers?: number } = {};
  if (settings.readConsistencyMs !== undefined) update.read_consistency_ms = checkedReadConsistency(settings.readConsistencyMs);
  if (settings.autoMaintenance !== undefined) update.auto_maintenance = settings.autoMaintenance === null ? null : settings.autoMaintenance ? 1 : 0;
  if (settings.outsideWriters !== undefined) update.outside_writers = settings.outsideWriters ? 1 : 0;
  if (Object.keys(update).length > 0) {
    const updated = await store.rows.updateDatabase(name, update);
    if (!updated) throw CatalogError.of("NamespaceNotFound", `database '${name}' does not exist`);
    await announceDatabaseChange(store, name);
  }
  const row = await store.rows.findDatabase(name);
  if (!row) throw CatalogError.of("NamespaceNotFound", `database '${name}' does not exist`);
  return toDatabaseInfo(row, dataLocation);
}

/** A database's own storage options as answers show them: secrets redacted. */
export function shownStorageOptions(info: DatabaseInfo): Record<string, string> {
  return redactedOptionsOf(info.storageOptions);
}

/**
 * Every database, ordered by name, its location resolved against `dataLocation`; `visible`
 * filters what the caller may see.
 */
export async function listDatabases(store: Store, dataLocation: string, visible: (name: string) => boolean = () => true): Promise<DatabaseInfo[]> {
  return (await store.rows.listDatabases()).map((row) => toDatabaseInfo(row, dataLocation)).filter((db) => visible(db.name));
}

/**
 * Drops a database with its namespaces, tables, API keys and OAuth clients (one commit), then
 * deletes its storage root. Every process on the store hears of it and forgets the database's
 * catalog. Without `cascade` a database holding tables or namespaces is refused with 3. Throws 1
 * when it does not exist. Tables registered from outside the storage root keep their files.
 */
export async function dropDatabase(storages: Storages, store: Store, dataLocation: string, name: string, options: { cascade?: boolean } = {}): Promise<DatabaseInfo> {
  const { info, ownRoot } = await store.transaction(async (tx) => {
    const row = await tx.findDatabase(name);
    if (!row) throw CatalogError.of("NamespaceNotFound", `database '${name}' does not exist`);
    if (!options.cascade) {
      const tables = await tx.listAllTables(name);
      const namespaces = await tx.countChildNamespaces(name, "");
      if (tables.length > 0 || namespaces > 0) {
        throw CatalogError.of("NamespaceNotEmpty", `database '${name}' is not empty; drop it with cascade`);
      }
    }
    // Child rows go through ON DELETE CASCADE in the same statement.
    await tx.deleteDatabase(name);
    await recordChange(tx, { kind: "database.dropped", database: name, data: { cascade: options.cascade ?? false } });
    return { info: toDatabaseInfo(row, dataLocation), ownRoot: hasOwnLocation(row) };
  });
  await announceDatabaseChange(store, name);
  // finalize: the rows are gone, so nothing can reach these files any more. A root of its own
  // is deleted within its parent, so a root that is a whole bucket or `/` is never deleted.
  const scope = ownRoot ? parentLocation(info.storageRoot) : normalizeLocation(dataLocation);
  try {
    await storages.for(info.storageRoot).deletePrefix(info.storageRoot, scope);
  } catch (error) {
    if (!(error instanceof DeletionOutsideScope)) throw error;
  }
  return info;
}
