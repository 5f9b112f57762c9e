/**
 * @module The read-through object cache of one runtime: one block cache on local disk, shared by
 * every table and database the runtime serves, and one loopback proxy per object-store root that
 * the engine is pointed at instead of the store. Clients are never pointed at it: they keep the
 * store's own endpoint and their own credentials.
 */
import type { StorageOptions } from "../storage-options.js";
import { requestTimeoutOf } from "../store-timeout.js";
import { AzureDialect } from "./azure-dialect.js";
import { BlockCache } from "./block-cache.js";
import { GcsDialect } from "./gcs-dialect.js";
import type { RequestKind } from "./object-kinds.js";
import { type ProxyObserver, type ReadThroughProxy, startReadThroughProxy } from "./read-through-proxy.js";
import { S3Dialect } from "./s3-dialect.js";
import type { StoreDialect } from "./store-dialect.js";
import { StoreMeters, type StoreUsage } from "./store-meters.js";

export type { StoreUsage };

/** Where and how large the cache is. */
export interface ObjectCacheSettings {
  /** The folder holding the blocks; kept across restarts. */
  dir: string;
  /** The bound on the cache's bytes on disk, blocks and local copies of tables together; 0 turns the cache off. */
  maxBytes: number;
  /**
   * The part of `maxBytes` given to local copies of whole tables (default half; 0 keeps blocks
   * only; at most three quarters); the blocks get the rest.
   */
  copyBytes?: number;
  /** Bytes per block (default 256 KiB): a miss fetches whole aligned blocks. */
  blockSize?: number;
}

/** The cache's bound when none is given. */
export const defaultCacheBytes = 10 * 1024 ** 3;

/** Bytes per cached block by default: large enough that a scan fetches few, small enough that a point read fetches little. */
export const defaultBlockSize = 256 * 1024;

/** What the cache reports, for metrics. */
export interface ObjectCacheObserver {
  storeRequest(kind: RequestKind): void;
  hit(bytes: number): void;
  miss(bytes: number): void;
  evicted(blocks: number, bytes: number): void;
}

const silent: ObjectCacheObserver = { storeRequest: () => undefined, hit: () => undefined, miss: () => undefined, evicted: () => undefined };

function dialectOf(scheme: string, options: StorageOptions): StoreDialect | undefined {
  if (scheme === "az") return AzureDialect.canServe(options) ? new AzureDialect(options) : undefined;
  if (scheme === "s3") return new S3Dialect(options);
  if (scheme === "gs") return new GcsDialect(options);
  return undefined;
}

/** How the proxy names objects under an object-store URI: `container-or-bucket/path`, the URI without its scheme. */
function pathInStore(uri: string): string {
  return uri.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
}

export class ObjectCache {
  private blocks: Promise<BlockCache> | undefined;
  /** Proxies by root and options: a root configured again with the same options keeps its proxy. */
  private readonly proxies = new Map<string, { proxy: Promise<ReadThroughProxy>; dialect: StoreDialect }>();
  /** The store each served root's proxy reads from, by root: what a location's meter matches. */
  private readonly stores = new Map<string, string>();
  private readonly meters = new StoreMeters();

  constructor(
    readonly settings: ObjectCacheSettings,
    private readonly observer: ObjectCacheObserver = silent,
  ) {}

  /** Whether the cache is on (a positive bound). */
  get enabled(): boolean {
    return this.settings.maxBytes > 0;
  }

  /**
   * The bytes given to local copies of tables: 0 when the cache is off, at most three quarters of
   * the bound (the blocks always keep a quarter: reads of tables not copied need them).
   */
  get copyBytes(): number {
    const asked = this.settings.copyBytes ?? Math.floor(this.settings.maxBytes / 2);
    return Math.min(Math.floor((this.settings.maxBytes * 3) / 4), Math.max(0, asked));
  }

  /** The block cache, opened (its index rebuilt from disk) when the first root needs it. */
  blockCache(): Promise<BlockCache> {
    this.blocks ??= BlockCache.open(this.settings.dir, this.settings.maxBytes - this.copyBytes, this.settings.blockSize ?? defaultBlockSize, this.observer);
    return this.blocks;
  }

  /**
   * The options the engine opens locations under `root` (an object-store URI of `scheme`) with:
   * `options` with the endpoint pointed at this root's proxy. A root configured again with the same
   * options keeps its proxy; with other options it gets a new one, and the old one keeps serving
   * the engine's connections opened with it until the cache closes. `options` unchanged when the
   * cache is off or cannot serve the root's credential.
   */
  async engineOptionsFor(root: string, scheme: string, options: StorageOptions): Promise<StorageOptions> {
    if (!this.enabled) return options;
    const key = JSON.stringify([root, Object.entries(options).sort(([a], [b]) => a.localeCompare(b))]);
    let entry = this.proxies.get(key);
    if (!entry) {
      const dialect = dialectOf(scheme, options);
      if (!dialect) return options;
      entry = { dialect, proxy: this.blockCache().then((blocks) => startReadThroughProxy(dialect, blocks, this.proxyObserver(dialect.store), requestTimeoutOf(options), pathInStore(root))) };
      this.proxies.set(key, entry);
      entry.proxy.catch(() => this.proxies.delete(key as string));
    }
    this.stores.set(root, entry.dialect.store);
    return entry.dialect.engineOptions((await entry.proxy).origin);
  }

  /** The proxy's observer for `store`: the runtime's metrics, and the meters running now. */
  private proxyObserver(store: string): ProxyObserver {
    const { observer, meters } = this;
    return {
      storeRequest(kind, objectPath) {
        observer.storeRequest(kind);
        meters.record(store, objectPath, { requests: 1 });
      },
      received(bytes, objectPath) {
        meters.record(store, objectPath, { bytes });
      },
      hit(bytes, objectPath) {
        observer.hit(bytes);
        meters.record(store, objectPath, { cacheHits: 1, cacheBytes: bytes });
      },
      miss(bytes) {
        observer.miss(bytes);
      },
    };
  }

  /**
   * Starts counting what the engine's reads of the table at `location` (a normalized object-store
   * URI below the configured `root`) cost; the returned function stops and returns the counts.
   * Undefined when the cache does not serve the root. Every read under the location counts while
   * the meter runs, whoever asked for it.
   */
  meter(root: string, location: string): (() => StoreUsage) | undefined {
    const store = this.stores.get(root);
    return store === undefined ? undefined : this.meters.start(store, pathInStore(location));
  }

  /** Stops every proxy. */
  async close(): Promise<void> {
    const proxies = [...this.proxies.values()];
    this.proxies.clear();
    await Promise.all(proxies.map(async ({ proxy }) => (await proxy.catch(() => undefined))?.close()));
  }
}
