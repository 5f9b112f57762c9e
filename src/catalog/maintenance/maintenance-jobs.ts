/**
 * @module Table maintenance as jobs. `table_maintenance` runs one task once (a request with
 * `wait: false`); `scheduled_maintenance` is a table's schedule: a job due at its next run that,
 * once it has run compaction, cleanup and index optimisation, queues its successor one interval
 * later. The schedule is thus an ordinary durable job: it survives restarts, any replica's worker
 * runs it, and setting a new schedule or removing it cancels the queued run.
 *
 * Maintenance is idempotent (a second pass over a compacted table changes nothing), so a run
 * resumed after its lease expired just runs again. A scheduled run queues its successor only
 * while it is still the table's newest schedule job, so a resumed run never doubles the schedule.
 */
import type { SetTableMaintenanceScheduleRequest, TableMaintenanceSchedule } from "../../model/maintenance.js";
import type { JobRow } from "../../store/job-schema.js";
import type { CatalogScope } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { tableLabel, namespaceIdOfKey } from "../identifiers.js";
import { type JobContext, type JobHandler, PermanentJobError } from "../jobs/job-handler.js";
import { enqueueJob, resolvePool } from "../jobs/job-queue.js";
import { loadTable, loadTableWithData } from "../table-lookup.js";
import { describeAutoMaintenancePolicy } from "./auto-maintenance-status.js";
import { type MaintenanceOptions, type MaintenanceTask, runTableMaintenance } from "./table-maintenance.js";

export const tableMaintenanceJobKind = "table_maintenance";
export const scheduledMaintenanceJobKind = "scheduled_maintenance";

interface TableMaintenanceParams {
  /** The table's identifier when queued; the job follows the table by its immutable id. */
  table: string[];
  task: MaintenanceTask;
  older_than_seconds: number | null;
  delete_unverified: boolean;
}

interface ScheduledMaintenanceParams {
  table: string[];
  interval_seconds: number;
  older_than_seconds: number | null;
}

/** Queues `task` on the table as a job; checks first what can be checked now (1, 4, 19). */
export async function queueTableMaintenance(scope: CatalogScope, id: readonly string[], task: MaintenanceTask, options: MaintenanceOptions = {}): Promise<{ job_id: string }> {
  const pool = resolvePool(scope, null);
  return translating(tableLabel(id), async () => {
    const row = await loadTableWithData(scope, id);
    const params: TableMaintenanceParams = { table: [...id], task, older_than_seconds: options.olderThanSeconds ?? null, delete_unverified: options.deleteUnverified ?? false };
    const jobId = await scope.store.transaction((tx) =>
      enqueueJob(tx, scope.database.name, { kind: tableMaintenanceJobKind, target: row.id, targetName: row.name, params: { ...params }, pool }),
    );
    return { job_id: jobId };
  });
}

/**
 * SetTableMaintenanceSchedule: replaces the table's schedule (its queued run is cancelled) with
 * one whose first run is due after `first_run_in_seconds` (default one interval), or removes it
 * (`interval_seconds: null`).
 * Throws 1, 4.
 */
export async function setTableMaintenanceSchedule(scope: CatalogScope, request: SetTableMaintenanceScheduleRequest & { id: string[] }): Promise<TableMaintenanceSchedule> {
  const pool = resolvePool(scope, null);
  return translating(tableLabel(request.id), async () => {
    const row = await loadTable(scope, request.id);
    await scope.store.transaction(async (tx) => {
      const current = await tx.findActiveJobOn(row.id, scheduledMaintenanceJobKind);
      if (current) await tx.requestJobCancel(scope.database.name, current.id, Date.now());
      if (request.interval_seconds === null) return;
      const params: ScheduledMaintenanceParams = { table: request.id, interval_seconds: request.interval_seconds, older_than_seconds: request.older_than_seconds ?? null };
      await enqueueJob(tx, scope.database.name, {
        kind: scheduledMaintenanceJobKind,
        target: row.id,
        targetName: row.name,
        params: { ...params },
        pool,
        runAt: Date.now() + (request.first_run_in_seconds ?? request.interval_seconds) * 1000,
      });
    });
    return describeSchedule(scope, row.id);
  });
}

