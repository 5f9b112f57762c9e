/**
 * @module Records a failed attempt, only while the caller holds the lease. With `retryAt` the
 * job goes back to `queued` and becomes due again then (the worker computes a capped
 * exponential backoff); without it the job is `failed` for good.
 */
import type { Kysely } from "kysely";
import type { JobLease } from "../../job-schema.js";
import type { Database } from "../../schema.js";
import { heldUnder } from "./job-held.js";
import { returnRunningItems } from "./job-items.js";

export interface JobFailure {
  error: string;
  phase: string;
  /** When to try again; undefined = no more attempts. */
  retryAt?: number;
}

export async function failJob(db: Kysely<Database>, id: string, lease: JobLease, failure: JobFailure, now: number): Promise<boolean> {
  const retry = failure.retryAt !== undefined;
  const updated = await db
    .updateTable("jobs")
    .set({
      status: retry ? "queued" : "failed",
      run_at: failure.retryAt ?? now,
      last_error: failure.error,
      error_phase: failure.phase,
      locked_by: null,
      locked_until: null,
      updated_at: now,
      finished_at: retry ? null : now,
    })
    .where(heldUnder(id, lease))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return false;
  // Items this worker held go back to the pool for the next attempt.
  await returnRunningItems(db, id, now);
  return true;
}
