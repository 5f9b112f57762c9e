/**
 * Frozen migration: the request budgets replicas share (see rows/rate-limit-rows.ts), one row per
 * limited caller or database holding the time its budget is next fully spent. Uses an untyped
 * handle and imports nothing from the application, so later code changes cannot alter it.
 */
import { type Kysely, PostgresAdapter, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // Byte-order text on PostgreSQL, as 0007 made every other text column.
  const text = db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable("rate_limit_cells")
    .addColumn("key", text, (c) => c.primaryKey())
    .addColumn("due_at", "double precision", (c) => c.notNull())
    .execute();
}
