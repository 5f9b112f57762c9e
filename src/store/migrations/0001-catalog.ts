/**
 * Frozen migration: databases, namespaces and tables. Uses an untyped handle and imports
 * nothing from the application, so later code changes cannot alter it.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("databases")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("storage_root", "text", (c) => c.notNull())
    .addColumn("managed_versioning", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("properties", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("namespaces")
    .addColumn("database", "text", (c) => c.notNull().references("databases.name").onDelete("cascade"))
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("parent_path", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("properties", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("namespaces_pk", ["database", "path"])
    .execute();
  await db.schema
    .createIndex("namespaces_by_parent")
    .on("namespaces")
    .columns(["database", "parent_path", "name"])
    .execute();

  await db.schema
    .createTable("tables")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("database", "text", (c) => c.notNull().references("databases.name").onDelete("cascade"))
    .addColumn("namespace_path", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("location", "text", (c) => c.notNull())
    .addColumn("managed_location", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("properties", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("storage_options", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("tables_name_unique", ["database", "namespace_path", "name"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("tables").execute();
  await db.schema.dropTable("namespaces").execute();
  await db.schema.dropTable("databases").execute();
}
