/**
 * @module Opened tables kept between reads, one per (location, branch), following the branch's
 * newest version. Opening a table reads its manifest, schema and indexes; a kept handle instead
 * asks Lance once per read whether a newer version was committed (`checkoutLatest`: one look at
 * the versions folder) and loads only what changed. So a commit by any writer (this process,
 * another replica, a client writing with vended credentials) is seen by the next read, and a read
 * costs no more opening than the query itself.
 */
import { classifyEngineError } from "./engine-errors.js";
import type { NativeTable } from "./lance-native.js";

interface KeptHandle {
  table: Promise<NativeTable>;
  lastUsed: number;
  /** The catalog's table the handle was opened for, when the caller said. */
  tableId: string | undefined;
}

export interface TableHandlesOptions {
  /** Handles kept at most; the least recently used is let go first (default 256). */
  capacity?: number;
  /** A handle unused this long is opened afresh (default 5 minutes): bounds what a forgotten table pins. */
  idleMs?: number;
}

export class TableHandles {
  private readonly kept = new Map<string, KeptHandle>();
  private readonly capacity: number;
  private readonly idleMs: number;

  constructor(
    private readonly open: (location: string, branch: string | null) => Promise<NativeTable>,
    options: TableHandlesOptions = {},
  ) {
    this.capacity = options.capacity ?? 256;
    this.idleMs = options.idleMs ?? 300_000;
  }

  /**
   * The table at the newest version of `branch` (main when null), as of this call; `tableId`, the
   * catalog's id of the table, keeps a handle of another table once at this location from serving.
   */
  async latest(location: string, branch: string | null, tableId?: string): Promise<NativeTable> {
    const key = `${location}\u0000${branch ?? ""}`;
    const now = Date.now();
    const found = this.kept.get(key);
    const sameTable = found !== undefined && (tableId === undefined || found.tableId === undefined || found.tableId === tableId);
    if (found && sameTable && now - found.lastUsed < this.idleMs) {
      found.tableId ??= tableId;
      // Most recently used last: the map's order is the eviction order.
      this.kept.delete(key);
      this.kept.set(key, found);
      found.lastUsed = now;
      const table = await found.table;
      try {
        await table.checkoutLatest();
        return table;
      } catch (error) {
        // A store that is down says nothing about the dataset: the handle stays for when it is
        // back, and opening afresh now would only wait for the store a second time.
        if (classifyEngineError(error).kind === "unavailable") throw error;
        // The dataset under the handle changed beyond a newer version (removed, or replaced at
        // the same location): the handle goes, and opening afresh answers or says what is wrong.
        if (this.kept.get(key) === found) this.kept.delete(key);
      }
    }
    const opened = this.open(location, branch);
    const entry = { table: opened, lastUsed: now, tableId };
    this.kept.delete(key);
    this.kept.set(key, entry);
    // A failed open (no dataset yet, a missing branch) is not kept: the next read tries again.
    opened.catch(() => {
      if (this.kept.get(key) === entry) this.kept.delete(key);
    });
    this.evictBeyondCapacity();
    return opened;
  }

  /** Lets go of every handle of the table at `location` (its data was removed). */
  forget(location: string): void {
    const prefix = `${location}\u0000`;
    for (const key of [...this.kept.keys()]) if (key.startsWith(prefix)) this.kept.delete(key);
  }

  clear(): void {
    this.kept.clear();
  }

  private evictBeyondCapacity(): void {
    for (const key of this.kept.keys()) {
      if (this.kept.size <= this.capacity) return;
      this.kept.delete(key);
    }
  }
}
