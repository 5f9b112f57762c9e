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
import { type ReadThroughProxy, startReadThroughProxy } from "./read-through-proxy.js";
import { S3Dialect } from "./s3-dialect.js";
import type { StoreDialect } from "./store-dialect.js";

/** Where and how large the cache is. */
export interface ObjectCacheSettings {
  /** The folder holding the blocks; kept across restarts. */
  dir: string;
  /** The bound on the blocks' bytes on disk; 0 turns the cache off. */
  maxBytes: number;
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

export class ObjectCache {
  private blocks: Promise<BlockCache> | undefined;
  /** Proxies by root and options: a root configured again with the same options keeps its proxy. */
  private readonly proxies = new Map<string, { proxy: Promise<ReadThroughProxy>; dialect: StoreDialect }>();

  constructor(
    readonly settings: ObjectCacheSettings,
    private readonly observer: ObjectCacheObserver = silent,
  ) {}

  /** Whether the cache is on (a positive bound). */
  get enabled(): boolean {
    return this.settings.maxBytes > 0;
  }

  /** The block cache, opened (its index rebuilt from disk) when the first root needs it. */
  blockCache(): Promise<BlockCache> {
    this.blocks ??= BlockCache.open(this.settings.dir, this.settings.maxBytes, this.settings.blockSize ?? defaultBlockSize, this.observer);
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
      entry = { dialect, proxy: this.blockCache().then((blocks) => startReadThroughProxy(dialect, blocks, this.observer, requestTimeoutOf(options))) };
      this.proxies.set(key, entry);
      entry.proxy.catch(() => this.proxies.delete(key as string));
    }
    return entry.dialect.engineOptions((await entry.proxy).origin);
  }

  /** Stops every proxy. */
  async close(): Promise<void> {
    const proxies = [...this.proxies.values()];
    this.proxies.clear();
    await Promise.all(proxies.map(async ({ proxy }) => (await proxy.catch(() => undefined))?.close()));
  }
}
