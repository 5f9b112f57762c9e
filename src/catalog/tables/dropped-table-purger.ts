/**
 * @module Runs the purge of dropped tables past their retention (`dropped-tables.ts`) every
 * interval while the server runs. One process purges a store at a time (a store lock); one that
 * finds the lock held skips its turn.
 */
import type { Store } from "../../store/store.js";
import type { CatalogRegistry } from "../database-registry.js";
import { purgeDroppedTables } from "./dropped-tables.js";

/** Default time between two purges. */
export const defaultDropPurgeIntervalMs = 5 * 60 * 1000;

export interface DroppedTablePurger {
  /** Stops the timer and waits for a purge under way. */
  stop(): Promise<void>;
}

/** Purges every `intervalMs` (0: never) until stopped; a failed purge is reported and the next one runs on time. */
export function startDroppedTablePurger(
  store: Store,
  registry: CatalogRegistry,
  intervalMs: number,
  log: { purged(location: string): void; failed(error: unknown): void },
): DroppedTablePurger {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const schedule = () => {
    if (stopped || intervalMs <= 0) return;
    timer = setTimeout(() => {
      running = purgeDroppedTables(store, registry)
        .then((purged) => {
          for (const location of purged ?? []) log.purged(location);
        }, log.failed)
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, intervalMs);
    // The purge never keeps a process alive on its own.
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
