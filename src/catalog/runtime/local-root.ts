/**
 * @module A Quiver root folder opened in this process: the metadata store (`quiver.sqlite`, or a
 * PostgreSQL database named by URL), the engine, and the default database. The server, the admin
 * commands and the `dir` client all open a root through here, so they agree on its layout.
 */
import path from "node:path";
import { Engine, lanceCopyFormat } from "../../engine/engine.js";
import { TableCopies } from "../../storage/object-cache/table-copies.js";
import { engineCallDuration } from "../../metrics/metrics.js";
import { withTimedMethods } from "../../metrics/timed.js";
import { normalizeLocation } from "../../storage/locations.js";
import { Storages, type Vending } from "../../storage/storages.js";
import { ObjectCache, type ObjectCacheSettings } from "../../storage/object-cache/object-cache.js";
import { objectCacheObserver } from "../../metrics/object-cache-metrics.js";
import { tableCopyObserver } from "../../metrics/table-copy-metrics.js";
import type { StorageOptions } from "../../storage/storage-options.js";
import { openStore } from "../../store/open-store.js";
import type { Store } from "../../store/store.js";
import type { JobSettings } from "../catalog-scope.js";
import { CatalogRegistry, configureDatabaseStorage, defaultDatabaseName, ensureDatabase } from "./database-registry.js";
import { withSpans } from "../../tracing/spans.js";

/** `call` wraps every native call of the engine's own methods, which have their spans; `close` is not a request's work. */
const untracedEngineMethods: ReadonlySet<string> = new Set(["call", "close"]);

export const metadataFileName = "quiver.sqlite";

export interface LocalRoot {
  /** Absolute path of the folder. */
  root: string;
  /** Where databases without a location of their own keep their tables: `<data location>/<name>`. */
  dataLocation: string;
  store: Store;
  engine: Engine;
  /** This root's storage, built for it alone: the data location with its options, and the databases' own roots. */
  storages: Storages;
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
  /** A PostgreSQL URL for the metadata store; default the SQLite file under the root. */
  store?: string;
  /** Where table data lives: a folder or an object-store URI; default `<root>/databases`. */
  data?: string;
  /** Lance's storage options for `data` when it is an object store. */
  storageOptions?: StorageOptions;
  /** What clients receive in `storage_options` to open tables themselves. */
  vending?: Vending;
  /** How long dropped tables stay restorable; absent or 0 deletes at once. */
  dropRetentionMs?: number;
  /** The read-through cache of object-store reads; absent: none (the engine reads the store itself). */
  objectCache?: ObjectCacheSettings;
}

/** Where table data lives when no data location is given. */
export function defaultDataLocation(root: string): string {
  return path.join(path.resolve(root), "databases");
}

/** Opens (creating and migrating when needed) the root at `root`. */
export async function openLocalRoot(root: string, options: LocalRootOptions = {}): Promise<LocalRoot> {
  const dir = path.resolve(root);
  const dataLocation = normalizeLocation(options.data ?? defaultDataLocation(dir));
  const objectCache = options.objectCache ? new ObjectCache(options.objectCache, objectCacheObserver) : undefined;
  const storages = new Storages(objectCache);
  await storages.configure(dataLocation, options.storageOptions ?? {});
  await storages.for(dir).preparePrefix(dir);
  const store = await openStore(options.store, path.join(dir, metadataFileName));
  // Every engine method observes its latency; `call` is the funnel of the native calls the
  // engine's modules make directly.
  const copies = objectCache?.enabled && objectCache.copyBytes > 0 ? await TableCopies.open({ dir: path.join(objectCache.settings.dir, "tables"), maxBytes: objectCache.copyBytes }, storages, lanceCopyFormat, tableCopyObserver) : undefined;
  const timedEngine = withTimedMethods(new Engine({ storages, commitAttempts: options.commitAttempts, copies }), engineCallDuration, new Set(["close"]));
  const engine = withSpans(timedEngine, "engine.", {}, "internal", untracedEngineMethods);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    engine.close();
    await copies?.close();
    await storages.close();
    await store.close();
  };
  try {
    await configureDatabaseStorage(storages, store);
    await ensureDatabase(storages, store, dataLocation, defaultDatabaseName, { managedVersioning: options.managedVersioning ?? false });
  } catch (error) {
    await close();
    throw error;
  }
  return { root: dir, dataLocation, store, engine, storages, registry: new CatalogRegistry(store, engine, dataLocation, options.jobs, options.vending, options.dropRetentionMs), close };
}
