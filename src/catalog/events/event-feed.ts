/**
 * @module Reading the change-event outbox in commit order after a cursor, waiting for the next
 * event when asked (long poll), as the reader may see it. A waiting reader wakes on the store's
 * change notices (NOTIFY on PostgreSQL, sent only when the event's transaction commits;
 * in-process on SQLite) and, should a notice be missed, on a short timer.
 *
 * A deployment-wide reader pages by the number across databases; a reader confined to databases
 * pages each stream (a database's events of one audience) its role reads by the stream's own
 * numbers (`event-cursor.ts`). Either way the query takes only the audiences the reader's role
 * sees, and every event answered is shown as `change-event-visibility.ts` says for that role.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type EventRanges, type EventStream, type StoredChangeEvent, changeEventsTopic } from "../../store/rows/change-event-rows.js";
import type { Store } from "../../store/store.js";
import { invalidInput } from "../../model/catalog-error.js";
import type { Access } from "../../model/operations/operation-entry.js";
import { type ChangeKind, eventTypePrefix } from "../change-events.js";
import { formatStreamCursor, parseGlobalCursor, parseStreamCursor } from "./event-cursor.js";
import { audiencesSeenBy, shownEvent, viewOf } from "../change-event-visibility.js";

/** How often a waiting reader looks again without a notice. */
const recheckMs = 1000;

/**
 * Who reads: a deployment-wide reader with its role on every database (and on deployment-wide
 * events), or a reader confined to the databases it holds a role on.
 */
export type FeedReader = { everyDatabase: Access } | { databases: ReadonlyMap<string, Access> };

export interface FeedRequest {
  /** The cursor: the `next` of an earlier page; absent starts from the oldest event kept. */
  after?: string;
  limit: number;
  /** How long to wait for an event when there is none yet; 0 answers at once. */
  waitMs: number;
  reader: FeedReader;
  /** Aborts a wait (the caller went away, the server is closing). */
  signal?: AbortSignal;
}

export interface FeedPage {
  events: unknown[];
  next: string;
}

/** Where a reader stands: its ranges to read from, and how to write the cursor after some rows. */
interface Position {
  ranges: EventRanges;
  /** The cursor after `rows`, read from this position. */
  nextAfter(rows: readonly StoredChangeEvent[]): string;
}

function globalPosition(after: number, role: Access, upTo?: number): Position {
  return {
    ranges: { after, upTo, audiences: audiencesSeenBy(role) },
    nextAfter: (rows) => String(rows.at(-1)?.seq ?? after),
  };
}

/** The streams a confined reader reads: each of its databases' audiences its role there sees. */
function streamsOf(databases: ReadonlyMap<string, Access>): EventStream[] {
  return [...databases].flatMap(([database, role]) => audiencesSeenBy(role).map((audience) => ({ database, audience })));
}

function streamPosition(streams: readonly EventStream[], positions: readonly number[], upTo?: readonly number[]): Position {
  return {
    ranges: streams.map((stream, index) => ({ ...stream, after: positions[index] ?? 0, upTo: upTo?.[index] })),
    nextAfter(rows) {
      const next = [...positions];
      for (const row of rows) {
        const index = streams.findIndex((stream) => stream.database === row.database && stream.audience === row.audience);
        if (index >= 0) next[index] = row.database_seq;
      }
      return formatStreamCursor(streams, next);
    },
  };
}

/** The events of `rows` as the reader sees them. */
function shown(rows: readonly StoredChangeEvent[], reader: FeedReader): unknown[] {
  return rows.flatMap((row) => {
    const role = "everyDatabase" in reader ? reader.everyDatabase : reader.databases.get(row.database);
    const view = role === undefined ? ({ visible: false } as const) : viewOf(row.type.slice(eventTypePrefix.length) as ChangeKind, role);
    return view.visible ? [shownEvent(JSON.parse(row.event) as { data?: Record<string, unknown> }, view)] : [];
  });
}

/**
 * The confined reader's positions in `streams`, from its cursor. Throws 13 for a position past
 * a stream's newest number: no cursor this store gave says that, so it is one of another store,
 * or of this one before a restore of an older backup, and reading on would skip events.
 */
async function checkedStreamPositions(store: Store, after: string | undefined, streams: readonly EventStream[]): Promise<number[]> {
  const positions = parseStreamCursor(after, streams);
  const newest = await store.rows.lastStreamChangeEventSeqs(streams);
  streams.forEach((stream, index) => {
    const last = newest[index] ?? 0;
    if ((positions[index] ?? 0) > last) {
      throw invalidInput(`after is past the newest event of database '${stream.database}' (${last}): a cursor this store never gave; start again without after (or with tail)`);
    }
  });
  return positions;
}

/**
 * The newest `limit` events the reader may see, in commit order, for a reader that shows what
 * happened last (the console's home) rather than following the feed from its start. `next` is
 * the cursor after every event kept when read, so reading on from it misses nothing that commits
 * later.
 */
export async function readNewestEvents(store: Store, limit: number, reader: FeedReader): Promise<FeedPage> {
  // The newest numbers first: an event committing between the two reads is after them, read on from `next`.
  if ("everyDatabase" in reader) {
    const last = await store.rows.lastChangeEventSeq();
    const rows = await store.rows.listNewestChangeEvents(globalPosition(0, reader.everyDatabase, last).ranges, limit);
    return { events: shown(rows, reader), next: String(last) };
  }
  const streams = streamsOf(reader.databases);
  const last = await store.rows.lastStreamChangeEventSeqs(streams);
  const rows = await store.rows.listNewestChangeEvents(streamPosition(streams, [], last).ranges, limit);
  return { events: shown(rows, reader), next: formatStreamCursor(streams, last) };
}

/** One page of events after the cursor, waiting up to `waitMs` for the first one. Throws 13 for a bad cursor. */
export async function readEvents(store: Store, request: FeedRequest): Promise<FeedPage> {
  const { reader } = request;
  let position: Position;
  if ("everyDatabase" in reader) position = globalPosition(parseGlobalCursor(request.after), reader.everyDatabase);
  else {
    const streams = streamsOf(reader.databases);
    position = streamPosition(streams, await checkedStreamPositions(store, request.after, streams));
  }
  const read = async (): Promise<FeedPage | undefined> => {
    const rows = await store.rows.listChangeEvents(position.ranges, request.limit);
    if (rows.length === 0) return undefined;
    return { events: shown(rows, reader), next: position.nextAfter(rows) };
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
      if (left <= 0 || request.signal?.aborted) return { events: [], next: position.nextAfter([]) };
      const signals = [woken.signal, ...(request.signal ? [request.signal] : [])];
      await sleep(Math.min(left, recheckMs), undefined, { signal: AbortSignal.any(signals) }).catch(() => undefined);
      if (woken.signal.aborted) woken = new AbortController();
    }
  } finally {
    unsubscribe();
  }
}
