/**
 * @module The purge of change events older than their retention (`--event-retention`, default 7
 * days), every interval while serving, by one process at a time (a store lock; a process that
 * finds it held skips its turn). Readers and webhook targets further behind than the retention
 * miss what was purged: a cursor older than the oldest event kept reads on from the oldest.
 */
import type { Store } from "../../store/store.js";
import { eventsPurged } from "../../metrics/metrics.js";
import { type PeriodicTask, startPeriodicTask } from "../periodic-task.js";

/** Default time events are kept. */
export const defaultEventRetentionMs = 7 * 24 * 60 * 60 * 1000;
/** Default time between two purges. */
export const defaultEventPurgeIntervalMs = 10 * 60 * 1000;

const purgeLock = "change-event-purge";

/** Deletes events older than `retentionMs` unless another process is at it; answers how many went. */
export async function purgeChangeEvents(store: Store, retentionMs: number, now = Date.now()): Promise<number | undefined> {
  return store.tryWithLock(purgeLock, async () => {
    const purged = await store.rows.purgeChangeEvents(now - retentionMs);
    eventsPurged.inc(purged);
    return purged;
  });
}

/** Purges every `intervalMs` until stopped; a failed purge is reported and the next one runs on time. */
export function startEventRetention(store: Store, retentionMs: number, intervalMs: number, failed: (error: unknown) => void): PeriodicTask {
  return startPeriodicTask(intervalMs, async () => void (await purgeChangeEvents(store, retentionMs)), failed);
}
