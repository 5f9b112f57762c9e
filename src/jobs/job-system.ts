/**
 * @module The job system of one process: the worker that claims and runs the catalog's job kinds
 * (`catalog/runtime/job-kinds.ts`), the periodic auto-refresh check of materialized views, and
 * the automatic maintenance pass over tables. The runtime starts it
 * after the server is built and stops it before closing the store.
 */
import type { CatalogRegistry } from "../catalog/runtime/database-registry.js";
import { jobHandlers } from "../catalog/runtime/job-kinds.js";
import type { Store } from "../store/store.js";
import { AutoMaintainer } from "./auto-maintenance.js";
import { AutoRefresher } from "./auto-refresh.js";
import type { JobSystemSettings } from "./job-settings.js";
import { type JobWorkerLog, JobWorker } from "./job-worker.js";

export interface JobSystem {
  readonly worker: JobWorker | undefined;
  readonly autoRefresher: AutoRefresher | undefined;
  readonly autoMaintainer: AutoMaintainer | undefined;
  stop(): Promise<void>;
}

/**
 * Starts the worker and the auto-refresh check unless `settings.runWorker` is false (jobs then
 * wait for another process, which also runs the check).
 */
export function startJobSystem(store: Store, registry: CatalogRegistry, settings: JobSystemSettings, log?: JobWorkerLog): JobSystem {
  const worker = settings.runWorker ? new JobWorker(store, registry, jobHandlers, settings, log) : undefined;
  const autoRefresher = worker ? new AutoRefresher(store, registry, settings.autoRefresh, log, () => worker.wake()) : undefined;
  // The pass runs even when the server default is off: a database or table may turn it on.
  const autoMaintainer = worker ? new AutoMaintainer(store, registry, settings.autoMaintenance, log, () => worker.wake()) : undefined;
  worker?.start();
  autoRefresher?.start();
  autoMaintainer?.start();
  return {
    worker,
    autoRefresher,
    autoMaintainer,
    stop: async () => {
      await autoMaintainer?.stop();
      await autoRefresher?.stop();
      await worker?.stop();
    },
  };
}
