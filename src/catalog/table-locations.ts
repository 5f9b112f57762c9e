/**
 * @module Where table data lives. A table Quiver places gets `<storage root>/tables/<uuid>.lance`,
 * derived from an id that never changes, so renames never move data. A location a client
 * names (declare, register) must resolve inside the database's storage root.
 */
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { UnsafeLocation, checkedLocation, isInsideLocation, isUri, joinLocation, normalizeLocation, objectStoreSpelling, resolveLocation } from "../storage/locations.js";
import type { Storages } from "../storage/storages.js";
import { invalidInput } from "../model/catalog-error.js";
import type { DatabaseInfo } from "./catalog-scope.js";

export function newTableLocation(database: DatabaseInfo): { id: string; location: string } {
  const id = randomUUID();
  return { id, location: joinLocation(placedTablesDir(database.storageRoot), `${id}.lance`) };
}

/** The folder holding the tables Quiver places under a storage root. */
export function placedTablesDir(storageRoot: string): string {
  return joinLocation(storageRoot, "tables");
}

/** Whether `name` is a folder name `newTableLocation` gives: `<uuid>.lance`. */
export function isPlacedTableName(name: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.lance$/.test(name);
}

/**
 * Resolves a client-named location (absolute, relative to the storage root, `file://`, or a URI
 * of the root's object store) and refuses anything outside the storage root, through `..` or
 * through symbolic links.
 */
export async function resolveClientLocation(storages: Storages, database: Pick<DatabaseInfo, "storageRoot">, location: string): Promise<string> {
  const root = normalizeLocation(database.storageRoot);
  const candidate = clientLocationUnder(storages, root, location, "location");
  const resolved = resolveLocation(root, candidate);
  if (!(await liesInside(storages, root, resolved, location))) throw invalidInput(`location '${location}' is outside the database's storage root`);
  if (!resolved.endsWith(".lance")) throw invalidInput(`location '${location}' must name a directory ending in '.lance'`);
  return resolved;
}

/**
 * Whether `resolved` (normalized) lies inside `root` (normalized), both as written and with links
 * resolved, so no `..` and no link leads out of it. `location` is what the caller named, for errors.
 */
export async function liesInside(storages: Storages, root: string, resolved: string, location: string): Promise<boolean> {
  return isInsideLocation(root, resolved) && isInsideLocation(await canonicalOf(storages, root, location), await canonicalOf(storages, resolved, location));
}

/**
 * `target` with its links resolved; a path the file system cannot resolve (a link loop, a name too
 * long) is the client's mistake (13). An object-store location no root serves has no storage to
 * ask, and object stores have no links: it is its own canonical form.
 */
async function canonicalOf(storages: Storages, target: string, location: string): Promise<string> {
  if (!storages.isServed(target)) return target;
  try {
    return await storages.for(target).canonical(target);
  } catch (error) {
    throw invalidInput(`location '${location}' cannot be resolved: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * A location a client sent: a path (plain, or a `file://` URI, made a local path) or an
 * object-store URI, in its one spelling (`checkedLocation`). URIs of schemes Quiver does not
 * serve, and spellings Lance could read as another place (encoded dots or slashes, `..`
 * segments, backslashes, control characters), are refused (13).
 */
export function clientLocation(storages: Storages, text: string, field: string): string {
  let candidate = checkedClientLocation(text.trim(), field);
  if (candidate.startsWith("file://")) {
    try {
      candidate = fileURLToPath(candidate);
    } catch {
      throw invalidInput(`${field} '${text}' is not a valid file URI`);
    }
  } else if (isUri(candidate) && !storages.isServed(candidate)) {
    throw invalidInput(`${field} '${text}' is not in a storage location this deployment serves`);
  }
  return candidate;
}

/**
 * `clientLocation` of `text`, read against `root`: a path relative to an object-store root has its
 * escapes decoded as a URI's are, so both spellings of one place resolve alike.
 */
export function clientLocationUnder(storages: Storages, root: string, text: string, field: string): string {
  const candidate = clientLocation(storages, text, field);
  if (!isUri(root) || isUri(candidate)) return candidate;
  try {
    return objectStoreSpelling(candidate);
  } catch (error) {
    if (error instanceof UnsafeLocation) throw invalidInput(`${field}: ${error.message}`);
    throw error;
  }
}

/** `text` through `checkedLocation`, its refusal a client's mistake (13) naming `field`. */
export function checkedClientLocation(text: string, field: string): string {
  try {
    return checkedLocation(text);
  } catch (error) {
    if (error instanceof UnsafeLocation) throw invalidInput(`${field}: ${error.message}`);
    throw error;
  }
}
