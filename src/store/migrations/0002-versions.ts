/**
 * Frozen migration: version records and transaction records. Uses an untyped handle and
 * imports nothing from the application, so later code changes cannot alter it.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("transactions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("database", "text", (c) => c.notNull().references("databases.name").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("operation", "text", (c) => c.notNull())
    .addColumn("properties", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();

  // The primary key is the put-if-not-exists of CreateTableVersion: a second insert of the same
  // (table, branch, version) fails and aborts the whole transaction it belongs to.
  await db.schema
    .createTable("table_versions")
    .addColumn("table_id", "text", (c) => c.notNull().references("tables.id").onDelete("cascade"))
    .addColumn("branch", "text", (c) => c.notNull())
    .addColumn("version", "bigint", (c) => c.notNull())
    .addColumn("manifest_path", "text", (c) => c.notNull())
    .addColumn("staged_path", "text")
    .addColumn("manifest_size", "bigint")
    .addColumn("e_tag", "text")
    .addColumn("naming_scheme", "text", (c) => c.notNull())
    .addColumn("metadata", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("timestamp_millis", "bigint", (c) => c.notNull())
    .addColumn("transaction_id", "text")
    .addPrimaryKeyConstraint("table_versions_pk", ["table_id", "branch", "version"])
    .execute();
  // Start-up recovery looks for versions whose manifest was never put in place.
  await db.schema.createIndex("table_versions_pending").on("table_versions").column("staged_path").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("table_versions").execute();
  await db.schema.dropTable("transactions").execute();
}
