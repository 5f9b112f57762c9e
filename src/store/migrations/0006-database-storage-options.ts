/**
 * Frozen migration: a database may keep its tables on an object store of its own, reached with
 * its own storage options (Lance's keys, as JSON); `{}` means the server's. Uses an untyped handle
 * and imports nothing from the application, so later code changes cannot alter it.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("databases").addColumn("storage_options", "text", (c) => c.notNull().defaultTo("{}")).execute();
}
