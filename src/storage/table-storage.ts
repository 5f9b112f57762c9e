/**
 * @module The storage layer: every read and write of files at table locations goes through
 * `TableStorage`, so the catalog and the engine's file-level code work the same on a local folder
 * and on an object store. Its vocabulary is an object store's (whole objects, prefixes,
 * conditional creates): a local folder can honour all of it, an object store nothing more.
 */

/** What a stored object is, as Lance's object store reports it. */
export interface ObjectInfo {
  size: number;
  /** The ETag Lance's own object store gives the object, so clients can compare them. */
  eTag: string;
  modifiedMillis: number;
}

/** An entry directly under a prefix: an object, or a prefix holding more. */
export interface ListedEntry {
  name: string;
  kind: "object" | "prefix";
  /** An object's size, where the listing says it (object stores do; a local folder's listing does not). */
  size?: number;
}

/** `{ size }` when a listing gave a usable size, else nothing: spread into a listed entry. */
export function sizeOf(size: number | undefined): { size?: number } {
  return size !== undefined && Number.isSafeInteger(size) && size >= 0 ? { size } : {};
}

export interface TableStorage {
  /** Size, ETag and time of an object; undefined when there is none at `location`. */
  head(location: string): Promise<ObjectInfo | undefined>;
  /** The whole object; undefined when there is none. */
  read(location: string): Promise<Buffer | undefined>;
  /** The last `length` bytes of an object (fewer if it is shorter); undefined when there is none. */
  readTail(location: string, length: number): Promise<Buffer | undefined>;
  /**
   * `length` bytes of an object from `offset` (fewer where it ends; `length` > 0, `offset` below
   * the object's size); undefined when there is none. How large objects are read without holding
   * them whole.
   */
  readRange(location: string, offset: number, length: number): Promise<Buffer | undefined>;
  /** Entries directly under `prefix`, in no particular order; none when nothing is there. */
  list(prefix: string): Promise<ListedEntry[]>;
  /** Writes an object whole; readers see the old object or the new one, never part of either. */
  put(location: string, bytes: Uint8Array): Promise<void>;
  /**
   * Creates an object only if none exists at `location`: of several racing writers exactly one
   * gets "created". The commit primitive; never a check followed by a write.
   */
  putIfAbsent(location: string, bytes: Uint8Array): Promise<"created" | "exists">;
  /**
   * `putIfAbsent` of the bytes of the object at `source`, without reading them through: a local
   * folder hard-links. "missing" when there is no `source`. Storages without a cheaper way leave
   * it out, and callers read and `putIfAbsent`.
   */
  copyIfAbsent?(source: string, location: string): Promise<"created" | "exists" | "missing">;
  /** Deletes an object; a missing one is fine. */
  delete(location: string): Promise<void>;
  /**
   * Deletes every object under `prefix`, which must lie strictly inside `scope` (the table,
   * database or data location it belongs to) in its one spelling, else throws
   * `DeletionOutsideScope` and deletes nothing (`assertDeletableInside`). Nothing there is fine.
   */
  deletePrefix(prefix: string, scope: string): Promise<void>;
  /** The newest modification time of anything under `prefix`, or undefined when it is empty. */
  newestChange(prefix: string): Promise<number | undefined>;
  /** Makes `prefix` ready to hold objects (a folder is created; object stores need nothing). */
  preparePrefix(prefix: string): Promise<void>;
  /**
   * `location` with every link resolved, for checking that it lies inside a root; locations
   * that do not exist yet resolve through their nearest existing ancestor.
   */
  canonical(location: string): Promise<string>;
}
