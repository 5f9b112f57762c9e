/**
 * @module The fence of every write a job's worker makes: the job is running, under this worker,
 * in this attempt. A write that finds no such row was overtaken (the lease expired and another
 * claim took the job) and changes nothing.
 */
import type { ExpressionBuilder } from "kysely";
import type { JobLease } from "../../job-schema.js";
import type { Database } from "../../schema.js";

export const heldUnder =
  (id: string, lease: JobLease) =>
  (eb: ExpressionBuilder<Database, "jobs">) =>
    eb.and([eb("jobs.id", "=", id), eb("jobs.locked_by", "=", lease.workerId), eb("jobs.attempts", "=", lease.attempt), eb("jobs.status", "=", "running")]);
