/**
 * @module What a request to an object store reads, by the name of the object it names: the kinds
 * the read-through cache may keep (objects Lance writes once under a name it never reuses) and
 * everything else, which always goes to the store.
 */

/** The kinds of store request the cache counts; deletion and transaction files count as `data`. */
export type RequestKind = "data" | "index" | "manifest" | "listing" | "other";

/**
 * The kind of the object at `key` (a path inside a table's folder, or any object name). Data,
 * deletion, transaction and index files carry a fresh unique name per write; a version manifest
 * (`_versions/<n>.manifest`) is written once, but a dropped and recreated table may write the
 * same name again, so the cache checks it against the store on every read (see the proxy).
 * `_latest.manifest`, version hints and anything else a writer may replace are `other`.
 */
export function objectKindOf(key: string): RequestKind {
  if (/(^|\/)data\/[^/]+\.lance$/.test(key)) return "data";
  if (/(^|\/)_deletions\/[^/]+$/.test(key)) return "data";
  if (/(^|\/)_transactions\/[^/]+\.txn$/.test(key)) return "data";
  if (/(^|\/)_indices\/.+[^/]$/.test(key)) return "index";
  if (/(^|\/)_versions\/\d+\.manifest$/.test(key)) return "manifest";
  return "other";
}

/** Whether objects of `kind` may be kept by the cache. */
export function isCacheable(kind: RequestKind): boolean {
  return kind === "data" || kind === "index" || kind === "manifest";
}
