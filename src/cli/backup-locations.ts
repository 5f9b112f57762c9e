/**
 * @module Refuses a backup whose databases or tables name a location the deployment would not let
 * them have (catalog/runtime/restored-locations.ts), before `quiver restore` touches the store:
 * a backup edited to point a table at a folder outside the data roots would otherwise let a later
 * drop delete that folder. The files the rows name inside tables (version manifests, upload
 * parts: catalog/runtime/restored-table-paths.ts) and the folders clones read are checked too.
 */
import { type DeploymentRoots, type RestoredDatabase, type RestoredLocation, refusedLocations } from "../catalog/runtime/restored-locations.js";
import { type RestoredTablePaths, type RestoredVersion, refusedTablePaths } from "../catalog/runtime/restored-table-paths.js";
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

/** What a dropped table's row keeps of the rows that went with it (`kept_records`, JSON text). */
function keptRecordsOf(value: unknown): { versions: Record<string, unknown>[]; refs: Record<string, unknown>[] } {
  try {
    const parsed = JSON.parse(String(value)) as { versions?: unknown; refs?: unknown };
    return { versions: Array.isArray(parsed.versions) ? parsed.versions : [], refs: Array.isArray(parsed.refs) ? parsed.refs : [] };
  } catch {
    return { versions: [], refs: [] };
  }
}

function versionOf(row: Record<string, unknown>): RestoredVersion {
  const staged = row.staged_path;
  return {
    tableId: String(row.table_id),
    branch: String(row.branch ?? ""),
    version: String(row.version),
    manifestPath: String(row.manifest_path),
    stagedPath: staged === null || staged === undefined ? null : String(staged),
  };
}

/**
 * Reads the databases and table folders of `source` and throws, naming every refused one and
 * why, when any fails the checks; `options` are the storage options of the data location.
 */
export async function requireServableLocations(source: SnapshotSource, roots: DeploymentRoots, options: StorageOptions): Promise<void> {
  const databases: RestoredDatabase[] = [];
  const locations: RestoredLocation[] = [];
  const paths: RestoredTablePaths = { tables: new Map(), versions: [], uploads: new Map(), parts: [] };
  // A clone's reference names the folder of the table it reads: held to the same rules as a table's own.
  const refs: Record<string, unknown>[] = [];
  for await (const { table, rows } of source.batches()) {
    if (table === "databases") {
      for (const row of rows) databases.push({ name: String(row.name), storageRoot: String(row.storage_root ?? ""), storageOptions: optionsOf(row.storage_options) });
    }
    const what = folderKeepers[table];
    if (what) for (const row of rows) locations.push({ database: String(row.database), what: what(row), location: String(row.location) });
    if (what && (table === "tables" || table === "dropped_tables")) for (const row of rows) paths.tables.set(String(row.id), { what: what(row), location: String(row.location) });
    if (table === "dropped_tables") {
      for (const row of rows) {
        const kept = keptRecordsOf(row.kept_records);
        paths.versions.push(...kept.versions.map(versionOf));
        refs.push(...kept.refs);
      }
    }
    if (table === "table_versions") paths.versions.push(...rows.map(versionOf));
    if (table === "table_data_refs") refs.push(...rows);
    if (table === "multipart_writes") for (const row of rows) paths.uploads.set(String(row.upload_id), String(row.table_id));
    if (table === "multipart_parts") for (const row of rows) paths.parts.push({ uploadId: String(row.upload_id), partId: String(row.part_id), object: String(row.object) });
  }
  for (const ref of refs) {
    const reader = paths.tables.get(String(ref.table_id))?.what ?? `table id ${String(ref.table_id)}`;
    locations.push({ database: String(ref.database), what: `folder read by ${reader}`, location: String(ref.location) });
  }
  const storages = new Storages();
  try {
    await storages.configure(normalizeLocation(roots.dataLocation), options);
    const refusals = [...(await refusedLocations(storages, roots, databases, locations)), ...refusedTablePaths(paths)];
    if (refusals.length > 0) {
      const lines = refusals.map(({ subject, reason }) => `  ${subject}: ${reason}`);
      if (refusals.some(({ subject }) => subject.startsWith("database "))) lines.push("A database's own location outside the data location is accepted when it, or a location above it, is named with --allow-root.");
      throw new Error(`the backup names locations this deployment does not let its databases and tables have; nothing was restored:\n${lines.join("\n")}`);
    }
  } finally {
    await storages.close();
  }
}
