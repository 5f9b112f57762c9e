/**
 * @module The job system of one process: the handlers of every job kind, the worker that
 * runs them, and the periodic auto-refresh check of materialized views. The runtime starts it
 * after the server is built and stops it before closing the store.
 */
import type { CatalogRegistry } from "../catalog/database-registry.js";
import { refreshViewJobKind } from "../catalog/views/materialized-views.js";
import type { Store } from "../store/store.js";
import type { JobHandler } from "./job-handler.js";
import type { JobSystemSettings } from "./job-settings.js";
import { type JobWorkerLog, JobWorker } from "./job-worker.js";
import { refreshViewHandler } from "./refresh-view-job.js";
import { backfillColumnJobKind } from "../catalog/jobs/backfill-columns.js";
import { backfillColumnHandler } from "./backfill-column-job.js";
import { AutoRefresher } from "./auto-refresh.js";
import { createIndexJobKind, dropIndexJobKind } from "../catalog/schema-indexes/queue-index-jobs.js";
import { createIndexHandler, dropIndexHandler } from "./index-jobs.js";

export const jobHandlers: ReadonlyMap<string, JobHandler> = new Map([
  [refreshViewJobKind, refreshViewHandler],
  [backfillColumnJobKind, backfillColumnHandler],
  [createIndexJobKind, createIndexHandler],
  [dropIndexJobKind, dropIndexHandler],
]);

export interface JobSystem {
  readonly worker: JobWorker | undefined;
  readonly autoRefresher: AutoRefresher | undefined;
  stop(): Promise<void>;
}

/**
 * Starts the worker and the auto-refresh check unless `settings.runWorker` is false (jobs then
 * wait for another process, which also runs the check).
 */
export function startJobSystem(store: Store, registry: CatalogRegistry, settings: JobSystemSettings, log?: JobWorkerLog): JobSystem {
  const worker = settings.runWorker ? new JobWorker(store, registry, jobHandlers, settings, log) : undefined;
  const autoRefresher = worker ? new AutoRefresher(store, registry, settings.autoRefresh, log, () => worker.wake()) : undefined;
  worker?.start();
  autoRefresher?.start();
  return {
    worker,
    autoRefresher,
    stop: async () => {
      await autoRefresher?.stop();
      await worker?.stop();
    },
  };
}
