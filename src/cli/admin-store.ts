/**
 * @module Opens the metadata store for the admin commands (databases, keys, clients): the
 * PostgreSQL catalog of `--store`, else the SQLite file under `--root`. They work beside running
 * servers: SQLite's WAL lets both use the file, and PostgreSQL tells every replica of a change.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { restrictMetadataFileAccess } from "./metadata-file-access.js";
import { type LocalRoot, openLocalRoot } from "../catalog/runtime/local-root.js";
import type { Store } from "../store/store.js";
import { type StorageFlags, parseStorageFlags } from "./storage-flags.js";
import { storeFlagSpec, storeSetting } from "./store-flag.js";

export interface AdminArgs {
  values: Record<string, string | string[] | boolean | undefined>;
  positionals: string[];
}

/** Parses `--root`, `--store`, `--help` and the command's own flags; positionals are the action and its object. */
export function parseAdminArgs(argv: string[], extra: Record<string, { type: "string" | "boolean"; multiple?: boolean }> = {}): AdminArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { root: { type: "string" }, ...storeFlagSpec, help: { type: "boolean", short: "h" }, ...extra },
    allowPositionals: true,
    strict: true,
  });
  return { values: values as AdminArgs["values"], positionals };
}

/**
 * The store an admin command opens: PostgreSQL at `--store` (else QUIVER_STORE), or else the
 * SQLite file of the root folder `--root` (else QUIVER_ROOT, else ./data).
 */
export function storeTargetOf(values: AdminArgs["values"]): { root: string; storeUrl: string | undefined } {
  return {
    root: path.resolve((values.root as string | undefined) ?? process.env.QUIVER_ROOT ?? "./data"),
    storeUrl: storeSetting(values.store as string | undefined, process.env),
  };
}

/**
 * Runs `fn` with the store of `storeTargetOf(values)` and the server's data location (QUIVER_DATA
 * and QUIVER_STORAGE_OPTIONS, as `quiver serve` reads them, unless `storage` says otherwise), then
 * closes it. A missing root folder is refused unless `createRoot`.
 */
export async function withStore<T>(
  values: AdminArgs["values"],
  fn: (store: Store, dataLocation: string, local: LocalRoot) => Promise<T>,
  options: { createRoot?: boolean; storage?: StorageFlags } = {},
): Promise<T> {
  const { root: dir, storeUrl } = storeTargetOf(values);
  // Only a command that creates something may create the root; a mistyped --root elsewhere is refused.
  if (storeUrl === undefined && !existsSync(dir) && !options.createRoot) throw new Error(`root folder ${dir} does not exist`);
  const storage = options.storage ?? parseStorageFlags({}, process.env);
  // Opening the root also creates the default database: admin commands may run before the server did.
  const local = await openLocalRoot(dir, { store: storeUrl, data: storage.data, storageOptions: storage.options });
  restrictMetadataFileAccess(dir);
  try {
    return await fn(local.store, local.dataLocation, local);
  } finally {
    await local.close();
  }
}

/** Prints a CatalogError-style failure and sets the exit code. */
export function fail(message: string): void {
  console.error(message);
  process.exitCode = 1;
}
