/**
 * @module Fails, with a reason, running jobs whose worker stopped (lease expired) and that have
 * no attempts left. Other expired jobs stay `running` and are resumed by the next claim; no job
 * is ever silently lost. Returns the ids it failed.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../schema.js";

export async function failAbandonedJobs(db: Kysely<Database>, now: number): Promise<string[]> {
  const abandoned = await db
    .selectFrom("jobs")
    .select(["id", "locked_until", "attempts"])
    .where("status", "=", "running")
    .where("locked_until", "<", now)
    .whereRef("attempts", ">=", "max_attempts")
    .execute();
  const failed: string[] = [];
  for (const job of abandoned) {
    const updated = await db
      .updateTable("jobs")
      .set({
        status: "failed",
        last_error: `the worker running this job stopped (lease expired) and all ${job.attempts} attempts are used`,
        error_phase: "lease",
        locked_by: null,
        locked_until: null,
        finished_at: now,
        updated_at: now,
      })
      .where("id", "=", job.id)
      .where("status", "=", "running")
      .where("locked_until", "=", job.locked_until)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 1) failed.push(job.id);
  }
  return failed;
}
