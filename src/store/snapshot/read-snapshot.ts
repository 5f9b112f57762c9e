/**
 * @module Reads the whole metadata store as of one point in time, while servers keep writing to
 * it: every table's rows come from the same transaction snapshot, so no row refers to a row the
 * copy lacks.
 */
import type { Kysely } from "kysely";
import { appliedMigrations } from "../migrations/migrate.js";
import { type SnapshotTable, dialectCatalog, snapshotTables } from "./snapshot-tables.js";

/** What a snapshot says of itself before its rows. */
export interface SnapshotInfo {
  dialect: "sqlite" | "postgres";
  /** The migrations the store had applied, in order: its schema level. */
  migrations: string[];
  /** The tables that follow, in the order they come. */
  tables: SnapshotTable[];
}

/** Where a snapshot goes: its description first, then each table's rows, in `tables` order. */
export interface SnapshotSink {
  begin(info: SnapshotInfo): Promise<void>;
  rows(table: SnapshotTable, rows: Record<string, unknown>[]): Promise<void>;
}

/** Reads every table of the store at `db` inside one snapshot transaction into `sink`. */
export async function readSnapshot(db: Kysely<any>, dialect: "sqlite" | "postgres", sink: SnapshotSink): Promise<SnapshotInfo> {
  return dialectCatalog(dialect).readingSnapshot(db, async (trx) => {
    const info: SnapshotInfo = { dialect, migrations: await appliedMigrations(trx), tables: await snapshotTables(trx, dialect) };
    await sink.begin(info);
    for (const table of info.tables) {
      const rows = await trx.selectFrom(table.name).select(table.columns).execute();
      await sink.rows(table, rows);
    }
    return info;
  });
}
