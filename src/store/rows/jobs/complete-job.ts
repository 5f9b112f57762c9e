/** @module Marks a job succeeded, only while the caller holds its lease (this attempt). */
import type { Kysely } from "kysely";
import type { JobJson, JobLease } from "../../job-schema.js";
import type { Database } from "../../schema.js";
import { heldUnder } from "./job-held.js";

export async function completeJob(db: Kysely<Database>, id: string, lease: JobLease, result: JobJson, now: number): Promise<boolean> {
  const updated = await db
    .updateTable("jobs")
    .set({ status: "succeeded", result: JSON.stringify(result), locked_by: null, locked_until: null, finished_at: now, updated_at: now, last_error: null, error_phase: null })
    .where(heldUnder(id, lease))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}
