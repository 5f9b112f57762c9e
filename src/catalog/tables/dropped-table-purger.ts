/**
 * @module Runs the purge of dropped tables past their retention (`dropped-tables.ts`) every
 * interval while the server runs. One process purges a store at a time (a store lock); one that
 * finds the lock held skips its turn.
 */
import type { Store } from "../../store/store.js";
import type { ScopesByName } from "../catalog-scope.js";
import { purgeDroppedTables } from "./dropped-tables.js";
import { type PeriodicTask, startPeriodicTask } from "../periodic-task.js";

/** Default time between two purges. */
export const defaultDropPurgeIntervalMs = 5 * 60 * 1000;

export type DroppedTablePurger = PeriodicTask;

/** Purges every `intervalMs` (0: never) until stopped; a failed purge is reported and the next one runs on time. */
export function startDroppedTablePurger(
  store: Store,
  registry: ScopesByName,
  intervalMs: number,
  log: { purged(location: string): void; failed(error: unknown): void },
): DroppedTablePurger {
  return startPeriodicTask(
    intervalMs,
    async () => {
      for (const location of (await purgeDroppedTables(store, registry)) ?? []) log.purged(location);
    },
    log.failed,
  );
}
