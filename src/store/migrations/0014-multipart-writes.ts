/**
 * Frozen migration: multipart writes in progress. `multipart_writes` holds one upload (the table
 * and branch it writes to, the mode its parts asked for, where its completion stands) and
 * `multipart_parts` the parts staged beside the table's data, so any replica can complete or
 * abort an upload another took parts of, and a completion cut short can be finished. Uses an
 * untyped handle and imports nothing from the application, so later code changes cannot alter it.
 */
import { type Kysely, PostgresAdapter, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // Byte-order text on PostgreSQL, as 0007 made every other text column.
  const text = db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable("multipart_writes")
    .addColumn("upload_id", text, (c) => c.primaryKey())
    .addColumn("database", text, (c) => c.notNull())
    .addColumn("table_id", text, (c) => c.notNull())
    .addColumn("branch", text)
    .addColumn("overwrite", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("state", text, (c) => c.notNull())
    .addColumn("base_version", "bigint")
    .addColumn("version", "bigint")
    .addColumn("num_rows", "bigint")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("multipart_writes_expires_at").on("multipart_writes").column("expires_at").execute();
  await db.schema
    .createTable("multipart_parts")
    .addColumn("upload_id", text, (c) => c.notNull())
    .addColumn("part_id", text, (c) => c.notNull())
    .addColumn("object", text, (c) => c.notNull())
    .addColumn("num_rows", "bigint", (c) => c.notNull())
    .addColumn("bytes", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("multipart_parts_pk", ["upload_id", "part_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("multipart_parts").execute();
  await db.schema.dropTable("multipart_writes").execute();
}
