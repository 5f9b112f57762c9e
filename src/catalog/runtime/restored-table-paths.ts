/**
 * @module The files inside tables that a restore would bring into a store, checked before any row
 * goes in. Quiver later reads, overwrites and deletes them by the paths the rows name:
 * finalizing a version copies its staged manifest to the final name and removes the staged file,
 * completing an upload reads its parts. So each path must lie strictly inside the folder of the
 * table it belongs to, in the one spelling the catalog records, and a manifest must be named as
 * the API names manifests: the final one in its branch's `_versions` folder, a staged one in a
 * `_versions` folder of the table. Pure: no storage is touched.
 */
import { isVersionsFolderManifest, versionsDirectory } from "../../engine/engine.js";
import { isPathName } from "../../model/path-names.js";
import { checkedLocation, isInsideLocation, normalizeLocation, parentLocation } from "../../storage/locations.js";
import type { LocationRefusal } from "./restored-locations.js";

/** A table, live or dropped, as a backup records it. */
export interface RestoredTable {
  /** What it is, for the operator: `table sales.orders`, `dropped table t`. */
  what: string;
  location: string;
}

/** A `table_versions` row, live or kept with a dropped table. */
export interface RestoredVersion {
  tableId: string;
  branch: string;
  version: string;
  manifestPath: string;
  stagedPath: string | null;
}

/** A staged part of a multipart upload. */
export interface RestoredPart {
  uploadId: string;
  partId: string;
  object: string;
}

/** The paths of a backup's version records and upload parts, and the tables they belong to. */
export interface RestoredTablePaths {
  /** Tables by id. */
  tables: Map<string, RestoredTable>;
  versions: RestoredVersion[];
  /** The table of each upload, by upload id. */
  uploads: Map<string, string>;
  parts: RestoredPart[];
}

/** Answers a refusal for every version record and upload part whose path the checks refuse (none: all fit). */
export function refusedTablePaths({ tables, versions, uploads, parts }: RestoredTablePaths): LocationRefusal[] {
  const refusals: LocationRefusal[] = [];
  for (const version of versions) {
    const table = tables.get(version.tableId);
    const branch = version.branch === "" ? "main" : `branch ${version.branch}`;
    const subject = `version ${version.version} of ${branch} of ${table?.what ?? `table id ${version.tableId}`}`;
    if (!table) {
      refusals.push({ subject, reason: "its table is not in the backup" });
      continue;
    }
    const finalReason = pathRefusal(table, "manifest_path", version.manifestPath) ?? finalManifestRefusal(table, version);
    if (finalReason !== undefined) refusals.push({ subject, reason: finalReason });
    if (version.stagedPath === null) continue;
    const stagedReason =
      pathRefusal(table, "staged_path", version.stagedPath) ??
      (isVersionsFolderManifest(version.stagedPath) ? undefined : `staged_path '${version.stagedPath}' does not name a manifest in a _versions folder of the table`);
    if (stagedReason !== undefined) refusals.push({ subject, reason: stagedReason });
  }
  for (const part of parts) {
    const tableId = uploads.get(part.uploadId);
    const table = tableId === undefined ? undefined : tables.get(tableId);
    const subject = `part ${part.partId} of upload ${part.uploadId}${table ? ` to ${table.what}` : ""}`;
    if (!table) {
      refusals.push({ subject, reason: tableId === undefined ? "its upload is not in the backup" : `its table (id ${tableId}) is not in the backup` });
      continue;
    }
    const reason = pathRefusal(table, "object", part.object);
    if (reason !== undefined) refusals.push({ subject, reason });
  }
  return refusals;
}

/** Why `path` may not be a file of `table`: outside its folder, or not in the one spelling the catalog records. */
function pathRefusal(table: RestoredTable, column: string, path: string): string | undefined {
  let spelled: string;
  try {
    spelled = normalizeLocation(checkedLocation(path));
  } catch (error) {
    return `${column}: ${(error as Error).message}`;
  }
  if (spelled !== path) return `${column} '${path}' is not in the one spelling the catalog records ('${spelled}')`;
  if (!isInsideLocation(normalizeLocation(table.location), path)) return `${column} '${path}' is not inside the table's location '${table.location}'`;
  return undefined;
}

/** Why a version's final manifest is not where the API puts it: its branch's `_versions` folder. */
function finalManifestRefusal(table: RestoredTable, version: RestoredVersion): string | undefined {
  // A branch name that is no valid name (one that would climb out of the table's `tree` folder) has no manifest folder.
  const branch = version.branch === "" || isPathName("branch", version.branch) ? version.branch : undefined;
  const folder = branch === undefined ? undefined : normalizeLocation(versionsDirectory(table.location, branch));
  if (folder !== undefined && parentLocation(version.manifestPath) === folder && isVersionsFolderManifest(version.manifestPath)) return undefined;
  return `manifest_path '${version.manifestPath}' does not name a manifest in the _versions folder of its branch`;
}