/**
 * DescribeTableMaintenanceSchedule: the schedule and its next run, or nulls without one, and the
 * table's automatic maintenance policy with its source and last run. Throws 1, 4.
 */
export async function describeTableMaintenanceSchedule(scope: CatalogScope, request: { id: string[] }): Promise<TableMaintenanceSchedule> {
  return translating(tableLabel(request.id), async () => {
    const row = await loadTable(scope, request.id);
    return { ...(await describeSchedule(scope, row.id)), auto_maintenance_policy: await describeAutoMaintenancePolicy(scope, row) };
  });
}

async function describeSchedule(scope: CatalogScope, tableId: string): Promise<TableMaintenanceSchedule> {
  const job = await scope.store.rows.findActiveJobOn(tableId, scheduledMaintenanceJobKind);
  if (!job || job.cancel_requested === 1) return { interval_seconds: null, older_than_seconds: null, next_run_at_ms: null, job_id: null };
  const params = job.params as unknown as ScheduledMaintenanceParams;
  return { interval_seconds: params.interval_seconds, older_than_seconds: params.older_than_seconds, next_run_at_ms: job.run_at, job_id: job.id };
}

/** The target table's identifier now; a dropped table ends the job (and its schedule) for good. */
async function currentId(ctx: JobContext): Promise<string[]> {
  const table = await ctx.scope.store.rows.findTableById(ctx.job.target);
  if (!table) throw new PermanentJobError(`the table '${ctx.job.target_name}' was dropped`, "load");
  return [...namespaceIdOfKey(table.namespace_path), table.name];
}

export const tableMaintenanceHandler: JobHandler = {
  async run(ctx) {
    const params = ctx.job.params as unknown as TableMaintenanceParams;
    const id = await currentId(ctx);
    ctx.checkpoint();
    await ctx.event(params.task, { message: `${params.task} of ${tableLabel(id)}` });
    const answer = await runTableMaintenance(ctx.scope, id, params.task, { olderThanSeconds: params.older_than_seconds, deleteUnverified: params.delete_unverified });
    await ctx.setProgress({ itemsTotal: 1, itemsDone: 1 });
    return answer;
  },
};

export const scheduledMaintenanceHandler: JobHandler = {
  async run(ctx) {
    const params = ctx.job.params as unknown as ScheduledMaintenanceParams;
    const id = await currentId(ctx);
    ctx.checkpoint();
    await ctx.event("maintenance", { message: `scheduled compaction, cleanup and index optimisation of ${tableLabel(id)}` });
    // One engine pass does all three tasks; cleanup is the one whose retention applies.
    const answer = await runTableMaintenance(ctx.scope, id, "cleanup", { olderThanSeconds: params.older_than_seconds });
    await ctx.setProgress({ itemsTotal: 1, itemsDone: 1 });
    ctx.checkpoint();
    const next = await queueNextRun(ctx, params);
    return { ...answer, next_job_id: next ?? null };
  },
};

/** Queues the schedule's next run, unless a newer schedule job (a replacement, or a successor queued by an earlier attempt) exists. */
async function queueNextRun(ctx: JobContext, params: ScheduledMaintenanceParams): Promise<string | undefined> {
  const { job, scope } = ctx;
  return scope.store.transaction(async (tx) => {
    const newest: JobRow | undefined = await tx.findActiveJobOn(job.target, scheduledMaintenanceJobKind);
    if (newest && newest.id !== job.id) return undefined;
    return enqueueJob(tx, job.database, {
      kind: scheduledMaintenanceJobKind,
      target: job.target,
      targetName: job.target_name,
      params: { ...params },
      pool: job.pool,
      runAt: Date.now() + params.interval_seconds * 1000,
    });
  });
}
