/**
 * @module The databases (tenants) of a root and their catalogs: `ensureDatabase` registers a
 * database, `CatalogRegistry` hands out each database's `Catalog`. A database created with a
 * location of its own keeps it; one created without follows the data location of the process
 * serving it (`<data location>/<name>`), so a server moved onto an object store puts their new
 * tables there.
 */
import { UnsafeObjectStore, requireConditionalCreates } from "../../storage/conditional-create-probe.js";
import { isInsideLocation, isUri, joinLocation, normalizeLocation } from "../../storage/locations.js";
import type { Storages, Vending } from "../../storage/storages.js";
import type { StorageOptions } from "../../storage/storage-options.js";
import { invalidInput } from "../../model/catalog-error.js";
import type { Engine } from "../../engine/engine.js";
import type { DatabaseRow } from "../../store/schema.js";
import type { Store } from "../../store/store.js";
import { UniqueViolation } from "../../store/store-errors.js";
import { Catalog } from "../catalog.js";
import type { CatalogScope, DatabaseInfo, JobSettings } from "../catalog-scope.js";
import type { OwnerMayRead } from "../../model/authz/owner-may-read.js";
import { databaseStorageRoot, followsDataLocation, hasOwnLocation, toDatabaseInfo } from "../database-info.js";
import { validateName } from "../identifiers.js";
import { checkedClientLocation } from "../table-locations.js";
import { withSpans } from "../../tracing/spans.js";
import { recordChange } from "../change-events.js";

export const defaultDatabaseName = "default";

export interface CreateDatabaseOptions {
  managedVersioning?: boolean;
  /**
   * Where the database's tables live (a folder or an object-store URI), kept whatever the server's
   * data location; without it they follow the serving process's `<data location>/<name>`.
   */
  location?: string;
  /** Storage options for `location`; default the server's for its data location. */
  storageOptions?: StorageOptions;
  /** See `DatabaseSettings.readConsistencyMs`; default null (a look at the store on every read). */
  readConsistencyMs?: number | null;
  /** See `DatabaseSettings.outsideWriters`; default false. */
  outsideWriters?: boolean;
}

/**
 * Creates a database whose tables live at `options.location`, or else under the serving
 * process's `<data location>/<name>` (here `dataLocation`), unless it exists. Throws 13 for a
 * location Quiver cannot serve with the options given.
 */
export async function ensureDatabase(storages: Storages, store: Store, dataLocation: string, name: string, options: CreateDatabaseOptions = {}): Promise<DatabaseInfo> {
  validateName(name, "database");
  const existing = await store.rows.findDatabase(name);
  if (existing) return toDatabaseInfo(existing, dataLocation);
  const storageRoot = options.location ? await ownStorageRoot(storages, options.location, options.storageOptions ?? {}) : joinLocation(normalizeLocation(dataLocation), name);
  await requireSeparateRoot(store, dataLocation, name, storageRoot);
  await storages.for(storageRoot).preparePrefix(storageRoot);
  try {
    await requireConditionalCreates(storages, storageRoot);
  } catch (error) {
    if (error instanceof UnsafeObjectStore) throw invalidInput(error.message);
    throw error;
  }
  try {
    await store.transaction(async (tx) => {
      await tx.insertDatabase({
        name,
        storage_root: options.location ? storageRoot : followsDataLocation,
        managed_versioning: options.managedVersioning ? 1 : 0,
        properties: {},
        storage_options: options.storageOptions ?? {},
        created_at: Date.now(),
        read_consistency_ms: checkedReadConsistency(options.readConsistencyMs),
        outside_writers: options.outsideWriters ? 1 : 0,
      });
      await recordChange(tx, { kind: "database.created", database: name, data: { location: storageRoot, managed_versioning: options.managedVersioning ?? false } });
    });
  } catch (error) {
    if (!(error instanceof UniqueViolation)) throw error;
  }
  await announceDatabaseChange(store, name);
  return toDatabaseInfo((await store.rows.findDatabase(name)) as DatabaseRow, dataLocation);
}

/**
 * Refuses (13) a storage root that is, lies inside or holds another database's: each database's
 * tables, their drops and their deletions are judged inside its own root, so two roots that
 * overlap would let one tenant register, and a drop delete, the other's folders.
 */
async function requireSeparateRoot(store: Store, dataLocation: string, name: string, storageRoot: string): Promise<void> {
  const root = normalizeLocation(storageRoot);
  for (const other of await store.rows.listDatabases()) {
    // The same database, made meanwhile by a replica starting beside this one: the insert's
    // unique key settles which of the two made it.
    if (other.name === name) continue;
    const otherRoot = normalizeLocation(databaseStorageRoot(other, dataLocation));
    if (root === otherRoot || isInsideLocation(root, otherRoot) || isInsideLocation(otherRoot, root)) {
      throw invalidInput(`database '${name}' cannot keep its tables at '${storageRoot}': it overlaps the storage of database '${other.name}'`);
    }
  }
}

/** The longest read-consistency interval accepted: a day (reads older than that help no one). */
export const maxReadConsistencyMs = 86_400_000;

/** A read-consistency interval as stored: null or a whole number of milliseconds up to a day (else 13). */
export function checkedReadConsistency(value: number | null | undefined): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isInteger(value) || value < 0 || value > maxReadConsistencyMs) {
    throw invalidInput(`read_consistency_interval_ms must be a whole number of milliseconds from 0 to ${maxReadConsistencyMs}, or null; got ${value}`);
  }
  return value;
}

