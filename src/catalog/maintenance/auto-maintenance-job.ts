/**
 * @module Automatic maintenance of one table (docs/maintenance.md): `autoMaintainTable` looks at
 * a table's state and, when a task is due, queues an `auto_maintenance` job, at most one queued
 * or running per table (checked again under the table's row lock, so two replicas queue one).
 * The job runs the engine's one maintenance pass, which compacts, folds new rows into indexes and,
 * when cleanup is due, removes versions older than the retention that nothing keeps. It is an
 * ordinary job: visible in the jobs listing, run with the job system's bounded concurrency.
 *
 * Writers come first: the pass retries its commit against concurrent writes (the engine's commit
 * retry), and a pass that still meets one gives up quietly; the next look queues it again.
 */
import { autoMaintenanceRuns } from "../../metrics/metrics.js";
import { CatalogError } from "../../model/catalog-error.js";
import { ErrorCode } from "../../model/error-codes.js";
import type { TableRow } from "../../store/schema.js";
import type { CatalogScope } from "../catalog-scope.js";
import { namespaceIdOfKey, tableLabel } from "../identifiers.js";
import { type JobHandler, PermanentJobError } from "../jobs/job-handler.js";
import { enqueueJob, resolvePool } from "../jobs/job-queue.js";
import { type MaintenanceNeeds, type MaintenanceThresholds, maintenanceNeeds } from "./maintenance-needs.js";
import { runTableMaintenance } from "./table-maintenance.js";

export const autoMaintenanceJobKind = "auto_maintenance";

type DueTasks = MaintenanceNeeds["due"];

interface AutoMaintenanceParams {
  table: string[];
  /** Each due task with its reason. */
  due: DueTasks;
  /** Cleanup's retention; null when cleanup was not due (no version is removed then). */
  older_than_seconds: number | null;
  fragments: number;
  version: number;
}

export type AutoMaintenanceOutcome = { action: "queued"; jobId: string; due: DueTasks } | { action: "skipped"; reason: "pending" | "nothing-due" | "no-data" };

/**
 * Queues an `auto_maintenance` job on table `row` when its state calls for one and none is
 * queued or running; `row` is the caller's: whether maintenance applies is decided before.
 */
export async function autoMaintainTable(scope: CatalogScope, row: TableRow, thresholds: MaintenanceThresholds, now = Date.now()): Promise<AutoMaintenanceOutcome> {
  // decide: the cheap store check first, the table's state next
  if (await scope.store.rows.findActiveJobOn(row.id, autoMaintenanceJobKind)) return { action: "skipped", reason: "pending" };
  if (!(await scope.engine.datasetExists(row.location))) return { action: "skipped", reason: "no-data" };
  const needs = await maintenanceNeeds(scope, row, thresholds, now);
  if (Object.keys(needs.due).length === 0) return { action: "skipped", reason: "nothing-due" };

  // write: the pending check again, under the table's row lock
  const id = [...namespaceIdOfKey(row.namespace_path), row.name];
  const params: AutoMaintenanceParams = {
    table: id,
    due: needs.due,
    older_than_seconds: needs.due.cleanup ? Math.floor(thresholds.retentionMs / 1000) : null,
    fragments: needs.fragments,
    version: needs.version,
  };
  const jobId = await scope.store.transaction(async (tx) => {
    if (!(await tx.lockTableRow(row.id))) return undefined;
    if (await tx.findActiveJobOn(row.id, autoMaintenanceJobKind)) return undefined;
    const jobId = await enqueueJob(tx, scope.database.name, { kind: autoMaintenanceJobKind, target: row.id, targetName: row.name, params: { ...params }, pool: resolvePool(scope, null) });
    const message = Object.entries(needs.due).map(([task, reason]) => `${task}: ${reason}`).join("; ");
    await tx.insertJobEvent({ job_id: jobId, at: Date.now(), state: "auto_maintenance", emitted_by: "catalog", claim_entity: null, rows_processed: null, message });
    return jobId;
  });
  return jobId ? { action: "queued", jobId, due: needs.due } : { action: "skipped", reason: "pending" };
}

export const autoMaintenanceHandler: JobHandler = {
  async run(ctx) {
    const params = ctx.job.params as unknown as AutoMaintenanceParams;
    const table = await ctx.scope.store.rows.findTableById(ctx.job.target);
    if (!table) throw new PermanentJobError(`the table '${ctx.job.target_name}' was dropped`, "load");
    const id = [...namespaceIdOfKey(table.namespace_path), table.name];
    const tasks = Object.keys(params.due);
    ctx.checkpoint();
    await ctx.event("maintenance", { message: `automatic ${tasks.join(", ")} of ${tableLabel(id)}` });
    // One engine pass does every task; the retention is given only when cleanup is due.
    const task = params.older_than_seconds !== null ? "cleanup" : params.due.compact ? "compact" : "optimize_indices";
    try {
      const answer = await runTableMaintenance(ctx.scope, id, task, { olderThanSeconds: params.older_than_seconds });
      for (const due of tasks) autoMaintenanceRuns.inc({ task: due, outcome: "ok" });
      await ctx.setProgress({ itemsTotal: 1, itemsDone: 1 });
      return { tasks, due: params.due, ...answer };
    } catch (error) {
      // A write that kept winning the race: maintenance yields, and the next look decides again.
      if (error instanceof CatalogError && error.code === ErrorCode.ConcurrentModification) {
        for (const due of tasks) autoMaintenanceRuns.inc({ task: due, outcome: "conflict" });
        return { tasks, due: params.due, outcome: "yielded to concurrent writes", error: error.message };
      }
      for (const due of tasks) autoMaintenanceRuns.inc({ task: due, outcome: "error" });
      throw error;
    }
  },
};
