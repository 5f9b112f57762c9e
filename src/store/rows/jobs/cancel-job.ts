/**
 * @module Cancellation. A queued job that never ran is cancelled at once. A running job, or a
 * queued one that ran before (waiting for a retry, with partial work to undo), gets
 * `cancel_requested` and is made due now; its worker undoes the partial work and then calls
 * `markJobCancelled`. Finished jobs are left as they are.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../schema.js";
import type { JobLease, JobStatus } from "../../job-schema.js";
import { heldUnder } from "./job-held.js";

/** Returns the job's status after the request, or undefined when there is no such job. */
export async function requestJobCancel(db: Kysely<Database>, database: string, id: string, now: number): Promise<JobStatus | undefined> {
  await db
    .updateTable("jobs")
    .set({ status: "cancelled", finished_at: now, updated_at: now, locked_by: null, locked_until: null })
    .where("database", "=", database)
    .where("id", "=", id)
    .where("status", "=", "queued")
    .where("attempts", "=", 0)
    .execute();
  await db
    .updateTable("jobs")
    .set({ cancel_requested: 1, updated_at: now })
    .where("database", "=", database)
    .where("id", "=", id)
    .where("status", "=", "running")
    .execute();
  await db
    .updateTable("jobs")
    .set({ cancel_requested: 1, run_at: now, updated_at: now })
    .where("database", "=", database)
    .where("id", "=", id)
    .where("status", "=", "queued")
    .where("attempts", ">", 0)
    .execute();
  const row = await db.selectFrom("jobs").select("status").where("database", "=", database).where("id", "=", id).executeTakeFirst();
  return row?.status;
}

/** Ends a running job as cancelled, only while the caller holds its lease. */
export async function markJobCancelled(db: Kysely<Database>, id: string, lease: JobLease, now: number): Promise<boolean> {
  const updated = await db
    .updateTable("jobs")
    .set({ status: "cancelled", locked_by: null, locked_until: null, finished_at: now, updated_at: now })
    .where(heldUnder(id, lease))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}
