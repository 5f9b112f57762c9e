/**
 * @module The `backfill_column` job: fills a computed column in one Lance commit. The native
 * call cannot be interrupted, so a cancel arriving meanwhile takes effect when it returns, and
 * undo then restores the table's version from before the job.
 */
import type { JobHandler } from "./job-handler.js";
import { PermanentJobError } from "./job-handler.js";
import { namespaceIdOfKey } from "../identifiers.js";
import { recordCommittedWrite } from "../transaction-records.js";

export const backfillColumnHandler: JobHandler = {
  async run(ctx) {
    const { column } = ctx.job.params as { column: string };
    const table = await ctx.scope.store.rows.findTableById(ctx.job.target);
    if (!table) throw new PermanentJobError(`the table '${ctx.job.target_name}' was dropped`, "load");
    ctx.checkpoint();
    const result = await ctx.scope.engine.computed.refresh(table.location, column);
    await ctx.saveState({ previous_version: result.previousVersion, version: result.version });
    await recordCommittedWrite(ctx.scope, "AlterTableBackfillColumns", [...namespaceIdOfKey(table.namespace_path), table.name], result.version, null, {
      column,
      num_updated_rows: result.rowsFilled,
      job_id: ctx.job.id,
    });
    await ctx.setProgress({ itemsTotal: 1, itemsDone: 1, rowsWritten: result.rowsFilled });
    // The fill is one commit over every row lacking a value, so each assigned row is written or
    // the job fails as a whole: none is left failed or remaining once it succeeds.
    return {
      column,
      rows_assigned: result.rowsFilled,
      rows_failed: 0,
      rows_remaining: 0,
      rows_written: result.rowsFilled,
      source_version: result.previousVersion,
      published_version: result.version,
      version: result.version,
      previous_version: result.previousVersion,
    };
  },

  async undo(ctx) {
    const previous = ctx.state.previous_version;
    const table = await ctx.scope.store.rows.findTableById(ctx.job.target);
    if (typeof previous === "number" && table) await ctx.scope.engine.restoreTable(table.location, previous);
  },
};
