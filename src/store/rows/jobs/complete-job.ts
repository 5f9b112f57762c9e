/** @module Marks a job succeeded, only while the caller holds its lease. */
import type { Kysely } from "kysely";
import type { Database } from "../../schema.js";

export async function completeJob(db: Kysely<Database>, id: string, workerId: string, result: string, now: number): Promise<boolean> {
  const updated = await db
    .updateTable("jobs")
    .set({ status: "succeeded", result, locked_by: null, locked_until: null, finished_at: now, updated_at: now, last_error: null, error_phase: null })
    .where("id", "=", id)
    .where("locked_by", "=", workerId)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}
