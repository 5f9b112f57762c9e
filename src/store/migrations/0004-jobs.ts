/**
 * Frozen migration: durable jobs, their work items and events, and materialized-view
 * definitions. Uses an untyped handle and imports nothing from the application.
 */
import { type Kysely, PostgresAdapter } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("database", "text", (c) => c.notNull().references("databases.name").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("target_name", "text", (c) => c.notNull())
    .addColumn("pool", "text", (c) => c.notNull())
    .addColumn("params", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("state", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("cancel_requested", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("run_at", "bigint", (c) => c.notNull())
    .addColumn("locked_by", "text")
    .addColumn("locked_until", "bigint")
    .addColumn("heartbeat_at", "bigint")
    .addColumn("items_total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("items_done", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("rows_written", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("result", "text")
    .addColumn("last_error", "text")
    .addColumn("error_phase", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("started_at", "bigint")
    .addColumn("finished_at", "bigint")
    .execute();
  // The claim scans due jobs in (run_at, id) order; listing pages by (database, created_at, id).
  await db.schema.createIndex("jobs_by_due").on("jobs").columns(["status", "run_at", "id"]).execute();
  await db.schema.createIndex("jobs_by_database").on("jobs").columns(["database", "created_at", "id"]).execute();
  await db.schema.createIndex("jobs_by_target").on("jobs").columns(["target", "status"]).execute();

  await db.schema
    .createTable("job_items")
    .addColumn("job_id", "text", (c) => c.notNull().references("jobs.id").onDelete("cascade"))
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("params", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("locked_by", "text")
    .addColumn("locked_until", "bigint")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("rows_written", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("job_items_pk", ["job_id", "seq"])
    .execute();

  await db.schema
    .createTable("job_events")
    // PostgreSQL numbers rows with an identity column; SQLite keeps its AUTOINCREMENT.
    .addColumn("id", "integer", (c) => (db.getExecutor().adapter instanceof PostgresAdapter ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()))
    .addColumn("job_id", "text", (c) => c.notNull().references("jobs.id").onDelete("cascade"))
    .addColumn("at", "bigint", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("emitted_by", "text", (c) => c.notNull())
    .addColumn("claim_entity", "text")
    .addColumn("rows_processed", "bigint")
    .addColumn("message", "text")
    .execute();
  await db.schema.createIndex("job_events_by_job").on("job_events").columns(["job_id", "id"]).execute();

  await db.schema
    .createTable("materialized_views")
    .addColumn("table_id", "text", (c) => c.primaryKey().references("tables.id").onDelete("cascade"))
    .addColumn("database", "text", (c) => c.notNull().references("databases.name").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("source_query", "text", (c) => c.notNull())
    .addColumn("definition", "text", (c) => c.notNull())
    .addColumn("definition_sha", "text", (c) => c.notNull())
    .addColumn("output_schema", "text", (c) => c.notNull())
    .addColumn("udtf_spec", "text")
    .addColumn("auto_refresh", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("refreshed_source_table", "text")
    .addColumn("refreshed_source_version", "bigint")
    .addColumn("refreshed_definition_sha", "text")
    .addColumn("refreshed_view_version", "bigint")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("materialized_views").execute();
  await db.schema.dropTable("job_events").execute();
  await db.schema.dropTable("job_items").execute();
  await db.schema.dropTable("jobs").execute();
}
