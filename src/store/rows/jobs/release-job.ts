/**
 * @module Gives a running job back without finishing it (graceful shutdown): its lease ends
 * now, so any worker can resume it at once instead of waiting for the lease to expire.
 */
import type { Kysely } from "kysely";
import type { JobLease } from "../../job-schema.js";
import type { Database } from "../../schema.js";
import { heldUnder } from "./job-held.js";
import { returnRunningItems } from "./job-items.js";

export async function releaseJob(db: Kysely<Database>, id: string, lease: JobLease, now: number): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set({ locked_by: null, locked_until: 0, updated_at: now })
    .where(heldUnder(id, lease))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await returnRunningItems(db, id, now, lease.workerId);
  return true;
}
