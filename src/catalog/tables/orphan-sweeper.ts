/**
 * @module Runs the orphaned-folder sweep (`orphaned-folders.ts`): at start-up, every interval
 * while the server runs, and on demand (`quiver sweep`). One process at a time sweeps a store: the
 * sweep holds a store lock (a PostgreSQL advisory lock across replicas), and a process that finds
 * it held skips its turn, since the sweep under way covers it.
 */
import type { Engine } from "../../engine/engine.js";
import { orphanedFoldersRemoved } from "../../metrics/metrics.js";
import type { Store } from "../../store/store.js";
import { type PeriodicTask, startPeriodicTask } from "../periodic-task.js";
import { type OrphanSweepOptions, sweepOrphanedTableFolders } from "./orphaned-folders.js";

/** The store lock a sweep holds. */
export const orphanSweepLock = "orphaned-table-folders";

/** Default time between two sweeps of a running server. */
export const defaultOrphanSweepIntervalMs = 60 * 60 * 1000;

export interface SweepReport {
  /** Folders this sweep removed. */
  removed: string[];
}

/** What a sweep tells its caller as it goes. */
export interface SweepLog {
  removed(location: string): void;
  failed(location: string, error: unknown): void;
}

/**
 * Sweeps now unless another process is sweeping the store; answers undefined when it was. Each
 * removal is reported to `log` and counted in `quiver_orphaned_folders_removed_total`.
 */
export async function sweepOnce(store: Store, engine: Engine, options: Omit<OrphanSweepOptions, "onError">, log: SweepLog): Promise<SweepReport | undefined> {
  return store.tryWithLock(orphanSweepLock, async () => {
    const removed = await sweepOrphanedTableFolders(store, engine, { ...options, onError: (location, error) => log.failed(location, error) });
    for (const location of removed) {
      orphanedFoldersRemoved.inc();
      log.removed(location);
    }
    return { removed };
  });
}

export type OrphanSweeper = PeriodicTask;

/** Sweeps every `intervalMs` (0: never) until stopped; a failed sweep is reported and the next one runs on time. */
export function startOrphanSweeper(
  store: Store,
  engine: Engine,
  options: Omit<OrphanSweepOptions, "onError"> & { intervalMs: number },
  log: SweepLog & { sweepFailed(error: unknown): void },
): OrphanSweeper {
  return startPeriodicTask(
    options.intervalMs,
    async () => {
      await sweepOnce(store, engine, options, log);
    },
    (error) => log.sweepFailed(error),
  );
}
