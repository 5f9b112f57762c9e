/**
 * @module Version records: one row per (table, branch, version) committed through the catalog.
 * A row with a `staged_path` is committed but its manifest is not yet at its final name.
 */
import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database, NewTableVersionRow, TableVersionMapColumn, TableVersionRow, TableVersionsTable } from "../schema.js";
import { decodeMaps, encodeMaps } from "./json-columns.js";

const maps: readonly TableVersionMapColumn[] = ["metadata"];
const decoded = (row: Selectable<TableVersionsTable>): TableVersionRow => decodeMaps(row, maps);

export interface VersionRows {
  insertTableVersion(row: NewTableVersionRow): Promise<void>;
  findTableVersion(tableId: string, branch: string, version: number): Promise<TableVersionRow | undefined>;
  /** Records of one branch of a table, by version ascending. */
  listTableVersions(tableId: string, branch: string): Promise<TableVersionRow[]>;
  /** Records still waiting for their manifest to be put in place, optionally of one table. */
  listPendingTableVersions(tableId?: string): Promise<TableVersionRow[]>;
  /** Marks a record finalized: its manifest now sits at `manifest_path`. */
  finalizeTableVersion(tableId: string, branch: string, version: number, final: { manifest_size: number; e_tag: string | null }): Promise<void>;
  /** Deletes the records of the given versions of one branch; returns how many went. */
  deleteTableVersions(tableId: string, branch: string, versions: number[]): Promise<number>;
}

export function versionRows(db: Kysely<Database>): VersionRows {
  return {
    async insertTableVersion(row) {
      await db.insertInto("table_versions").values(encodeMaps<Insertable<TableVersionsTable>, TableVersionMapColumn>(row, maps)).execute();
    },

    async findTableVersion(tableId, branch, version) {
      const row = await db
        .selectFrom("table_versions")
        .selectAll()
        .where("table_id", "=", tableId)
        .where("branch", "=", branch)
        .where("version", "=", version)
        .executeTakeFirst();
      return row && decoded(row);
    },

    listTableVersions: async (tableId, branch) =>
      (
        await db
          .selectFrom("table_versions")
          .selectAll()
          .where("table_id", "=", tableId)
          .where("branch", "=", branch)
          .orderBy("version")
          .execute()
      ).map(decoded),

    async listPendingTableVersions(tableId) {
      let query = db.selectFrom("table_versions").selectAll().where("staged_path", "is not", null);
      if (tableId !== undefined) query = query.where("table_id", "=", tableId);
      return (await query.orderBy("table_id").orderBy("branch").orderBy("version").execute()).map(decoded);
    },

    async finalizeTableVersion(tableId, branch, version, final) {
      await db
        .updateTable("table_versions")
        .set({ staged_path: null, manifest_size: final.manifest_size, e_tag: final.e_tag })
        .where("table_id", "=", tableId)
        .where("branch", "=", branch)
        .where("version", "=", version)
        .execute();
    },

    async deleteTableVersions(tableId, branch, versions) {
      if (versions.length === 0) return 0;
      const result = await db
        .deleteFrom("table_versions")
        .where("table_id", "=", tableId)
        .where("branch", "=", branch)
        .where("version", "in", versions)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
