/**
 * @module The heartbeat: pushes a job's lease (and its items' leases) forward, only while the
 * caller still holds it. Tells the worker whether it still holds the job and whether a cancel
 * was requested, so one round trip does both.
 */
import type { Kysely } from "kysely";
import type { JobLease } from "../../job-schema.js";
import type { Database } from "../../schema.js";
import { heldUnder } from "./job-held.js";

export interface LeaseState {
  held: boolean;
  cancelRequested: boolean;
}

export async function extendJobLease(db: Kysely<Database>, id: string, lease: JobLease, now: number, leaseMs: number): Promise<LeaseState> {
  const result = await db
    .updateTable("jobs")
    .set({ locked_until: now + leaseMs, heartbeat_at: now })
    .where(heldUnder(id, lease))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return { held: false, cancelRequested: false };
  await db
    .updateTable("job_items")
    .set({ locked_until: now + leaseMs })
    .where("job_id", "=", id)
    .where("locked_by", "=", lease.workerId)
    .where("status", "=", "running")
    .execute();
  const row = await db.selectFrom("jobs").select("cancel_requested").where("id", "=", id).executeTakeFirst();
  return { held: true, cancelRequested: row?.cancel_requested === 1 };
}
