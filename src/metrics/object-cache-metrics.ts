/**
 * @module The object cache's metrics: its hits, misses, bytes and evictions, and the requests the
 * engine's reads make to object stores through it, by the kind of object they read. Every series
 * starts at zero, so a rate is defined from the first scrape.
 */
import { counter } from "./metric-families.js";

/** The kinds of store request counted (the cache's own names for them). */
const requestKinds = ["data", "index", "manifest", "listing", "other"] as const;

export const objectCacheHits = counter("quiver_object_cache_hits_total", "Blocks of object-store objects answered from the local object cache");
export const objectCacheMisses = counter("quiver_object_cache_misses_total", "Blocks of object-store objects the local object cache fetched from the store");
export const objectCacheBytes = counter("quiver_object_cache_bytes_total", "Bytes of cacheable object reads, by source: cache (answered from disk) or store (fetched)", ["source"]);
export const objectCacheEvictions = counter("quiver_object_cache_evictions_total", "Blocks evicted from the local object cache to stay under its size bound");
export const objectStoreRequests = counter("quiver_object_store_requests_total", "Requests the engine's reads and writes sent to object stores through the object cache, by kind: data, index, manifest, listing, other", ["kind"]);

for (const kind of requestKinds) objectStoreRequests.inc({ kind }, 0);
objectCacheBytes.inc({ source: "cache" }, 0);
objectCacheBytes.inc({ source: "store" }, 0);

/** The cache's observer that counts into these metrics. */
export const objectCacheObserver = {
  storeRequest(kind: string): void {
    objectStoreRequests.inc({ kind });
  },
  hit(bytes: number): void {
    objectCacheHits.inc();
    objectCacheBytes.inc({ source: "cache" }, bytes);
  },
  miss(bytes: number): void {
    objectCacheMisses.inc();
    objectCacheBytes.inc({ source: "store" }, bytes);
  },
  evicted(blocks: number): void {
    objectCacheEvictions.inc(blocks);
  },
};
