/**
 * @module Opened tables kept between reads, one per (session, location, branch), following the
 * branch's newest version. Opening a table reads its manifest, schema and indexes; a kept handle
 * instead is brought forward only when something may have changed, loading only what changed:
 * - when the caller knows the branch's newest version (`ReadFreshness.knownVersion`, from the
 *   catalog) and says nothing is committed but through it (`complete`), a handle at that version
 *   answers with no look at the store (or one per `lookIntervalMs`, when set), and a handle
 *   behind it checks out exactly that version;
 * - when the caller knows it but others may commit too (`lookAlongside`), the engine looks at the
 *   store alongside the read and asks for the handle at the known version (as `complete`), then
 *   at the newer version the look found, if any;
 * - otherwise the handle asks Lance whether a newer version was committed (`checkoutLatest`: one
 *   look at the versions folder), on every read, or at most once per `lookIntervalMs`;
 * - a write opened at the location by this process since the handle last looked always makes the
 *   next read look, whatever the caller knows.
 * So a commit by any writer (this process, another replica, a client writing with vended
 * credentials) is seen as the caller's freshness says, and a read costs no more opening than the
 * query itself.
 */
import { type LookQueue, idleLooks, joinLaterLook } from "./shared-looks.js";
import type { BranchName } from "../model/path-names.js";
import { classifyEngineError } from "./engine-errors.js";
import type { NativeTable } from "./lance-native.js";

/** What a read knows about the newest version of the branch it reads, and how much it may trust its last look. */
export interface ReadFreshness {
  /** A committed version of the branch, the newest the caller knows of; null when it knows none. */
  knownVersion: number | null;
  /** Whether no commit of the branch can be newer than `knownVersion` (every commit goes through the caller). */
  complete: boolean;
  /**
   * How long a look at the store is trusted when `knownVersion` says nothing newer; 0 looks on
   * every read, or, when `complete`, never (the known version is the newest).
   */
  lookIntervalMs: number;
  /**
   * Whether others may commit besides the caller, so a look at the store runs alongside each read
   * (`Engine.readTable`, `Engine.readOnCopyOrStore`); the kept handle itself is brought to
   * `knownVersion` without one, and moved on only when the look found a newer version.
   */
  lookAlongside?: boolean | undefined;
  /** The read must be at this version or newer: a handle behind it looks at the store, whatever else says. */
  minVersion?: number | undefined;
  /** Epoch ms: a look at the store made before then is not trusted (the reader saw the store as of then). */
  lookedSince?: number | undefined;
  /** Told the version the read answered from (by the engine's reads, not by the handles). */
  onRead?: ((version: number) => void) | undefined;
  /** Told the version a look at the store found: a caller may remember it. */
  onLooked?: ((version: number) => unknown) | undefined;
}

/** A read that knows nothing: it looks at the store every time. */
export const lookEveryRead: ReadFreshness = { knownVersion: null, complete: false, lookIntervalMs: 0 };

interface KeptHandle {
  table: Promise<NativeTable>;
  lastUsed: number;
  /** The catalog's table the handle was opened for, when the caller said. */
  tableId: string | undefined;
  location: string;
  /** The version the handle is at, once known. */
  version: number | undefined;
  /** When the handle last looked at the store for the newest version. */
  lookedAt: number;
  /** The location's write count (`TableHandles.noteWrite`) when the handle last looked. */
  writes: number;
  /** Checkouts of the handle under way: while any is, `version` may not be the table's. */
  moves: number;
  /** The look at the store in flight and the one queued after it (`joinLaterLook`). */
  looks: LookQueue<void>;
}

/** Locations whose last write is remembered one by one; beyond, every handle looks once more. */
const maxNotedLocations = 10_000;

export interface TableHandlesOptions {
  /** Handles kept at most; the least recently used is let go first (default 256). */
  capacity?: number;
  /** A handle unused this long is opened afresh (default 5 minutes): bounds what a forgotten table pins. */
  idleMs?: number;
}

export class TableHandles {
  private readonly kept = new Map<string, KeptHandle>();
  /** The handle each kept table belongs to, for the version it is known to be at. */
  private readonly handleOf = new WeakMap<NativeTable, KeptHandle>();
  /**
   * The last write this process opened per location, numbered by `writeCount`: a handle that
   * looked before it looks again. Locations forgotten to bound the map read as `forgottenBelow`,
   * so a handle older than the forgetting looks again too.
   */
  private readonly writes = new Map<string, number>();
  private writeCount = 0;
  private forgottenBelow = 0;
  private readonly capacity: number;
  private readonly idleMs: number;

  constructor(
    private readonly open: (location: string, branch: BranchName | null, session: string) => Promise<NativeTable>,
    options: TableHandlesOptions = {},
  ) {
    this.capacity = options.capacity ?? 256;
    this.idleMs = options.idleMs ?? 300_000;
  }

