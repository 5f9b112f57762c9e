/**
 * Frozen migration: tables dropped under a drop retention, kept for an undrop until their purge.
 * A kept table leaves `tables` (its name is free, every listing and lookup passes it by) and its
 * row lands here with the records that went with it. Uses an untyped handle and imports nothing
 * from the application, so later code changes cannot alter it.
 */
import { type Kysely, PostgresAdapter, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // Byte-order text on PostgreSQL, as 0007 made every other text column.
  const text = db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable("dropped_tables")
    .addColumn("id", text, (c) => c.primaryKey())
    .addColumn("database", text, (c) => c.notNull().references("databases.name").onDelete("cascade"))
    .addColumn("namespace_path", text, (c) => c.notNull())
    .addColumn("name", text, (c) => c.notNull())
    .addColumn("location", text, (c) => c.notNull())
    .addColumn("managed_location", "integer", (c) => c.notNull())
    .addColumn("properties", text, (c) => c.notNull())
    .addColumn("storage_options", text, (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("kept_records", text, (c) => c.notNull())
    .addColumn("dropped_at", "bigint", (c) => c.notNull())
    .addColumn("purge_at", "bigint", (c) => c.notNull())
    .addColumn("dropped_by", text)
    .execute();
  await db.schema.createIndex("dropped_tables_by_name").on("dropped_tables").columns(["database", "namespace_path", "name", "dropped_at"]).execute();
  await db.schema.createIndex("dropped_tables_by_purge").on("dropped_tables").column("purge_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("dropped_tables").execute();
}
