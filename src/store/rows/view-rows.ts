/**
 * @module Materialized-view definitions: one row per view table, removed with its table.
 */
import type { Kysely, Selectable } from "kysely";
import type { JobJson, MaterializedViewRow, MaterializedViewRowUpdate, MaterializedViewsTable, NewMaterializedViewRow } from "../job-schema.js";
import type { Database } from "../schema.js";

/** A view's row as read, its definition and `udtf_spec` decoded. */
function decodedView(row: Selectable<MaterializedViewsTable>): MaterializedViewRow {
  return { ...row, definition: JSON.parse(row.definition) as JobJson, udtf_spec: row.udtf_spec ? (JSON.parse(row.udtf_spec) as JobJson) : null };
}

export interface ViewRows {
  insertMaterializedView(row: NewMaterializedViewRow): Promise<void>;
  findMaterializedView(tableId: string): Promise<MaterializedViewRow | undefined>;
  updateMaterializedView(tableId: string, update: MaterializedViewRowUpdate): Promise<void>;
  /** Every view with `auto_refresh` on, of every database, in (database, table_id) order. */
  listAutoRefreshViews(): Promise<MaterializedViewRow[]>;
  /** The source versions views last refreshed from table `tableId`, ascending, each once. */
  listViewSourceVersions(tableId: string): Promise<number[]>;
}

export function viewRows(db: Kysely<Database>): ViewRows {
  return {
    async insertMaterializedView(row) {
      const udtfSpec = row.udtf_spec === null ? null : JSON.stringify(row.udtf_spec);
      await db.insertInto("materialized_views").values({ ...row, definition: JSON.stringify(row.definition), udtf_spec: udtfSpec }).execute();
    },
    async findMaterializedView(tableId) {
      const row = await db.selectFrom("materialized_views").selectAll().where("table_id", "=", tableId).executeTakeFirst();
      return row && decodedView(row);
    },
    async updateMaterializedView(tableId, update) {
      await db.updateTable("materialized_views").set(update).where("table_id", "=", tableId).execute();
    },
    listAutoRefreshViews: async () =>
      (await db.selectFrom("materialized_views").selectAll().where("auto_refresh", "=", 1).orderBy("database").orderBy("table_id").execute()).map(decodedView),
    async listViewSourceVersions(tableId) {
      const rows = await db
        .selectFrom("materialized_views")
        .select("refreshed_source_version")
        .distinct()
        .where("refreshed_source_table", "=", tableId)
        .where("refreshed_source_version", "is not", null)
        .execute();
      return rows.map((row) => Number(row.refreshed_source_version)).sort((a, b) => a - b);
    },
  };
}