  /**
   * The table at the newest version of `branch` (main when null) as `freshness` allows; `tableId`,
   * the catalog's id of the table, keeps a handle of another table once at this location from
   * serving. `session` separates handles that must never be shared (tenants, credentials).
   */
  async latest(location: string, branch: BranchName | null, tableId?: string, freshness: ReadFreshness = lookEveryRead, session = ""): Promise<NativeTable> {
    const key = `${session}\u0000${location}\u0000${branch ?? ""}`;
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
        await this.bringForward(found, table, location, freshness, now);
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
    const writes = this.writesAt(location);
    const opened = this.open(location, branch, session);
    const entry: KeptHandle = { table: opened, lastUsed: now, tableId, location, version: undefined, lookedAt: now, writes, moves: 0, looks: idleLooks() };
    this.kept.delete(key);
    this.kept.set(key, entry);
    // A failed open (no dataset yet, a missing branch) is not kept: the next read tries again.
    opened.catch(() => {
      if (this.kept.get(key) === entry) this.kept.delete(key);
    });
    this.evictBeyondCapacity();
    const table = await opened;
    this.handleOf.set(table, entry);
    entry.version ??= await table.version();
    void freshness.onLooked?.(entry.version);
    return table;
  }

  /** Brings a kept handle to what `freshness` says is current, looking at the store only when it must. */
  private async bringForward(entry: KeptHandle, table: NativeTable, location: string, freshness: ReadFreshness, now: number): Promise<void> {
    const writes = this.writesAt(location);
    const known = freshness.knownVersion;
    const at = entry.version;
    const unchangedHere = entry.writes === writes;
    // A version asked for that neither the handle nor the caller knows of is only found by looking.
    const demanded = freshness.minVersion ?? 0;
    const demandMet = demanded <= Math.max(at ?? 0, known ?? 0);
    if (unchangedHere && demandMet && known !== null && freshness.complete) {
      // Behind the known version, or at none known (it was read while others could commit): that
      // version exactly, one manifest read and no listing.
      if (at === undefined || known > at) {
        await this.moving(entry, async () => {
          await table.checkout(known);
          entry.version = known;
        });
        return;
      }
      // An interval, where one is set, still bounds how long a commit that bypassed the caller goes unseen.
      if (freshness.lookIntervalMs === 0 || now - entry.lookedAt < freshness.lookIntervalMs) return;
    }
    const behindKnown = known !== null && (at === undefined || known > at);
    const lookedRecently = freshness.lookIntervalMs > 0 && now - entry.lookedAt < freshness.lookIntervalMs && entry.lookedAt >= (freshness.lookedSince ?? 0);
    if (unchangedHere && at !== undefined && demandMet && !behindKnown && lookedRecently) return;
    await this.look(entry, table, freshness);
  }

  /** Brings the handle to the newest version on the store, in a look shared with the reads that arrive together. */
  private look(entry: KeptHandle, table: NativeTable, freshness: ReadFreshness): Promise<void> {
    return joinLaterLook(entry.looks, () => this.lookNow(entry, table, freshness));
  }

  private lookNow(entry: KeptHandle, table: NativeTable, freshness: ReadFreshness): Promise<void> {
    const lookedAt = Date.now();
    const writes = this.writesAt(entry.location);
    return this.moving(entry, async () => {
      await table.checkoutLatest();
      entry.lookedAt = lookedAt;
      entry.writes = writes;
      // A read that looks every time has no use for the version it found (the next read looks
      // again, and the head is only a lower bound): asking would cost every read another call.
      // Unless the caller knows no version at all: it records the first it is told of.
      if (!freshness.complete && freshness.lookIntervalMs === 0 && freshness.knownVersion !== null) {
        entry.version = undefined;
        return;
      }
      entry.version = await table.version();
      void freshness.onLooked?.(entry.version);
    });
  }

  /**
   * The version a table `latest` gave is at, when its handle knows it (it checked out a version
   * it was told of, or asked the engine since it last moved): spares the engine's threads a
   * round trip per read. Undefined otherwise, and for tables not kept here.
   */
  versionOf(table: NativeTable): number | undefined {
    const entry = this.handleOf.get(table);
    return entry === undefined || entry.moves > 0 ? undefined : entry.version;
  }

  /** Runs `move`, a checkout of `entry`'s table and the version it records, as one move (`versionOf`). */
  private async moving(entry: KeptHandle, move: () => Promise<void>): Promise<void> {
    entry.moves += 1;
    try {
      await move();
    } finally {
      entry.moves -= 1;
    }
  }

  /** Says that a write was opened at `location` in this process: the next read of it looks. */
  noteWrite(location: string): void {
    this.writeCount += 1;
    if (this.writes.size >= maxNotedLocations) {
      this.writes.clear();
      this.forgottenBelow = this.writeCount;
    }
    this.writes.set(location, this.writeCount);
  }

  private writesAt(location: string): number {
    return this.writes.get(location) ?? this.forgottenBelow;
  }

  /** Lets go of every handle of the table at `location` (its data was removed). */
  forget(location: string): void {
    const infix = `\u0000${location}\u0000`;
    for (const key of [...this.kept.keys()]) if (key.includes(infix)) this.kept.delete(key);
    this.noteWrite(location);
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
