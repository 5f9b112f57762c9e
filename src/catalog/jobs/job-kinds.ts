/**
 * @module Every job kind the catalog queues, with the handler that does its work. The job system
 * (`src/jobs`) only claims, runs and completes jobs; what a kind does is the catalog's.
 */
import { createIndexHandler, dropIndexHandler } from "../schema-indexes/index-jobs.js";
import { createIndexJobKind, dropIndexJobKind } from "../schema-indexes/queue-index-jobs.js";
import { refreshViewJobKind } from "../views/materialized-views.js";
import { refreshViewHandler } from "../views/refresh-view-job.js";
import { backfillColumnHandler } from "./backfill-column-job.js";
import { backfillColumnJobKind } from "./backfill-columns.js";
import type { JobHandler } from "./job-handler.js";
import {
  scheduledMaintenanceHandler,
  scheduledMaintenanceJobKind,
  tableMaintenanceHandler,
  tableMaintenanceJobKind,
} from "../maintenance/maintenance-jobs.js";

export const jobHandlers: ReadonlyMap<string, JobHandler> = new Map([
  [refreshViewJobKind, refreshViewHandler],
  [backfillColumnJobKind, backfillColumnHandler],
  [createIndexJobKind, createIndexHandler],
  [dropIndexJobKind, dropIndexHandler],
  [tableMaintenanceJobKind, tableMaintenanceHandler],
  [scheduledMaintenanceJobKind, scheduledMaintenanceHandler],
]);
