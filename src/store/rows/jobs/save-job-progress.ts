/**
 * @module Records what a running job has done: its resumable state, item counts and rows
 * written. Fenced like every state change: only the lease holder may write.
 */
import type { Kysely } from "kysely";
import type { JobJson, JobLease } from "../../job-schema.js";
import type { Database } from "../../schema.js";
import { heldUnder } from "./job-held.js";

export interface JobProgressUpdate {
  state?: JobJson;
  itemsTotal?: number;
  itemsDone?: number;
  rowsWritten?: number;
}

export async function saveJobProgress(db: Kysely<Database>, id: string, lease: JobLease, update: JobProgressUpdate, now: number): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set({
      updated_at: now,
      ...(update.state !== undefined ? { state: JSON.stringify(update.state) } : {}),
      ...(update.itemsTotal !== undefined ? { items_total: update.itemsTotal } : {}),
      ...(update.itemsDone !== undefined ? { items_done: update.itemsDone } : {}),
      ...(update.rowsWritten !== undefined ? { rows_written: update.rowsWritten } : {}),
    })
    .where(heldUnder(id, lease))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
