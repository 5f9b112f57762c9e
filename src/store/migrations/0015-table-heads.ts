/**
 * Frozen migration: the newest version of a table's main branch that Quiver committed or saw
 * (`tables.head_version`, null until then), so a read can tell whether a kept table handle is
 * current without listing the table's versions; and a database's read-consistency interval
 * (`databases.read_consistency_ms`, null for a look at the store on every read). Uses an untyped
 * handle and imports nothing from the application, so later code changes cannot alter it.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("tables").addColumn("head_version", "bigint").execute();
  await db.schema.alterTable("databases").addColumn("read_consistency_ms", "bigint").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("databases").dropColumn("read_consistency_ms").execute();
  await db.schema.alterTable("tables").dropColumn("head_version").execute();
}
