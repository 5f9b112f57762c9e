/**
 * @module CompactTable, CleanupTableVersions and OptimizeTableIndices: one maintenance pass of
 * the engine on a table's main branch (src/engine/maintenance.ts), which compacts, removes old
 * versions and optimises indexes together; the three differ in the retention they give it and
 * in what they are asked for. Cleanup's retention never reaches a tagged version: the cutoff is
 * moved back to the oldest tagged version of main, the oldest version a live clone was made from,
 * or the oldest source version a materialized view last refreshed from, when that is older; a
 * table with versions committed through the catalog but not yet finalized keeps every version;
 * and the engine itself keeps every branch's base and the latest version.
 */
import { maintenanceRuns } from "../../metrics/metrics.js";
import {
  type CleanupTableVersionsRequest,
  type CompactTableRequest,
  type OptimizeTableIndicesRequest,
  type TableMaintenanceResponse,
  defaultRetentionSeconds,
} from "../../model/maintenance.js";
import type { TableRow } from "../../store/schema.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { tableLabel } from "../identifiers.js";
import { versionsRead } from "../shared-table-data.js";
import { loadTableWithData } from "../table-lookup.js";
import { recordCommittedWrite } from "../transaction-records.js";

export const maintenanceTasks = ["compact", "cleanup", "optimize_indices"] as const;
export type MaintenanceTask = (typeof maintenanceTasks)[number];

export interface MaintenanceOptions {
  /** Cleanup: versions committed longer ago than this are removed (default 7 days). */
  olderThanSeconds?: number | null;
  deleteUnverified?: boolean | null;
}

const operationNames: Record<MaintenanceTask, string> = {
  compact: "CompactTable",
  cleanup: "CleanupTableVersions",
  optimize_indices: "OptimizeTableIndices",
};

/** CompactTable: rewrites small fragments into larger ones. Throws 1, 4, 19. */
export function compactTable(scope: CatalogScope, request: WithId<CompactTableRequest>): Promise<TableMaintenanceResponse> {
  return runTableMaintenance(scope, request.id, "compact");
}

/** CleanupTableVersions: removes versions older than the retention, never a tagged one. Throws 1, 4, 19. */
export function cleanupTableVersions(scope: CatalogScope, request: WithId<CleanupTableVersionsRequest>): Promise<TableMaintenanceResponse> {
  return runTableMaintenance(scope, request.id, "cleanup", { olderThanSeconds: request.older_than_seconds, deleteUnverified: request.delete_unverified });
}

/** OptimizeTableIndices: folds new rows into the table's indexes. Throws 1, 4, 19. */
export function optimizeTableIndices(scope: CatalogScope, request: WithId<OptimizeTableIndicesRequest>): Promise<TableMaintenanceResponse> {
  return runTableMaintenance(scope, request.id, "optimize_indices");
}

/** Runs `task` on the table `id` now. Throws 1, 4, 19 (declared without data). */
export async function runTableMaintenance(scope: CatalogScope, id: readonly string[], task: MaintenanceTask, options: MaintenanceOptions = {}): Promise<TableMaintenanceResponse> {
  const subject = tableLabel(id);
  try {
    const answer = await translating(subject, async () => {
      // load
      const row = await loadTableWithData(scope, id);
      // decide: the cutoff, bounded by the oldest tagged version of main
      const cutoff = task === "cleanup" ? await cleanupCutoff(scope, row, Date.now() - 1000 * (options.olderThanSeconds ?? defaultRetentionSeconds)) : { removeBeforeMs: 0, protectedTags: [] };
      // write
      const outcome = await scope.engine.maintenance.run(row.location, cutoff.removeBeforeMs, options.deleteUnverified ?? false);
      return {
        version: outcome.version,
        fragments_before: outcome.fragmentsBefore,
        fragments_after: outcome.fragmentsAfter,
        fragments_removed: outcome.fragmentsRemoved,
        fragments_added: outcome.fragmentsAdded,
        files_removed: outcome.filesRemoved,
        files_added: outcome.filesAdded,
        versions_removed: outcome.versionsRemoved,
        bytes_removed: outcome.bytesRemoved,
        removed_before_ms: cutoff.removeBeforeMs,
        protected_tags: cutoff.protectedTags,
      };
    });
    maintenanceRuns.inc({ task, outcome: "ok" });
    // finalize
    return { ...(await recordCommittedWrite(scope, operationNames[task], id, answer.version)), ...answer };
  } catch (error) {
    maintenanceRuns.inc({ task, outcome: "error" });
    throw error;
  }
}

/** The instant before which cleanup may remove versions of a table, and the tags that moved it back. */
export interface CleanupCutoff {
  removeBeforeMs: number;
  protectedTags: string[];
}

/**
 * The instant before which versions may go: `wanted`, or the commit time of the oldest tagged
 * version of main when that is earlier (a tagged version must outlive every cleanup), of the
 * oldest version a live clone was made from (the clone reads that version's data files), or of
 * the oldest source version a materialized view last refreshed from (the view's next check
 * measures the source's drift from it). 0 (nothing goes) while a version committed through the
 * catalog waits to be finalized: its staged manifest reads data files no kept version names.
 */
export async function cleanupCutoff(scope: CatalogScope, row: Pick<TableRow, "id" | "location">, wanted: number): Promise<CleanupCutoff> {
  const { location } = row;
  if ((await scope.store.rows.listPendingTableVersions(row.id)).length > 0) return { removeBeforeMs: 0, protectedTags: [] };
  const tags = (await scope.engine.files.refs.tags(location)).filter((tag) => tag.branch === null);
  const [cloned] = await versionsRead(scope.store.rows, scope.database.name, location, "");
  const [viewed] = await scope.store.rows.listViewSourceVersions(row.id);
  if (tags.length === 0 && cloned === undefined && viewed === undefined) return { removeBeforeMs: Math.max(0, wanted), protectedTags: [] };
  const times = new Map((await scope.engine.maintenance.versionTimes(location)).map((v) => [v.version, v.timestampMs]));
  let removeBeforeMs = Math.max(0, wanted);
  for (const kept of [cloned, viewed]) {
    const keptAt = kept === undefined ? undefined : times.get(kept);
    if (keptAt !== undefined) removeBeforeMs = Math.min(removeBeforeMs, keptAt);
  }
  const protectedTags: string[] = [];
  for (const tag of tags) {
    const taggedAt = times.get(tag.version);
    if (taggedAt === undefined || taggedAt >= wanted) continue;
    protectedTags.push(tag.name);
    removeBeforeMs = Math.min(removeBeforeMs, taggedAt);
  }
  return { removeBeforeMs, protectedTags: protectedTags.sort() };
}
