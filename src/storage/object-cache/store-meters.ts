/**
 * @module Per-location counting of what the engine's reads cost while a meter runs: the requests
 * the read-through proxy sent to the store and the bytes they brought back, and the blocks the
 * cache answered instead. The proxy sees only object paths, not which call of the engine asked,
 * so a meter counts every read under its location while it runs: two queries on one table at
 * once each count the other's reads too.
 */

/** What the engine's reads under one location cost while a meter ran. */
export interface StoreUsage {
  /** Requests sent to the object store (reads of the proxy's own and requests passed through). */
  requests: number;
  /** Bytes of the store's answers' bodies. */
  bytes: number;
  /** Blocks answered from the cache (memory or disk) without asking the store. */
  cacheHits: number;
  /** Bytes of those blocks. */
  cacheBytes: number;
}

interface RunningMeter {
  store: string;
  /** `container-or-bucket/path/` of the location, with the trailing slash. */
  prefix: string;
  usage: StoreUsage;
}

/** The meters running now, fed by the proxies of one object cache. */
export class StoreMeters {
  private readonly running = new Set<RunningMeter>();

  /**
   * Starts counting reads of objects under `objectPrefix` (`container-or-bucket/path`) on `store`;
   * the returned function stops the meter and returns its counts.
   */
  start(store: string, objectPrefix: string): () => StoreUsage {
    const meter: RunningMeter = { store, prefix: `${objectPrefix.replace(/\/+$/, "")}/`, usage: { requests: 0, bytes: 0, cacheHits: 0, cacheBytes: 0 } };
    this.running.add(meter);
    return () => {
      this.running.delete(meter);
      return { ...meter.usage };
    };
  }

  /** Adds `change` to every running meter whose location holds `objectPath` on `store`. */
  record(store: string, objectPath: string | undefined, change: Partial<StoreUsage>): void {
    if (this.running.size === 0 || objectPath === undefined) return;
    for (const meter of this.running) {
      if (meter.store !== store || !objectPath.startsWith(meter.prefix)) continue;
      meter.usage.requests += change.requests ?? 0;
      meter.usage.bytes += change.bytes ?? 0;
      meter.usage.cacheHits += change.cacheHits ?? 0;
      meter.usage.cacheBytes += change.cacheBytes ?? 0;
    }
  }
}
