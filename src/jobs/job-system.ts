/**
 * @module The job system of one process: the handlers of every job kind and the worker that
 * runs them. The runtime starts it after the server is built and stops it before closing the
 * store.
 */
import type { CatalogRegistry } from "../catalog/databases.js";
import { refreshViewJobKind } from "../catalog/materialized-views.js";
import type { Store } from "../store/store.js";
import type { JobHandler } from "./job-handler.js";
import type { JobSystemSettings } from "./job-settings.js";
import { type JobWorkerLog, JobWorker } from "./job-worker.js";
import { refreshViewHandler } from "./refresh-view-job.js";
import { backfillColumnJobKind } from "../catalog/backfill.js";
import { backfillColumnHandler } from "./backfill-column-job.js";

export const jobHandlers: ReadonlyMap<string, JobHandler> = new Map([
  [refreshViewJobKind, refreshViewHandler],
  [backfillColumnJobKind, backfillColumnHandler],
]);

export interface JobSystem {
  readonly worker: JobWorker | undefined;
  stop(): Promise<void>;
}

/** Starts the worker unless `settings.runWorker` is false (jobs then wait for another process). */
export function startJobSystem(store: Store, registry: CatalogRegistry, settings: JobSystemSettings, log?: JobWorkerLog): JobSystem {
  const worker = settings.runWorker ? new JobWorker(store, registry, jobHandlers, settings, log) : undefined;
  worker?.start();
  return {
    worker,
    stop: async () => worker?.stop(),
  };
}
