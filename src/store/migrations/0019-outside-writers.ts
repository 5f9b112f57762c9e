/**
 * Frozen migration: who else may commit to a table's store, so reads know when the catalog's head
 * is the newest version. `tables.outside_writes_until` is when the last credentials Quiver vended
 * with write access to the table run out (epoch ms, null when none were); `databases.outside_writers`
 * is 1 when the operator declared that writers holding their own storage keys commit to the
 * database's tables. Credentials vended before this migration were not recorded: every existing
 * table counts as written from outside for the longest lifetime credentials can have (12 hours).
 * Uses an untyped handle and imports nothing from the application.
 */
import type { Kysely } from "kysely";

const longestCredentialLifetimeMs = 43_200_000;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("tables").addColumn("outside_writes_until", "bigint").execute();
  await db.schema.alterTable("databases").addColumn("outside_writers", "integer").execute();
  await db.updateTable("tables").set({ outside_writes_until: Date.now() + longestCredentialLifetimeMs }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("databases").dropColumn("outside_writers").execute();
  await db.schema.alterTable("tables").dropColumn("outside_writes_until").execute();
}
