/**
 * @module What maintenance a table's state calls for, read cheaply: the fragment statistics of
 * its latest version (one manifest read), the statistics of each index, and, for retention, the
 * commit times of its versions against the cutoff cleanup would use (so versions a tag, a clone,
 * a view or a pending commit keeps never make cleanup due).
 */
import type { TableRow } from "../../store/schema.js";
import type { CatalogScope } from "../catalog-scope.js";
import { readRefOf } from "../table-heads.js";
import { cleanupCutoff } from "./table-maintenance.js";

/** When each task is due. */
export interface MaintenanceThresholds {
  /** Fragments below the target size that make compaction due. */
  smallFragments: number;
  /** Share of rows deleted (0–1) that makes compaction due. */
  deletedShare: number;
  /** Versions older than this are due for cleanup. */
  retentionMs: number;
}

/** What makes compaction due when the server says nothing else: 8 small fragments, 10% of rows deleted. */
export const defaultCompactionThresholds = { smallFragments: 8, deletedShare: 0.1 } as const;

/** The tasks due, each with its reason, and the state they were read from. */
export interface MaintenanceNeeds {
  version: number;
  fragments: number;
  due: { compact?: string; optimize_indices?: string; cleanup?: string };
}

/** Reads the state of table `row`'s main branch and says which tasks are due at `now`. */
export async function maintenanceNeeds(scope: CatalogScope, row: TableRow, thresholds: MaintenanceThresholds, now: number): Promise<MaintenanceNeeds> {
  const ref = readRefOf(scope, row);
  const described = await scope.engine.describeTable(row.location, ref);
  const stats = await scope.engine.query.statistics(row.location, ref);
  const due: MaintenanceNeeds["due"] = {};

  const small = stats.fragmentStats.numSmallFragments;
  // The binding gives fragment lengths only as a distribution: mean × count is the physical total.
  const physical = Math.round(stats.fragmentStats.lengths.mean * stats.fragmentStats.numFragments);
  const deleted = Math.max(0, physical - stats.numRows);
  if (thresholds.smallFragments > 0 && small >= thresholds.smallFragments) due.compact = `${small} small fragments (threshold ${thresholds.smallFragments})`;
  else if (physical > 0 && deleted / physical >= thresholds.deletedShare) due.compact = `${deleted} of ${physical} rows deleted (threshold ${Math.round(thresholds.deletedShare * 100)}%)`;

  const unindexed = await unindexedRows(scope, row.location, ref);
  if (unindexed > 0) due.optimize_indices = `${unindexed} rows outside an index`;

  const wanted = now - thresholds.retentionMs;
  const cutoff = await cleanupCutoff(scope, row, wanted);
  if (cutoff.removeBeforeMs > 0) {
    const versions = await scope.engine.maintenance.versionTimes(row.location);
    const latest = Math.max(...versions.map((v) => v.version));
    const old = versions.filter((v) => v.version !== latest && v.timestampMs < cutoff.removeBeforeMs).length;
    if (old > 0) due.cleanup = `${old} versions older than the retention`;
  }
  return { version: described.version, fragments: stats.fragmentStats.numFragments, due };
}

/** Rows of the table that the index furthest behind does not cover. */
async function unindexedRows(scope: CatalogScope, location: string, ref: ReturnType<typeof readRefOf>): Promise<number> {
  let most = 0;
  for (const index of await scope.engine.indexes.list(location, ref)) {
    const stats = await scope.engine.indexes.statistics(location, ref, index.name).catch(() => undefined);
    most = Math.max(most, stats?.numUnindexedRows ?? 0);
  }
  return most;
}
