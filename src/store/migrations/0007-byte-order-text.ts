/**
 * Frozen migration: on PostgreSQL, every text column compares and sorts by bytes (collation
 * "C"), as SQLite's do. Namespace subtrees are key ranges (`path/` up to `path0`) and listings
 * page by name, which both need byte order; a database created with a language collation would
 * otherwise ignore the '/' that separates path components. Nothing to do on SQLite. Uses an
 * untyped handle and imports nothing from the application.
 */
import { type Kysely, PostgresAdapter, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and data_type = 'text' and table_name not like 'kysely%'
    order by table_name, ordinal_position`.execute(db);
  for (const { table_name, column_name } of rows) {
    await sql`alter table ${sql.table(table_name)} alter column ${sql.ref(column_name)} type text collate "C"`.execute(db);
  }
}
