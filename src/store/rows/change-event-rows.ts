/**
 * @module The change-event outbox: events appended in the transaction of the change they
 * describe, read back in commit order by the pull API and the webhook delivery, purged after
 * their retention; and the position each push target has acknowledged.
 *
 * Every event has two numbers. `seq` counts every database's events: deployment-wide readers
 * and the webhook delivery page by it. `database_seq` counts the events of one stream alone: one
 * database's events of one audience (the least role that sees them), so a reader of a database
 * pages by numbers that neither the other databases' changes nor the events its role does not
 * see ever move.
 *
 * Both must follow commit order, or a reader paging by one could pass an event whose
 * transaction commits after a later-numbered one was read. SQLite's single writer gives that for
 * free. On PostgreSQL an appending transaction first takes one transaction-scoped advisory lock,
 * held until it commits, so event-writing transactions number and commit one after the other;
 * it then takes its stream's next number by updating that stream's counter row, whose row lock
 * it also holds until it commits: two writers of one stream can never share a number,
 * whatever else changes about the first lock. The same transaction sends a NOTIFY, which
 * PostgreSQL delivers only if it commits: replicas waiting in a long poll hear of the event
 * then, and never of one that rolled back.
 */
import { type ExpressionBuilder, type Kysely, type Selectable, sql } from "kysely";
import type { ChangeEventsTable, Database } from "../schema.js";

/** The advisory lock key of event-writing transactions on PostgreSQL (any fixed number). */
const appendLockKey = 0x51_56_45_56;
/** The channel `notify-events.ts` listens on, and the notice readers of the outbox wait for. */
const noticeChannel = "quiver_changes";
export const changeEventsTopic = "change-events";

/** An event as read back, both numbers included. */
export type StoredChangeEvent = Selectable<ChangeEventsTable>;
/** An event to append: the store numbers it. */
export type NewChangeEvent = Omit<StoredChangeEvent, "seq" | "database_seq">;

/** The events one database numbers on their own: those of one audience (the least role that sees them). */
export interface EventStream {
  database: string;
  audience: string;
}

/** Events of one stream a reader takes: after `after` and up to `upTo` (the stream's own numbers). */
export interface StreamEventRange extends EventStream {
  after: number;
  upTo?: number;
}

/** Events of every database a reader takes: after `after` and up to `upTo` (`seq`), of `audiences` only when given. */
export interface GlobalEventRange {
  after: number;
  upTo?: number;
  audiences?: readonly string[];
}

/** What a read takes: every database's events by `seq`, or some streams' by their own numbers. */
export type EventRanges = GlobalEventRange | readonly StreamEventRange[];

export interface ChangeEventRows {
  /** Appends one event, numbering it in its stream; call it with the `tx` of the change it describes. */
  appendChangeEvent(event: NewChangeEvent): Promise<void>;
  /** The events `ranges` take, in commit order, at most `limit`: the oldest ones. */
  listChangeEvents(ranges: EventRanges, limit: number): Promise<StoredChangeEvent[]>;
  /** The events `ranges` take, in commit order, at most `limit`: the newest ones. */
  listNewestChangeEvents(ranges: EventRanges, limit: number): Promise<StoredChangeEvent[]>;
  /** The `seq` of the newest event, 0 when there is none. */
  lastChangeEventSeq(): Promise<number>;
  /** Each stream's newest `database_seq` ever given (kept through purges; 0 for one with none), in the order asked. */
  lastStreamChangeEventSeqs(streams: readonly EventStream[]): Promise<number[]>;
  /** The time of the oldest event after `after` (`seq`), if any (for the delivery lag). */
  firstChangeEventTimeAfter(after: number): Promise<number | undefined>;
  /** Deletes events older than `before` (epoch ms); answers how many went. */
  purgeChangeEvents(before: number): Promise<number>;
  /** The `seq` a push target acknowledged last, undefined before its first delivery. */
  findDeliveryPosition(target: string): Promise<number | undefined>;
  /** Records that `target` acknowledged every event up to `position`. */
  saveDeliveryPosition(target: string, position: number): Promise<void>;
}

type EventsWhere = ExpressionBuilder<Database, "change_events">;

