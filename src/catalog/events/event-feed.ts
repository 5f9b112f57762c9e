/**
 * @module Reading the change-event outbox in commit order after a cursor, waiting for the next
 * event when asked (long poll). A waiting reader wakes on the store's change notices (NOTIFY on
 * PostgreSQL, sent only when the event's transaction commits; in-process on SQLite) and, should a
 * notice be missed, on a short timer.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { changeEventsTopic } from "../../store/rows/change-event-rows.js";
import type { Store } from "../../store/store.js";
import { invalidInput } from "../../model/catalog-error.js";

/** How often a waiting reader looks again without a notice. */
const recheckMs = 1000;

export interface FeedRequest {
  /** The cursor: the `next` of an earlier page; absent starts from the oldest event kept. */
  after?: string;
  limit: number;
  /** How long to wait for an event when there is none yet; 0 answers at once. */
  waitMs: number;
  /** Only events of these databases; all when absent. */
  databases?: readonly string[];
  /** Aborts a wait (the caller went away, the server is closing). */
  signal?: AbortSignal;
}

export interface FeedPage {
  events: unknown[];
  next: string;
}

/** Parses a cursor: the decimal `seq` of the last event read. Throws 13 for anything else. */
export function parseCursor(after: string | undefined): number {
  if (after === undefined || after === "") return 0;
  if (!/^\d{1,15}$/.test(after)) throw invalidInput(`after must be the 'next' cursor of an earlier answer; got ${JSON.stringify(after)}`);
  return Number(after);
}

/**
 * The newest `limit` events in commit order, for a reader that shows what happened last (the
 * console's home) rather than following the feed from its start. `next` is the cursor after the
 * newest of them, or after every event kept when none is visible, so reading on from it misses
 * nothing that commits later.
 */
export async function readNewestEvents(store: Store, limit: number, databases?: readonly string[]): Promise<FeedPage> {
  // Read first: an event committing between the two reads is after `last` and read on from it.
  const last = await store.rows.lastChangeEventSeq();
  const rows = (await store.rows.listNewestChangeEvents(limit, databases)).filter((row) => row.seq <= last);
  const newest = rows[rows.length - 1];
  return { events: rows.map((row) => JSON.parse(row.event) as unknown), next: String(newest === undefined ? last : newest.seq) };
}

/** One page of events after the cursor, waiting up to `waitMs` for the first one. */
export async function readEvents(store: Store, request: FeedRequest): Promise<FeedPage> {
  const after = parseCursor(request.after);
  const read = async (): Promise<FeedPage | undefined> => {
    const rows = await store.rows.listChangeEvents(after, request.limit, request.databases);
    if (rows.length === 0) return undefined;
    return { events: rows.map((row) => JSON.parse(row.event) as unknown), next: String((rows[rows.length - 1] as { seq: number }).seq) };
  };
  const deadline = Date.now() + request.waitMs;
  let woken = new AbortController();
  const unsubscribe = store.events.subscribe((change) => {
    if (change.topic === changeEventsTopic || change.topic === "*") woken.abort();
  });
  try {
    for (;;) {
      const page = await read();
      if (page) return page;
      const left = deadline - Date.now();
      if (left <= 0 || request.signal?.aborted) return { events: [], next: String(after) };
      const signals = [woken.signal, ...(request.signal ? [request.signal] : [])];
      await sleep(Math.min(left, recheckMs), undefined, { signal: AbortSignal.any(signals) }).catch(() => undefined);
      if (woken.signal.aborted) woken = new AbortController();
    }
  } finally {
    unsubscribe();
  }
}
