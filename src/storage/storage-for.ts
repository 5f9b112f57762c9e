/**
 * @module Which `TableStorage` serves a location, and how locations are joined. A location is a
 * local path today; object-store URIs (`s3://`, `az://`, `gs://`) join with `/` like paths do.
 */
import path from "node:path";
import { LocalStorage } from "./local-storage.js";
import type { TableStorage } from "./table-storage.js";

const local = new LocalStorage();

/** Whether `location` is a URI with a scheme rather than a local path. */
export function isUri(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location);
}

/** The storage holding `location`. */
export function storageFor(location: string): TableStorage {
  if (isUri(location)) throw new Error(`no storage serves '${location}'`);
  return local;
}

/** `location` with `parts` appended, in the location's own syntax. */
export function joinLocation(location: string, ...parts: string[]): string {
  return isUri(location) ? [location.replace(/\/+$/, ""), ...parts].join("/") : path.join(location, ...parts);
}

/** One spelling per location, so two spellings of the same place compare equal. */
export function normalizeLocation(location: string): string {
  return isUri(location) ? location.replace(/\/+$/, "") : path.resolve(location);
}
