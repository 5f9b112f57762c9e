/**
 * @module A database (tenant) as this process serves it, read from its store row: its storage
 * root resolved against the process's data location, and its settings.
 */
import { joinLocation, normalizeLocation } from "../storage/locations.js";
import type { DatabaseRow } from "../store/schema.js";
import type { DatabaseInfo } from "./catalog-scope.js";

/** The stored location of a database that has none of its own (see `DatabasesTable.storage_root`). */
export const followsDataLocation = "";

/** Where the tables of database `row` live when this process serves `dataLocation`. */
export function databaseStorageRoot(row: Pick<DatabaseRow, "name" | "storage_root">, dataLocation: string): string {
  return row.storage_root === followsDataLocation ? joinLocation(normalizeLocation(dataLocation), row.name) : row.storage_root;
}

/** Whether database `row` was created with a location of its own. */
export function hasOwnLocation(row: DatabaseRow): boolean {
  return row.storage_root !== followsDataLocation;
}

/** Database `row` as this process serves it, its location resolved against `dataLocation`. */
export function toDatabaseInfo(row: DatabaseRow, dataLocation: string): DatabaseInfo {
  return {
    name: row.name,
    storageRoot: databaseStorageRoot(row, dataLocation),
    managedVersioning: row.managed_versioning === 1,
    readConsistencyMs: row.read_consistency_ms === null || row.read_consistency_ms === undefined ? null : Number(row.read_consistency_ms),
    autoMaintenance: row.auto_maintenance === null || row.auto_maintenance === undefined ? null : Number(row.auto_maintenance) === 1,
    outsideWriters: Number(row.outside_writers ?? 0) === 1,
    properties: row.properties,
    storageOptions: row.storage_options,
  };
}