/** The condition of `ranges` (never true for an empty list of streams). */
function rangesWhere(eb: EventsWhere, ranges: EventRanges) {
  if (!Array.isArray(ranges)) {
    const range = ranges as GlobalEventRange;
    return eb.and([
      eb("seq", ">", range.after),
      ...(range.upTo !== undefined ? [eb("seq", "<=", range.upTo)] : []),
      ...(range.audiences !== undefined ? [eb("audience", "in", range.audiences)] : []),
    ]);
  }
  return eb.or(
    (ranges as readonly StreamEventRange[]).map((range) =>
      eb.and([
        eb("database", "=", range.database),
        eb("audience", "=", range.audience),
        eb("database_seq", ">", range.after),
        ...(range.upTo !== undefined ? [eb("database_seq", "<=", range.upTo)] : []),
      ]),
    ),
  );
}

function decoded(row: StoredChangeEvent): StoredChangeEvent {
  return { ...row, seq: Number(row.seq), database_seq: Number(row.database_seq), time: Number(row.time) };
}

export function changeEventRows(db: Kysely<Database>, dialect: "sqlite" | "postgres"): ChangeEventRows {
  return {
    async appendChangeEvent(event) {
      if (dialect === "postgres") await sql`select pg_advisory_xact_lock(${appendLockKey})`.execute(db);
      // The counter row's lock, taken by this update, is held until the transaction ends.
      const counted = await db
        .insertInto("change_event_counters")
        .values({ database: event.database, audience: event.audience, last_seq: 1 })
        .onConflict((oc) => oc.columns(["database", "audience"]).doUpdateSet({ last_seq: sql`change_event_counters.last_seq + 1` }))
        .returning("last_seq")
        .executeTakeFirstOrThrow();
      await db.insertInto("change_events").values({ ...event, database_seq: Number(counted.last_seq) }).execute();
      if (dialect === "postgres") {
        await sql`select pg_notify(${noticeChannel}, ${JSON.stringify({ topic: changeEventsTopic, key: event.database })})`.execute(db);
      }
    },
    async listChangeEvents(ranges, limit) {
      if (Array.isArray(ranges) && ranges.length === 0) return [];
      const rows = await db.selectFrom("change_events").selectAll().where((eb) => rangesWhere(eb, ranges)).orderBy("seq").limit(limit).execute();
      return rows.map(decoded);
    },
    async listNewestChangeEvents(ranges, limit) {
      if (Array.isArray(ranges) && ranges.length === 0) return [];
      const rows = await db.selectFrom("change_events").selectAll().where((eb) => rangesWhere(eb, ranges)).orderBy("seq", "desc").limit(limit).execute();
      return rows.reverse().map(decoded);
    },
    async lastChangeEventSeq() {
      const row = await db.selectFrom("change_events").select((eb) => eb.fn.max("seq").as("last")).executeTakeFirst();
      return Number(row?.last ?? 0);
    },
    async lastStreamChangeEventSeqs(streams) {
      if (streams.length === 0) return [];
      const rows = await db
        .selectFrom("change_event_counters")
        .select(["database", "audience", "last_seq"])
        .where("database", "in", [...new Set(streams.map((stream) => stream.database))])
        .execute();
      const last = new Map(rows.map((row) => [`${row.audience}/${row.database}`, Number(row.last_seq)]));
      return streams.map((stream) => last.get(`${stream.audience}/${stream.database}`) ?? 0);
    },
    async firstChangeEventTimeAfter(after) {
      const row = await db.selectFrom("change_events").select("time").where("seq", ">", after).orderBy("seq").limit(1).executeTakeFirst();
      return row === undefined ? undefined : Number(row.time);
    },
    async purgeChangeEvents(before) {
      const result = await db.deleteFrom("change_events").where("time", "<", before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async findDeliveryPosition(target) {
      const row = await db.selectFrom("event_deliveries").select("position").where("target", "=", target).executeTakeFirst();
      return row === undefined ? undefined : Number(row.position);
    },
    async saveDeliveryPosition(target, position) {
      const updated_at = Date.now();
      await db
        .insertInto("event_deliveries")
        .values({ target, position, updated_at })
        .onConflict((oc) => oc.column("target").doUpdateSet({ position, updated_at }))
        .execute();
    },
  };
}
