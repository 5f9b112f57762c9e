/**
 * @module Every job kind the catalog queues, with the handler that does its work. The job system
 * (`src/jobs`) only claims, runs and completes jobs; what a kind does is the catalog's.
 */
import { createIndexHandler, dropIndexHandler } from "../schema-indexes/index-jobs.js";
import { createIndexJobKind, dropIndexJobKind } from "../schema-indexes/queue-index-jobs.js";
import { refreshViewJobKind } from "../views/materialized-views.js";
import { refreshViewHandler } from "../views/refresh-view-job.js";
import { backfillColumnHandler } from "../jobs/backfill-column-job.js";
import { backfillColumnJobKind } from "../jobs/backfill-columns.js";
import type { JobContext, JobHandler } from "../jobs/job-handler.js";
import { refreshHead } from "../table-heads.js";
import {
  scheduledMaintenanceHandler,
  scheduledMaintenanceJobKind,
  tableMaintenanceHandler,
  tableMaintenanceJobKind,
} from "../maintenance/maintenance-jobs.js";
import { autoMaintenanceHandler, autoMaintenanceJobKind } from "../maintenance/auto-maintenance-job.js";

/**
 * `handler`, then the head of the table the job targets raised to what the job committed: a job
 * commits through the engine, and reads that trust the catalog's head must see it.
 */
function raisingHead(handler: JobHandler): JobHandler {
  const settle = (ctx: JobContext) => refreshHead(ctx.scope, ctx.job.target);
  return {
    run: async (ctx) => {
      try {
        return await handler.run(ctx);
      } finally {
        await settle(ctx);
      }
    },
    ...(handler.undo ? { undo: async (ctx: JobContext) => {
      try {
        await handler.undo?.(ctx);
      } finally {
        await settle(ctx);
      }
    } } : {}),
  };
}

export const jobHandlers: ReadonlyMap<string, JobHandler> = new Map([
  [refreshViewJobKind, raisingHead(refreshViewHandler)],
  [backfillColumnJobKind, raisingHead(backfillColumnHandler)],
  [createIndexJobKind, raisingHead(createIndexHandler)],
  [dropIndexJobKind, raisingHead(dropIndexHandler)],
  [tableMaintenanceJobKind, raisingHead(tableMaintenanceHandler)],
  [scheduledMaintenanceJobKind, raisingHead(scheduledMaintenanceHandler)],
  [autoMaintenanceJobKind, raisingHead(autoMaintenanceHandler)],
]);
