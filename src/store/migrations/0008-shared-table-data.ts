/**
 * Frozen migration: which other tables' folders a table reads data files from (a shallow
 * clone reads its source's), and the folders of dropped tables kept because a clone still reads
 * them. Uses an untyped handle and imports nothing from the application, so later code changes
 * cannot alter it.
 */
import { type Kysely, PostgresAdapter, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // Byte-order text on PostgreSQL, as 0007 made every other text column.
  const text = db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable("table_data_refs")
    .addColumn("table_id", text, (c) => c.notNull().references("tables.id").onDelete("cascade"))
    .addColumn("database", text, (c) => c.notNull())
    .addColumn("location", text, (c) => c.notNull())
    .addColumn("branch", text, (c) => c.notNull().defaultTo(""))
    .addColumn("version", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("table_data_refs_pk", ["table_id", "location"])
    .execute();
  await db.schema.createIndex("table_data_refs_location").on("table_data_refs").columns(["database", "location"]).execute();

  await db.schema
    .createTable("retained_table_data")
    .addColumn("database", text, (c) => c.notNull().references("databases.name").onDelete("cascade"))
    .addColumn("location", text, (c) => c.notNull())
    .addColumn("dropped_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("retained_table_data_pk", ["database", "location"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("retained_table_data").execute();
  await db.schema.dropTable("table_data_refs").execute();
}
