/**
 * @module Brings a store's schema to the latest migration. Kysely's migrator takes the dialect's
 * migration lock (PostgreSQL: an advisory lock inside the migrating transaction), so replicas
 * that start at once migrate the store once and the others wait, then find nothing to do. A
 * store migrated by a newer Quiver is refused before anything runs.
 */
import { type Kysely, Migrator } from "kysely";
import { knownMigrations, migrationProvider } from "./index.js";

/** Kysely's bookkeeping table, in every dialect. */
const migrationTable = "kysely_migration";

/** Thrown when the store holds migrations this build does not know: a newer Quiver migrated it. */
export class NewerSchema extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `the metadata store's schema is newer than this Quiver: migration${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} ` +
        "unknown here; run the Quiver release that applied them (or a later one)",
    );
    this.name = "NewerSchema";
  }
}

/** Names of the migrations the store has applied; none for a new store. */
export async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === migrationTable)) return [];
  const rows = await db.selectFrom(migrationTable).select("name").orderBy("name").execute();
  return rows.map((row) => String(row.name));
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const unknown = (await appliedMigrations(db)).filter((name) => !knownMigrations.includes(name));
  if (unknown.length > 0) throw new NewerSchema(unknown);
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) throw new Error("metadata store migration failed", { cause: error });
  return (results ?? []).filter((result) => result.status === "Success").map((result) => result.migrationName);
}
