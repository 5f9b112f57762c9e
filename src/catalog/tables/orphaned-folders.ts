/**
 * @module Reclaims table folders that no catalog row refers to. A create writes data before its
 * row and a drop deletes its row before the data, so a crash between the two steps leaves a
 * folder that nothing will ever read or delete. Only folders in Quiver's own layout
 * (`<storage root>/tables/<uuid>.lance`) are considered, and a folder is kept when:
 * - a table row's location is that folder or lies inside it (live, declared, registered tables);
 * - it is a dropped table's folder kept for the clones that still read it, or for an undrop;
 * - it holds the properties a deregistered table keeps beside its files (kept by design);
 * - anything in it changed within the grace period (a create still writing, perhaps in another
 *   process sharing the root, whose row is yet to come).
 * Whatever else records a folder as in use must do so with a table row (a dropped table's data
 * kept for its clones keeps its row), since a row is all the sweep consults.
 */
import type { Engine } from "../../engine/engine.js";
import { joinLocation, normalizeLocation } from "../../storage/locations.js";
import type { Storages } from "../../storage/storages.js";
import type { Store } from "../../store/store.js";
import { databaseStorageRoot } from "../database-info.js";
import { keptDropLocations } from "./dropped-tables.js";
import { isPlacedTableName, placedTablesDir } from "../table-locations.js";

/** Default grace period: far longer than any create takes between writing data and its row. */
export const defaultOrphanGraceMs = 60 * 60 * 1000;

export interface OrphanSweepOptions {
  /** Folders changed more recently than this are kept. */
  graceMs: number;
  /** The data location of this process, under which databases without a location of their own live. */
  dataLocation: string;
  /** Called for a folder that could not be removed; the sweep goes on. */
  onError?: (location: string, error: unknown) => void;
}

/** Removes every orphaned table folder of every database; answers the folders removed. */
export async function sweepOrphanedTableFolders(store: Store, engine: Engine, options: OrphanSweepOptions): Promise<string[]> {
  const removed: string[] = [];
  const databases = await store.rows.listDatabases();
  const referenced = new Set<string>();
  for (const database of databases) {
    for (const row of await store.rows.listAllTables(database.name)) referenced.add(normalizeLocation(row.location));
    // A table dropped under a drop retention keeps its folder for an undrop until its purge.
    for (const location of await keptDropLocations(store, database.name)) referenced.add(normalizeLocation(location));
    // A dropped table's folder that clones still read is kept until the last of them goes; one no
    // clone reads any more (its release interrupted) is swept like any other.
    for (const row of await store.rows.listRetainedData(database.name)) {
      if ((await store.rows.listDataRefsTo(database.name, row.location)).length > 0) referenced.add(normalizeLocation(row.location));
    }
  }
  for (const database of databases) {
    let folders: string[];
    const storageRoot = databaseStorageRoot(database, options.dataLocation);
    try {
      folders = await placedFolders(engine.storages, storageRoot);
    } catch (error) {
      options.onError?.(placedTablesDir(storageRoot), error);
      continue;
    }
    for (const location of folders) {
      if (referenced.has(location)) continue;
      try {
        if (await engine.files.properties.has(location)) continue;
        const changed = await engine.storages.for(location).newestChange(location);
        if (changed === undefined || Date.now() - changed < options.graceMs) continue;
        // Read the rows again just before deleting: a create may have committed its row since.
        const claimed = (await store.rows.findTableByLocation(database.name, location)) ?? (await store.rows.findTableBelowLocation(database.name, location));
        if (claimed) continue;
        await engine.removeTableData(location, storageRoot);
        removed.push(location);
      } catch (error) {
        options.onError?.(location, error);
      }
    }
  }
  return removed;
}

/** The folders (not links) named like placed tables under the storage root. */
async function placedFolders(storages: Storages, storageRoot: string): Promise<string[]> {
  const dir = normalizeLocation(placedTablesDir(storageRoot));
  const entries = await storages.for(dir).list(dir);
  return entries.filter((entry) => entry.kind === "prefix" && isPlacedTableName(entry.name)).map((entry) => joinLocation(dir, entry.name));
}
