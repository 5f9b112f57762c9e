/**
 * Frozen migration: privileges granted on objects (database, namespace, table, view, system) to
 * subjects (principals, groups, roles), and the roles bound to principals and groups. Both are
 * deployment-wide, in LanceDB's authorization grammar (model/authz/). `authz_changes` counts
 * their changes in one row (made by the first change, so a fresh store stays empty), so a process
 * can tell cheaply whether the grants it holds in memory are current. Uses an untyped handle and
 * imports nothing from the application, so later code changes cannot alter it.
 */
import { type Kysely, PostgresAdapter, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  const text = db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable("authz_grants")
    .addColumn("subject", text, (c) => c.notNull())
    .addColumn("object", text, (c) => c.notNull())
    .addColumn("privilege", text, (c) => c.notNull())
    .addColumn("granted_at", "double precision", (c) => c.notNull())
    .addColumn("granted_by", text, (c) => c.notNull())
    .addPrimaryKeyConstraint("authz_grants_pk", ["object", "subject", "privilege"])
    .execute();
  await db.schema.createIndex("authz_grants_by_subject").on("authz_grants").columns(["subject", "object", "privilege"]).execute();
  await db.schema
    .createTable("authz_role_bindings")
    .addColumn("subject", text, (c) => c.notNull())
    .addColumn("role", text, (c) => c.notNull())
    .addColumn("bound_at", "double precision", (c) => c.notNull())
    .addPrimaryKeyConstraint("authz_role_bindings_pk", ["role", "subject"])
    .execute();
  await db.schema.createIndex("authz_role_bindings_by_subject").on("authz_role_bindings").columns(["subject", "role"]).execute();
  await db.schema
    .createTable("authz_changes")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("version", "bigint", (c) => c.notNull())
    .execute();
}
