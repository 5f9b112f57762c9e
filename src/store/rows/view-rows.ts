/**
 * @module Materialized-view definitions: one row per view table, removed with its table.
 */
import type { Kysely } from "kysely";
import type { MaterializedViewRow, MaterializedViewRowUpdate, NewMaterializedViewRow } from "../job-schema.js";
import type { Database } from "../schema.js";

export interface ViewRows {
  insertMaterializedView(row: NewMaterializedViewRow): Promise<void>;
  findMaterializedView(tableId: string): Promise<MaterializedViewRow | undefined>;
  updateMaterializedView(tableId: string, update: MaterializedViewRowUpdate): Promise<void>;
  /** Every view with `auto_refresh` on, of every database, in (database, table_id) order. */
  listAutoRefreshViews(): Promise<MaterializedViewRow[]>;
}

export function viewRows(db: Kysely<Database>): ViewRows {
  return {
    async insertMaterializedView(row) {
      await db.insertInto("materialized_views").values(row).execute();
    },
    findMaterializedView: (tableId) => db.selectFrom("materialized_views").selectAll().where("table_id", "=", tableId).executeTakeFirst(),
    async updateMaterializedView(tableId, update) {
      await db.updateTable("materialized_views").set(update).where("table_id", "=", tableId).execute();
    },
    listAutoRefreshViews: () =>
      db.selectFrom("materialized_views").selectAll().where("auto_refresh", "=", 1).orderBy("database").orderBy("table_id").execute(),
  };
}
