/**
 * @module Refuses a backup whose databases or tables name a location the deployment would not let
 * them have (catalog/runtime/restored-locations.ts), before `quiver restore` touches the store:
 * a backup edited to point a table at a folder outside the data roots would otherwise let a later
 * drop delete that folder.
 */
import { type DeploymentRoots, type RestoredDatabase, type RestoredLocation, refusedLocations } from "../catalog/runtime/restored-locations.js";
import { normalizeLocation } from "../storage/locations.js";
import type { StorageOptions } from "../storage/storage-options.js";
import { Storages } from "../storage/storages.js";
import type { SnapshotSource } from "../store/snapshot/load-snapshot.js";

/** The store's tables whose rows name a folder of table data, and what each row is. */
const folderKeepers: Record<string, (row: Record<string, unknown>) => string> = {
  tables: (row) => `table ${tableName(row)}`,
  dropped_tables: (row) => `dropped table ${tableName(row)}`,
  retained_table_data: () => "kept folder of a dropped table",
};

function tableName(row: Record<string, unknown>): string {
  return [...String(row.namespace_path ?? "").split("/").filter((part) => part !== ""), String(row.name)].join(".");
}

/** A `storage_options` column as a map: JSON text in the file; absent in backups older than the column. */
function optionsOf(value: unknown): StorageOptions {
  if (typeof value !== "string") return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === "object" ? (parsed as StorageOptions) : {};
  } catch {
    return {};
  }
}

/**
 * Reads the databases and table folders of `source` and throws, naming every refused one and
 * why, when any fails the checks; `options` are the storage options of the data location.
 */
export async function requireServableLocations(source: SnapshotSource, roots: DeploymentRoots, options: StorageOptions): Promise<void> {
  const databases: RestoredDatabase[] = [];
  const locations: RestoredLocation[] = [];
  for await (const { table, rows } of source.batches()) {
    if (table === "databases") {
      for (const row of rows) databases.push({ name: String(row.name), storageRoot: String(row.storage_root ?? ""), storageOptions: optionsOf(row.storage_options) });
    }
    const what = folderKeepers[table];
    if (what) for (const row of rows) locations.push({ database: String(row.database), what: what(row), location: String(row.location) });
  }
  const storages = new Storages();
  try {
    await storages.configure(normalizeLocation(roots.dataLocation), options);
    const refusals = await refusedLocations(storages, roots, databases, locations);
    if (refusals.length > 0) {
      const lines = refusals.map(({ subject, reason }) => `  ${subject}: ${reason}`);
      if (refusals.some(({ subject }) => subject.startsWith("database "))) lines.push("A database's own location outside the data location is accepted when it, or a location above it, is named with --allow-root.");
      throw new Error(`the backup names locations this deployment does not let its databases and tables have; nothing was restored:\n${lines.join("\n")}`);
    }
  } finally {
    await storages.close();
  }
}