/**
 * Checks and configures a database's own storage root as database creation does (one spelling,
 * absolute, served by the server's data location or by `options`); answers it normalized.
 * Throws 13 otherwise.
 */
export async function ownStorageRoot(storages: Storages, text: string, options: StorageOptions): Promise<string> {
  const location = checkedClientLocation(text, "database location");
  if (!isUri(location) && !location.startsWith("/")) throw invalidInput(`a database location must be an absolute folder or a URI, got '${location}'`);
  const root = normalizeLocation(location);
  if (Object.keys(options).length > 0) {
    try {
      await storages.configure(root, options);
    } catch (error) {
      throw invalidInput(`cannot use '${location}': ${(error as Error).message}`);
    }
  } else if (!storages.isServed(root)) {
    throw invalidInput(`'${location}' is not under the server's data location; give the storage options that reach it`);
  }
  return root;
}

/** Serves a database's own storage root with its own options, if it has any. */
async function configureDatabaseRoot(storages: Storages, row: DatabaseRow): Promise<void> {
  const options = row.storage_options;
  if (hasOwnLocation(row) && Object.keys(options).length > 0) await storages.configure(row.storage_root, options);
}

/** Serves every database's own storage root with its own options; call once the store is open. */
export async function configureDatabaseStorage(storages: Storages, store: Store): Promise<void> {
  for (const row of await store.rows.listDatabases()) await configureDatabaseRoot(storages, row);
}

function sameDatabase(a: DatabaseInfo, b: DatabaseInfo): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The change-notice topic of databases created or dropped; the key is the database's name. */
const databaseTopic = "database";

/** Tells every process on the store that database `name` was created or dropped. */
export async function announceDatabaseChange(store: Store, name: string): Promise<void> {
  await store.events.publish({ topic: databaseTopic, key: name });
}

/**
 * How long a database's settings are trusted without a change notice: the notices can be missed
 * (a dropped listener connection), and another process may have dropped or recreated it.
 */
export const databaseCacheTtlMs = 5_000;

/**
 * Catalog instances per database, created on first use and dropped when the database changes
 * (a change notice from any process on the store) or its entry is older than `databaseCacheTtlMs`.
 * The list of names is remembered the same way, and answers for names with no database: clients
 * that name one in every request (`db://<name>` URLs) cost no store lookup per request, and the
 * names they send are not kept.
 */
export class CatalogRegistry {
  private readonly catalogs = new Map<string, { catalog: Catalog; loadedAt: number }>();
  private names: { names: string[]; loadedAt: number } | undefined;
  /** Set by the runtime once auth is built: how a view's refresh checks its owner's privileges. */
  ownerMayRead: OwnerMayRead | undefined;

  constructor(
    readonly store: Store,
    readonly engine: Engine,
    /** Where the databases without a location of their own keep their tables: `<data location>/<name>`. */
    readonly dataLocation: string,
    readonly jobs?: JobSettings,
    readonly vending?: Vending,
    /** How long dropped tables stay restorable; absent or 0 deletes at once. */
    readonly dropRetentionMs?: number,
  ) {
    store.events.subscribe((change) => {
      if (change.topic === databaseTopic) this.invalidate(change.key);
      else if (change.topic === "*") this.invalidate();
    });
  }

  /** The catalog of `name`, or undefined when no such database exists. */
  async catalogFor(name: string): Promise<Catalog | undefined> {
    const cached = this.catalogs.get(name);
    if (cached && isFresh(cached.loadedAt)) return cached.catalog;
    if (this.names && isFresh(this.names.loadedAt) && !this.names.names.includes(name)) return undefined;
    const loadedAt = Date.now();
    const row = await this.store.rows.findDatabase(name);
    if (!row) {
      this.catalogs.delete(name);
      return undefined;
    }
    // A database another process created with its own location is served here too.
    await configureDatabaseRoot(this.engine.storages, row);
    const database = toDatabaseInfo(row, this.dataLocation);
    this.engine.assignDatabase(database.name, database.storageRoot);
    // The same settings keep the same catalog, so work holding it sees no change.
    if (cached && sameDatabase(cached.catalog.scope.database, database)) {
      this.catalogs.set(name, { catalog: cached.catalog, loadedAt });
      return cached.catalog;
    }
    const scope: CatalogScope = {
      store: this.store,
      engine: this.engine,
      storages: this.engine.storages,
      database,
      jobs: this.jobs,
      vending: this.vending,
      dataLocation: this.dataLocation,
      dropRetentionMs: this.dropRetentionMs,
      // Read when a refresh asks: the runtime sets it after the catalogs of start-up were made.
      ownerMayRead: (database, view, source) => this.ownerMayRead?.(database, view, source) ?? Promise.resolve(true),
    };
    // Each operation a request calls is a span under the request's (while tracing is on).
    const catalog = withSpans(new Catalog(scope), "catalog.", { "quiver.database": name });
    this.catalogs.set(name, { catalog, loadedAt });
    return catalog;
  }

  async databaseNames(): Promise<string[]> {
    if (this.names && isFresh(this.names.loadedAt)) return this.names.names;
    const loadedAt = Date.now();
    const names = (await this.store.rows.listDatabases()).map((row) => row.name);
    this.names = { names, loadedAt };
    return names;
  }

  /** Forgets cached catalogs, e.g. after a database's settings changed. */
  invalidate(name?: string): void {
    this.names = undefined;
    if (name === undefined) this.catalogs.clear();
    else this.catalogs.delete(name);
  }
}

function isFresh(loadedAt: number): boolean {
  return Date.now() - loadedAt < databaseCacheTtlMs;
}
