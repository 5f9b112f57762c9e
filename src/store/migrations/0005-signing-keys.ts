/**
 * Frozen migration: the secrets that sign Quiver's own access tokens, kept in the metadata store
 * so that every process serving the catalog signs and checks with the same key. Uses an untyped
 * handle and imports nothing from the application, so later code changes cannot alter it.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("signing_keys")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
}
