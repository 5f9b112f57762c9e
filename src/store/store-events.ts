/**
 * @module Change notices between processes sharing a store: a process that changes something
 * others cache (a database's settings, say) publishes a notice; every process, itself included,
 * hears it. SQLite has one process, so its notices stay in memory; PostgreSQL carries them with
 * LISTEN/NOTIFY. Notices can be missed (a dropped connection), so caches also expire on a timer.
 */
import { EventEmitter } from "node:events";

export interface StoreChange {
  /** What changed, e.g. `database`. `*` means "anything may have changed" (notices were missed). */
  topic: string;
  /** Which one, e.g. the database's name; empty for all. */
  key: string;
}

export interface StoreEvents {
  /** Tells every process on the store (this one included) that `key` of `topic` changed. */
  publish(change: StoreChange): Promise<void>;
  /** Calls `listener` for every notice until the returned function is called. */
  subscribe(listener: (change: StoreChange) => void): () => void;
}

/** Notices within one process: what SQLite's single process needs. */
export class LocalEvents implements StoreEvents {
  private readonly emitter = new EventEmitter();

  async publish(change: StoreChange): Promise<void> {
    this.emit(change);
  }

  subscribe(listener: (change: StoreChange) => void): () => void {
    this.emitter.on("change", listener);
    return () => this.emitter.off("change", listener);
  }

  /** Delivers a notice to this process's listeners. */
  emit(change: StoreChange): void {
    this.emitter.emit("change", change);
  }
}
