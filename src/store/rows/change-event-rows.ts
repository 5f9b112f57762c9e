/**
 * @module The change-event outbox: events appended in the transaction of the change they
 * describe, read back in `seq` order by the pull API and the webhook delivery, purged after their
 * retention; and the position each push target has acknowledged.
 *
 * `seq` must follow commit order, or a reader paging by it could pass an event whose transaction
 * commits after a later-numbered one was read. SQLite's single writer gives that for free; on
 * PostgreSQL an appending transaction first takes one transaction-scoped advisory lock, held
 * until it commits, so event-writing transactions number and commit one after the other. The
 * same transaction sends a NOTIFY, which PostgreSQL delivers only if it commits: replicas
 * waiting in a long poll hear of the event then, and never of one that rolled back.
 */
import { type Kysely, type Selectable, sql } from "kysely";
import type { ChangeEventsTable, Database } from "../schema.js";

/** The advisory lock key of event-writing transactions on PostgreSQL (any fixed number). */
const appendLockKey = 0x51_56_45_56;
/** The channel `notify-events.ts` listens on, and the notice readers of the outbox wait for. */
const noticeChannel = "quiver_changes";
export const changeEventsTopic = "change-events";

/** An event as read back, `seq` included. */
export type StoredChangeEvent = Selectable<ChangeEventsTable>;
/** An event to append: the store numbers it. */
export type NewChangeEvent = Omit<StoredChangeEvent, "seq">;

export interface ChangeEventRows {
  /** Appends one event; call it with the `tx` of the change it describes. */
  appendChangeEvent(event: NewChangeEvent): Promise<void>;
  /** Events after `after` in commit order, at most `limit`; of `databases` only, when given. */
  listChangeEvents(after: number, limit: number, databases?: readonly string[]): Promise<StoredChangeEvent[]>;
  /** The newest `limit` events (of `databases` only, when given), in commit order. */
  listNewestChangeEvents(limit: number, databases?: readonly string[]): Promise<StoredChangeEvent[]>;
  /** The `seq` of the newest event, 0 when there is none. */
  lastChangeEventSeq(): Promise<number>;
  /** The time of the oldest event after `after`, if any (for the delivery lag). */
  firstChangeEventTimeAfter(after: number): Promise<number | undefined>;
  /** Deletes events older than `before` (epoch ms); answers how many went. */
  purgeChangeEvents(before: number): Promise<number>;
  /** The `seq` a push target acknowledged last, undefined before its first delivery. */
  findDeliveryPosition(target: string): Promise<number | undefined>;
  /** Records that `target` acknowledged every event up to `position`. */
  saveDeliveryPosition(target: string, position: number): Promise<void>;
}

export function changeEventRows(db: Kysely<Database>, dialect: "sqlite" | "postgres"): ChangeEventRows {
  return {
    async appendChangeEvent(event) {
      if (dialect === "postgres") await sql`select pg_advisory_xact_lock(${appendLockKey})`.execute(db);
      await db.insertInto("change_events").values(event).execute();
      if (dialect === "postgres") {
        await sql`select pg_notify(${noticeChannel}, ${JSON.stringify({ topic: changeEventsTopic, key: event.database })})`.execute(db);
      }
    },
    async listChangeEvents(after, limit, databases) {
      if (databases !== undefined && databases.length === 0) return [];
      let query = db.selectFrom("change_events").selectAll().where("seq", ">", after);
      if (databases !== undefined) query = query.where("database", "in", databases);
      const rows = await query.orderBy("seq").limit(limit).execute();
      return rows.map((row) => ({ ...row, seq: Number(row.seq), time: Number(row.time) }));
    },
    async listNewestChangeEvents(limit, databases) {
      if (databases !== undefined && databases.length === 0) return [];
      let query = db.selectFrom("change_events").selectAll();
      if (databases !== undefined) query = query.where("database", "in", databases);
      const rows = await query.orderBy("seq", "desc").limit(limit).execute();
      return rows.reverse().map((row) => ({ ...row, seq: Number(row.seq), time: Number(row.time) }));
    },
    async lastChangeEventSeq() {
      const row = await db.selectFrom("change_events").select((eb) => eb.fn.max("seq").as("last")).executeTakeFirst();
      return Number(row?.last ?? 0);
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
