/**
 * Frozen migration: a database's own say on automatic table maintenance
 * (`databases.auto_maintenance`: 1 on, 0 off, null to follow the server). Uses an untyped handle
 * and imports nothing from the application, so later code changes cannot alter it.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("databases").addColumn("auto_maintenance", "integer").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("databases").dropColumn("auto_maintenance").execute();
}
