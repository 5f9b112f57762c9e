/**
 * Frozen migration: each database numbers its own change events, per audience. An event's
 * `audience` is the least role that sees it (`admin` for key administration, `read` for the rest);
 * `database_seq` counts the events of one database and audience from 1, consecutive, so a reader
 * of a database pages by numbers that neither other databases' changes nor the events its role
 * does not see ever move. `seq` stays the number across databases, in commit order, for
 * deployment-wide readers and webhook delivery. `change_event_counters` holds each database's and
 * audience's newest number: a writer takes the next one by updating that row, whose lock it then
 * holds until it commits, so two writers never share a number nor commit them out of order, and
 * a purge never lets a number be handed out twice. The events already kept are numbered here in
 * their commit order. Uses an untyped handle and imports nothing from the application, so later
 * code changes cannot alter it.
 */
import { type Kysely, PostgresAdapter, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // Byte-order text on PostgreSQL, as 0007 made every other text column.
  const text = db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : sql`text`;
  await db.schema.alterTable("change_events").addColumn("audience", text, (c) => c.notNull().defaultTo("read")).execute();
  await db.schema.alterTable("change_events").addColumn("database_seq", "bigint", (c) => c.notNull().defaultTo(0)).execute();
  // Key administration was, when this ran, the one kind of event only admins see.
  await sql`update change_events set audience = 'admin' where type like 'io.quiver.key.%'`.execute(db);
  // UPDATE … FROM is spelled alike by PostgreSQL and SQLite (3.33 and later).
  await sql`
    update change_events set database_seq = numbered.n
    from (select seq, row_number() over (partition by database, audience order by seq) as n from change_events) as numbered
    where change_events.seq = numbered.seq`.execute(db);
  await db.schema.createIndex("change_events_by_database_seq").on("change_events").columns(["database", "audience", "database_seq"]).unique().execute();
  await db.schema
    .createTable("change_event_counters")
    .addColumn("database", text, (c) => c.notNull())
    .addColumn("audience", text, (c) => c.notNull())
    .addColumn("last_seq", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("change_event_counters_pkey", ["database", "audience"])
    .execute();
  await sql`
    insert into change_event_counters (database, audience, last_seq)
    select database, audience, max(database_seq) from change_events group by database, audience`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("change_event_counters").execute();
  await db.schema.dropIndex("change_events_by_database_seq").execute();
  await db.schema.alterTable("change_events").dropColumn("database_seq").execute();
  await db.schema.alterTable("change_events").dropColumn("audience").execute();
}
