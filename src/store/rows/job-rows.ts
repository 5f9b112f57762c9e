/**
 * @module Job rows: binds the job-store operations (one file each under `jobs/`) to a
 * connection or transaction, like the other row modules.
 */
import type { Kysely } from "kysely";
import type { JobEventRow, JobItemRow, JobRow, JobStatus, NewJobEventRow, NewJobRow } from "../job-schema.js";
import type { Database } from "../schema.js";
import { type JobCursor, type ListJobsFilter, listJobs } from "./jobs/list-jobs.js";
import { type ClaimJobOptions, claimJob } from "./jobs/claim-job.js";
import { type JobFailure, failJob } from "./jobs/fail-job.js";
import { type JobProgressUpdate, saveJobProgress } from "./jobs/save-job-progress.js";
import { type LeaseState, extendJobLease } from "./jobs/extend-job-lease.js";
import { type JobEventFilter, insertJobEvent, listJobEvents } from "./jobs/job-events.js";
import { type JobItemCounts, claimJobItem, completeJobItem, countJobItems, replaceJobItems } from "./jobs/job-items.js";
import { completeJob } from "./jobs/complete-job.js";
import { failAbandonedJobs } from "./jobs/fail-abandoned-jobs.js";
import { findActiveJobOn, findJob, findLatestJobOn } from "./jobs/find-job.js";
import { insertJob } from "./jobs/insert-job.js";
import { markJobCancelled, requestJobCancel } from "./jobs/cancel-job.js";
import { releaseJob } from "./jobs/release-job.js";

export interface JobRows {
  insertJob(row: NewJobRow): Promise<void>;
  findJob(database: string, id: string): Promise<JobRow | undefined>;
  findActiveJobOn(target: string, kind: string): Promise<JobRow | undefined>;
  findLatestJobOn(target: string, kind: string): Promise<JobRow | undefined>;
  listJobs(database: string, after: JobCursor | undefined, limit: number, filter?: ListJobsFilter): Promise<JobRow[]>;
  claimJob(options: ClaimJobOptions): Promise<JobRow | undefined>;
  extendJobLease(id: string, workerId: string, now: number, leaseMs: number): Promise<LeaseState>;
  saveJobProgress(id: string, workerId: string, update: JobProgressUpdate, now: number): Promise<boolean>;
  completeJob(id: string, workerId: string, result: string, now: number): Promise<boolean>;
  failJob(id: string, workerId: string, failure: JobFailure, now: number): Promise<boolean>;
  failAbandonedJobs(now: number): Promise<string[]>;
  releaseJob(id: string, workerId: string, now: number): Promise<boolean>;
  requestJobCancel(database: string, id: string, now: number): Promise<JobStatus | undefined>;
  markJobCancelled(id: string, workerId: string, now: number): Promise<boolean>;
  replaceJobItems(jobId: string, params: readonly string[], now: number): Promise<void>;
  claimJobItem(jobId: string, workerId: string, now: number, leaseMs: number): Promise<JobItemRow | undefined>;
  completeJobItem(jobId: string, seq: number, workerId: string, rowsWritten: number, now: number): Promise<boolean>;
  countJobItems(jobId: string): Promise<JobItemCounts>;
  insertJobEvent(row: NewJobEventRow): Promise<void>;
  listJobEvents(database: string, filter: JobEventFilter, limit: number): Promise<JobEventRow[]>;
}

export function jobRows(db: Kysely<Database>): JobRows {
  return {
    insertJob: (row) => insertJob(db, row),
    findJob: (database, id) => findJob(db, database, id),
    findActiveJobOn: (target, kind) => findActiveJobOn(db, target, kind),
    findLatestJobOn: (target, kind) => findLatestJobOn(db, target, kind),
    listJobs: (database, after, limit, filter) => listJobs(db, database, after, limit, filter),
    claimJob: (options) => claimJob(db, options),
    extendJobLease: (id, workerId, now, leaseMs) => extendJobLease(db, id, workerId, now, leaseMs),
    saveJobProgress: (id, workerId, update, now) => saveJobProgress(db, id, workerId, update, now),
    completeJob: (id, workerId, result, now) => completeJob(db, id, workerId, result, now),
    failJob: (id, workerId, failure, now) => failJob(db, id, workerId, failure, now),
    failAbandonedJobs: (now) => failAbandonedJobs(db, now),
    releaseJob: (id, workerId, now) => releaseJob(db, id, workerId, now),
    requestJobCancel: (database, id, now) => requestJobCancel(db, database, id, now),
    markJobCancelled: (id, workerId, now) => markJobCancelled(db, id, workerId, now),
    replaceJobItems: (jobId, params, now) => replaceJobItems(db, jobId, params, now),
    claimJobItem: (jobId, workerId, now, leaseMs) => claimJobItem(db, jobId, workerId, now, leaseMs),
    completeJobItem: (jobId, seq, workerId, rowsWritten, now) => completeJobItem(db, jobId, seq, workerId, rowsWritten, now),
    countJobItems: (jobId) => countJobItems(db, jobId),
    insertJobEvent: (row) => insertJobEvent(db, row),
    listJobEvents: (database, filter, limit) => listJobEvents(db, database, filter, limit),
  };
}
