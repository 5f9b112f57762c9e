/**
 * Frozen migration: the `Idempotency-Key` claims of mutating requests, one per database,
 * principal and key. A claim is taken before the request's work runs; while `status` is null the
 * request is in flight and `lease_until` says how long its claim holds without renewal; once the
 * answer is kept, `status`, `content_type` and `body` (base64, null when too large to keep)
 * answer its retries until `expires_at`. Uses an untyped handle and imports nothing from the
 * application, so later code changes cannot alter it.
 */
import { type Kysely, PostgresAdapter, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // Byte-order text on PostgreSQL, as 0007 made every other text column.
  const text = db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable("idempotency_keys")
    .addColumn("database", text, (c) => c.notNull())
    .addColumn("principal", text, (c) => c.notNull())
    .addColumn("key", text, (c) => c.notNull())
    .addColumn("owner", text, (c) => c.notNull())
    .addColumn("fingerprint", text, (c) => c.notNull())
    .addColumn("lease_until", "bigint", (c) => c.notNull())
    .addColumn("status", "integer")
    .addColumn("content_type", text)
    .addColumn("body", text)
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["database", "principal", "key"])
    .execute();
  await db.schema.createIndex("idempotency_keys_expires_at").on("idempotency_keys").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("idempotency_keys").execute();
}
