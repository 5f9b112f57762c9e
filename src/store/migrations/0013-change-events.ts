/**
 * Frozen migration: the transactional outbox of change events. A change writes its event here in
 * the store transaction that records it; `seq` numbers events in commit order (writers of events
 * take one lock until they commit, see `change-event-rows.ts`), which is what readers page by.
 * `event_deliveries` keeps, per push target, the `seq` of the last event it acknowledged, so
 * delivery resumes where it stopped after a restart. Uses an untyped handle and imports nothing
 * from the application, so later code changes cannot alter it.
 */
import { type Kysely, PostgresAdapter, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // Byte-order text on PostgreSQL, as 0007 made every other text column.
  const text = postgres ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable("change_events")
    // PostgreSQL numbers rows with an identity column; SQLite keeps its AUTOINCREMENT (never reused after a purge).
    .addColumn("seq", postgres ? "bigint" : "integer", (c) => (postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()))
    .addColumn("id", text, (c) => c.notNull().unique())
    .addColumn("database", text, (c) => c.notNull())
    .addColumn("type", text, (c) => c.notNull())
    .addColumn("subject", text, (c) => c.notNull())
    .addColumn("time", "bigint", (c) => c.notNull())
    .addColumn("event", text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("change_events_by_database").on("change_events").columns(["database", "seq"]).execute();
  await db.schema.createIndex("change_events_by_time").on("change_events").column("time").execute();
  await db.schema
    .createTable("event_deliveries")
    .addColumn("target", text, (c) => c.primaryKey())
    .addColumn("position", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("event_deliveries").execute();
  await db.schema.dropTable("change_events").execute();
}
