/**
 * @module The response headers that tell a client what its query cost on the object store:
 * requests sent to the store and their bytes, blocks the object cache answered instead, and
 * whether a local copy of the table answered (`x-quiver-read-from: local-copy`).
 * Counted per table location while the query ran (see docs/object-cache.md): a query running
 * alongside another on the same table also counts the other's reads.
 */
import type { AnswerOf } from "../catalog/catalog-operations.js";

/** What a query's reads cost, as the engine's meter counted it. */
type QueryStoreUsage = NonNullable<AnswerOf<"queryTable">["storeUsage"]>;

/** Each count under its header name, as a decimal number. */
export function storeUsageHeaders(usage: QueryStoreUsage): Record<string, string> {
  return {
    "x-quiver-store-requests": String(usage.requests),
    "x-quiver-store-bytes": String(usage.bytes),
    "x-quiver-cache-hits": String(usage.cacheHits),
    "x-quiver-cache-bytes": String(usage.cacheBytes),
    "x-quiver-read-from": usage.readFrom,
  };
}
