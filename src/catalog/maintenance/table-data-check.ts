/**
 * @module Checks that the data the catalog points at is still in storage: for every table, a
 * Lance dataset at its location and, where the catalog records versions (managed versioning),
 * the manifest of the newest recorded version of its main branch. Run after a restore, it tells
 * whether the restored catalog and the storage it now serves agree.
 */
import type { Engine } from "../../engine/engine.js";
import type { Store } from "../../store/store.js";
import type { TableRow } from "../../store/schema.js";

/** A table whose data the check did not find. */
export interface MissingTableData {
  database: string;
  /** The table's id: its namespace path, then its name. */
  id: string[];
  location: string;
  reason: string;
}

export interface TableDataReport {
  /** Tables looked at. */
  checked: number;
  missing: MissingTableData[];
}

/** Looks at every table of every database; `onMissing` hears of each gap as it is found. */
export async function checkTableData(store: Store, engine: Engine, onMissing: (gap: MissingTableData) => void = () => undefined): Promise<TableDataReport> {
  const report: TableDataReport = { checked: 0, missing: [] };
  for (const database of await store.rows.listDatabases()) {
    for (const row of await store.rows.listAllTables(database.name)) {
      report.checked += 1;
      const reason = await missingData(store, engine, row);
      if (reason === undefined) continue;
      const gap = { database: database.name, id: [...(row.namespace_path === "" ? [] : row.namespace_path.split("/")), row.name], location: row.location, reason };
      report.missing.push(gap);
      onMissing(gap);
    }
  }
  return report;
}

/** Why the table's data is not all there, or undefined when it is. */
async function missingData(store: Store, engine: Engine, row: TableRow): Promise<string | undefined> {
  try {
    if (!(await engine.datasetExists(row.location))) {
      // DeclareTable writes nothing, so a declared table no one has filled looks the same.
      return "no Lance dataset at the location (its data is gone, or the table was declared and never written)";
    }
    const newest = (await store.rows.listTableVersions(row.id, "")).at(-1);
    if (newest === undefined) return undefined;
    // A version awaiting finalizing has its manifest at the staged name; either place will do.
    for (const manifest of [newest.manifest_path, newest.staged_path]) {
      if (manifest && (await engine.files.manifests.stat(manifest)) !== undefined) return undefined;
    }
    return `the manifest of version ${newest.version}, the newest the catalog records, is missing (${newest.manifest_path})`;
  } catch (error) {
    return `storage could not be read: ${error instanceof Error ? error.message : String(error)}`;
  }
}
