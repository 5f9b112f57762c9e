/**
 * @module Which `TableStorage` serves a location, with which storage options, and how locations
 * are joined. A location is a local path or an object-store URI (`az://container/path`); URIs
 * join with `/` like paths do. An object-store root is configured once with Lance's own storage
 * keys, and every location below it is served with them, by Quiver and by the engine alike.
 */
import path from "node:path";
import { AzureStorage } from "./azure/azure-storage.js";
import { LocalStorage } from "./local/local-storage.js";
import type { TableStorage } from "./table-storage.js";

import type { StorageOptions } from "./storage-options.js";

export type { StorageOptions };

const local = new LocalStorage();

interface ConfiguredRoot {
  root: string;
  options: StorageOptions;
  storage: TableStorage;
}

/** Object-store roots, longest first, so the most specific configuration wins. */
let configuredRoots: ConfiguredRoot[] = [];

/** Builds the backend of an object-store scheme; throws for a scheme Quiver cannot serve. */
function objectStorageOf(root: string, options: StorageOptions): TableStorage {
  if (root.startsWith("az://")) return new AzureStorage(options);
  throw new Error(`'${root}' uses a storage scheme Quiver cannot serve; use a local folder or az://`);
}

/**
 * Serves every location under the object-store `root` with `options` from now on (a later call
 * for the same root replaces them). Local folders need no configuration.
 */
export function configureStorage(root: string, options: StorageOptions): void {
  if (!isUri(root)) return;
  const normalized = normalizeLocation(root);
  const storage = objectStorageOf(normalized, options);
  configuredRoots = [...configuredRoots.filter((entry) => entry.root !== normalized), { root: normalized, options, storage }].sort(
    (a, b) => b.root.length - a.root.length,
  );
}

function configuredRootOf(location: string): ConfiguredRoot {
  const normalized = normalizeLocation(location);
  const entry = configuredRoots.find(({ root }) => normalized === root || normalized.startsWith(`${root}/`));
  if (!entry) throw new Error(`no storage is configured for '${location}'`);
  return entry;
}

/** Whether `location` is a URI with a scheme rather than a local path. */
export function isUri(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location);
}

/** The storage holding `location`. */
export function storageFor(location: string): TableStorage {
  return isUri(location) ? configuredRootOf(location).storage : local;
}

/** The storage options Lance needs to open `location` (none for a local folder). */
export function storageOptionsFor(location: string): StorageOptions {
  return isUri(location) ? configuredRootOf(location).options : {};
}

/** `location` with `parts` appended, in the location's own syntax. */
export function joinLocation(location: string, ...parts: string[]): string {
  return isUri(location) ? [location.replace(/\/+$/, ""), ...parts].join("/") : path.join(location, ...parts);
}

/** One spelling per location, so two spellings of the same place compare equal. */
export function normalizeLocation(location: string): string {
  return isUri(location) ? location.replace(/\/+$/, "") : path.resolve(location);
}
