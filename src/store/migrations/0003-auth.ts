/**
 * Frozen migration: API keys, OAuth clients and the audit log. Uses an untyped handle and
 * imports nothing from the application, so later code changes cannot alter it.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // A null database means a deployment-wide credential (its role applies to every database).
  await db.schema
    .createTable("api_keys")
    .addColumn("key_id", "text", (c) => c.primaryKey())
    .addColumn("database", "text", (c) => c.references("databases.name").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("salt", "text", (c) => c.notNull())
    .addColumn("secret_hash", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema.createIndex("api_keys_by_database").on("api_keys").columns(["database", "created_at"]).execute();

  await db.schema
    .createTable("oauth_clients")
    .addColumn("client_id", "text", (c) => c.primaryKey())
    .addColumn("database", "text", (c) => c.references("databases.name").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("salt", "text", (c) => c.notNull())
    .addColumn("secret_hash", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema.createIndex("oauth_clients_by_database").on("oauth_clients").columns(["database", "created_at"]).execute();

  // No foreign key on database: the record of a dropped database's history must outlive it.
  await db.schema
    .createTable("audit_log")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("at", "bigint", (c) => c.notNull())
    .addColumn("database", "text")
    .addColumn("principal", "text", (c) => c.notNull())
    .addColumn("operation", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("error_code", "integer")
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("context", "text", (c) => c.notNull().defaultTo("{}"))
    .execute();
  await db.schema.createIndex("audit_log_by_database").on("audit_log").columns(["database", "at", "id"]).execute();
  await db.schema.createIndex("audit_log_by_time").on("audit_log").columns(["at", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_log").execute();
  await db.schema.dropTable("oauth_clients").execute();
  await db.schema.dropTable("api_keys").execute();
}
