/**
 * @module Named locks that hold across every process on the store, for work that must not
 * overlap but runs outside any transaction (a read-modify-write through the engine, say).
 * Within one process, waiters queue in memory first, so a busy key costs one store connection.
 */
import { KeyedLock } from "./keyed-lock.js";

/**
 * Work done under a lock. `fence` aborts once the lock can no longer be trusted (the store
 * connection holding it was lost, so the store has released it and another process may take
 * it): the work checks it right before anything it commits, and gives up with `fence.reason`.
 */
export type LockedWork<T> = (fence: AbortSignal) => Promise<T>;

export interface StoreLocks {
  /** Runs `work` while holding the lock `key`, waiting for it as long as it takes. */
  withLock<T>(key: string, work: LockedWork<T>): Promise<T>;
  /** Runs `work` if the lock `key` is free now; answers undefined without running it otherwise. */
  tryWithLock<T>(key: string, work: LockedWork<T>): Promise<T | undefined>;
}

/** The fence of a lock that lives in this process's memory: it cannot be lost. */
const neverLost = new AbortController().signal;

/** Locks for one process, which is all SQLite has. */
export class ProcessLocks implements StoreLocks {
  private readonly queue = new KeyedLock();
  /** Per key, the work holding or waiting for it. */
  private readonly busy = new Map<string, number>();

  async withLock<T>(key: string, work: LockedWork<T>): Promise<T> {
    this.busy.set(key, (this.busy.get(key) ?? 0) + 1);
    try {
      return await this.queue.run(key, () => work(neverLost));
    } finally {
      const left = (this.busy.get(key) ?? 1) - 1;
      if (left === 0) this.busy.delete(key);
      else this.busy.set(key, left);
    }
  }

  async tryWithLock<T>(key: string, work: LockedWork<T>): Promise<T | undefined> {
    return this.busy.has(key) ? undefined : this.withLock(key, work);
  }
}
