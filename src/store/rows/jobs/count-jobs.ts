/** @module Counts every job in the store by status, across databases: the jobs gauge of /metrics. */
import type { Kysely } from "kysely";
import type { JobStatus } from "../../job-schema.js";
import type { Database } from "../../schema.js";

export async function countJobsByStatus(db: Kysely<Database>): Promise<Partial<Record<JobStatus, number>>> {
  const rows = await db.selectFrom("jobs").select(["status", (eb) => eb.fn.countAll<string | number>().as("count")]).groupBy("status").execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}
