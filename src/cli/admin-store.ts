/**
 * @module Opens the metadata store under `--root` for the admin commands (databases, keys,
 * clients). They work beside a running server: SQLite's WAL lets both use the file.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { restrictMetadataFileAccess } from "./metadata-file-access.js";
import { openLocalRoot } from "../catalog/local-root.js";
import type { Store } from "../store/store.js";
import { parseStorageFlags } from "./storage-flags.js";

export interface AdminArgs {
  values: Record<string, string | string[] | boolean | undefined>;
  positionals: string[];
}

/** Parses `--root`, `--help` and the command's own flags; positionals are the action and its object. */
export function parseAdminArgs(argv: string[], extra: Record<string, { type: "string" | "boolean"; multiple?: boolean }> = {}): AdminArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { root: { type: "string" }, help: { type: "boolean", short: "h" }, ...extra },
    allowPositionals: true,
    strict: true,
  });
  return { values: values as AdminArgs["values"], positionals };
}

/**
 * Runs `fn` with the store of `root` (flag, else QUIVER_ROOT, else ./data) and the server's data
 * location (QUIVER_DATA and QUIVER_STORAGE_OPTIONS, as `quiver serve` reads them), then closes it.
 */
export async function withStore<T>(root: string | undefined, fn: (store: Store, dataLocation: string) => Promise<T>): Promise<T> {
  const dir = path.resolve(root ?? process.env.QUIVER_ROOT ?? "./data");
  if (!existsSync(dir)) throw new Error(`root folder ${dir} does not exist`);
  const storage = parseStorageFlags({}, process.env);
  // Opening the root also creates the default database: admin commands may run before the server did.
  const local = await openLocalRoot(dir, { data: storage.data, storageOptions: storage.options });
  restrictMetadataFileAccess(dir);
  try {
    return await fn(local.store, local.dataLocation);
  } finally {
    await local.close();
  }
}

/** Prints a CatalogError-style failure and sets the exit code. */
export function fail(message: string): void {
  console.error(message);
  process.exitCode = 1;
}
