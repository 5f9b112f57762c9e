/**
 * @module Loads a snapshot (see read-snapshot.ts) into an empty store of either dialect. The
 * store is first migrated to the snapshot's schema level, so the rows go into the tables they
 * were read from; then every row is inserted in one transaction, the numbering of numbered
 * columns moved past the highest value loaded, and only then the migrations this Quiver has
 * beyond the snapshot's run, turning the rows as they turn any store's.
 */
import { type Kysely, Migrator } from "kysely";
import { knownMigrations, migrationProvider } from "../migrations/index.js";
import { NewerSchema, appliedMigrations, migrateToLatest } from "../migrations/migrate.js";
import { type SnapshotTable, dialectCatalog, snapshotTables } from "./snapshot-tables.js";

/** Rows per insert statement: far below both dialects' limits on bound parameters. */
const insertBatch = 200;

/** A snapshot to load: its schema level, then each table's rows in an order its foreign keys allow. */
export interface SnapshotSource {
  migrations: string[];
  batches(): AsyncIterable<{ table: string; rows: Record<string, unknown>[] }>;
}

/** Thrown when the target store holds rows already: a restore never merges. */
export class StoreNotEmpty extends Error {
  constructor(readonly counts: Record<string, number>) {
    super(
      `the target store is not empty (${Object.entries(counts)
        .map(([table, count]) => `${table}: ${count} row${count === 1 ? "" : "s"}`)
        .join(", ")}); restore only into a new, empty store`,
    );
    this.name = "StoreNotEmpty";
  }
}

/** Thrown when the snapshot does not fit the target store's schema. */
export class SnapshotMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SnapshotMismatch";
  }
}

/** Answers how many rows were loaded per table. */
export async function loadSnapshot(db: Kysely<any>, dialect: "sqlite" | "postgres", source: SnapshotSource): Promise<Record<string, number>> {
  // A store some Quiver has opened is at some level already: say it holds rows before anything else.
  if ((await appliedMigrations(db)).length > 0) await requireEmpty(db, await snapshotTables(db, dialect));
  await migrateToLevel(db, source.migrations);
  const tables = new Map((await snapshotTables(db, dialect)).map((table) => [table.name, table]));
  const loaded: Record<string, number> = {};
  await db.transaction().execute(async (trx) => {
    await requireEmpty(trx, [...tables.values()]);
    for await (const { table: name, rows } of source.batches()) {
      const table = tables.get(name);
      if (table === undefined) throw new SnapshotMismatch(`the backup holds table '${name}', which the store's schema has not`);
      for (let start = 0; start < rows.length; start += insertBatch) {
        const batch = rows.slice(start, start + insertBatch).map((row) => columnsOf(row, table));
        await trx.insertInto(name).values(batch).execute();
      }
      loaded[name] = (loaded[name] ?? 0) + rows.length;
    }
    for (const table of tables.values()) {
      for (const column of table.numbered) await dialectCatalog(dialect).renumber(trx, table.name, column);
    }
  });
  await migrateToLatest(db);
  return loaded;
}

/** Migrates the store to exactly `level`; refuses a level this build does not know or one the store is past. */
async function migrateToLevel(db: Kysely<any>, level: string[]): Promise<void> {
  const unknown = level.filter((name) => !knownMigrations.includes(name));
  if (unknown.length > 0) throw new NewerSchema(unknown);
  const applied = await appliedMigrations(db);
  if (applied.some((name, index) => level[index] !== name)) {
    throw new SnapshotMismatch(
      `the target store is already migrated to ${applied[applied.length - 1]}, past the backup's ${level[level.length - 1] ?? "(no migrations)"}; ` +
        "restore into a store no Quiver has opened",
    );
  }
  const target = level[level.length - 1];
  if (target === undefined || applied.length === level.length) return;
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(target);
  if (error) throw new Error("metadata store migration failed", { cause: error });
}

async function requireEmpty(db: Kysely<any>, tables: SnapshotTable[]): Promise<void> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await db.selectFrom(table.name).select((eb) => eb.fn.countAll().as("count")).executeTakeFirst();
    const count = Number(row?.count ?? 0);
    if (count > 0) counts[table.name] = count;
  }
  if (Object.keys(counts).length > 0) throw new StoreNotEmpty(counts);
}

/** The row with exactly the table's columns; one the table lacks is a mismatch, one the row lacks takes its default. */
function columnsOf(row: Record<string, unknown>, table: SnapshotTable): Record<string, unknown> {
  for (const column of Object.keys(row)) {
    if (!table.columns.includes(column)) throw new SnapshotMismatch(`the backup's table '${table.name}' has column '${column}', which the store's has not`);
  }
  return row;
}
