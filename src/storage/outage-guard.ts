/**
 * @module An object store's `TableStorage` and credential minter whose failures that mean "the
 * store is down" (see `isStorageOutage`) are raised as `StorageUnavailable`, so every caller
 * above sees one error for an outage whichever SDK it came from.
 */
import type { CredentialMinter } from "./storage-backend.js";
import { StorageUnavailable, isStorageOutage } from "./storage-errors.js";
import type { TableStorage } from "./table-storage.js";

/** `error` as StorageUnavailable when it is an outage; unchanged otherwise. */
export function asStorageFailure(error: unknown, what: string): unknown {
  if (error instanceof StorageUnavailable || !isStorageOutage(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new StorageUnavailable(`the object store could not be reached (${what}): ${reason}`, { cause: error });
}

async function guarded<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asStorageFailure(error, what);
  }
}

/** `storage` with its outages raised as StorageUnavailable. */
export function guardStorage(storage: TableStorage): TableStorage {
  const copyIfAbsent = storage.copyIfAbsent?.bind(storage);
  return {
    head: (location) => guarded("head", () => storage.head(location)),
    read: (location) => guarded("read", () => storage.read(location)),
    readTail: (location, length) => guarded("read", () => storage.readTail(location, length)),
    readRange: (location, offset, length) => guarded("read", () => storage.readRange(location, offset, length)),
    list: (prefix) => guarded("list", () => storage.list(prefix)),
    put: (location, bytes) => guarded("put", () => storage.put(location, bytes)),
    putIfAbsent: (location, bytes) => guarded("put", () => storage.putIfAbsent(location, bytes)),
    ...(copyIfAbsent ? { copyIfAbsent: (source: string, location: string) => guarded("copy", () => copyIfAbsent(source, location)) } : {}),
    delete: (location) => guarded("delete", () => storage.delete(location)),
    deletePrefix: (prefix, scope) => guarded("delete", () => storage.deletePrefix(prefix, scope)),
    newestChange: (prefix) => guarded("list", () => storage.newestChange(prefix)),
    preparePrefix: (prefix) => guarded("prepare", () => storage.preparePrefix(prefix)),
    canonical: (location) => storage.canonical(location),
  };
}

/** `minter` with its outages (a credential service that cannot be reached) raised as StorageUnavailable. */
export function guardMinter(minter: CredentialMinter | undefined): CredentialMinter | undefined {
  if (!minter) return undefined;
  return {
    reachOf: (location) => guarded("reading the account's properties", () => minter.reachOf(location)),
    mint: (location, access, ttlSeconds) => guarded("minting credentials", () => minter.mint(location, access, ttlSeconds)),
  };
}
