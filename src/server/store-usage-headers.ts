/**
 * @module The response headers that tell a client what its query cost on the object store:
 * requests sent to the store and their bytes, and blocks the object cache answered instead.
 * Counted per table location while the query ran (see docs/object-cache.md): a query running
 * alongside another on the same table also counts the other's reads.
 */

/** What a query's reads cost, as the engine's meter counted it. */
export interface QueryStoreUsage {
  requests: number;
  bytes: number;
  cacheHits: number;
  cacheBytes: number;
}

/** Header names, each a decimal count. */
export const storeUsageHeaderNames = {
  requests: "x-quiver-store-requests",
  bytes: "x-quiver-store-bytes",
  cacheHits: "x-quiver-cache-hits",
  cacheBytes: "x-quiver-cache-bytes",
} as const;

export function storeUsageHeaders(usage: QueryStoreUsage): Record<string, string> {
  return {
    [storeUsageHeaderNames.requests]: String(usage.requests),
    [storeUsageHeaderNames.bytes]: String(usage.bytes),
    [storeUsageHeaderNames.cacheHits]: String(usage.cacheHits),
    [storeUsageHeaderNames.cacheBytes]: String(usage.cacheBytes),
  };
}
