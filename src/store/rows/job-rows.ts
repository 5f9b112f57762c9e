/**
 * @module Job rows: binds the job-store operations (one file each under `jobs/`) to a
 * connection or transaction, like the other row modules.
 */
import type { Kysely } from "kysely";
import type { DialectAdapter } from "../dialect-adapter.js";
import type { JobEventRow, JobItemRow, JobJson, JobLease, JobRow, JobStatus, NewJobEventRow, NewJobRow } from "../job-schema.js";
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
import { countJobsByStatus } from "./jobs/count-jobs.js";

export interface JobRows {
  insertJob(row: NewJobRow): Promise<void>;
  findJob(database: string, id: string): Promise<JobRow | undefined>;
  findActiveJobOn(target: string, kind: string): Promise<JobRow | undefined>;
  findLatestJobOn(target: string, kind: string): Promise<JobRow | undefined>;
  listJobs(database: string, after: JobCursor | undefined, limit: number, filter?: ListJobsFilter): Promise<JobRow[]>;
  claimJob(options: ClaimJobOptions): Promise<JobRow | undefined>;
  extendJobLease(id: string, lease: JobLease, now: number, leaseMs: number): Promise<LeaseState>;
  saveJobProgress(id: string, lease: JobLease, update: JobProgressUpdate, now: number): Promise<boolean>;
  completeJob(id: string, lease: JobLease, result: JobJson, now: number): Promise<boolean>;
  failJob(id: string, lease: JobLease, failure: JobFailure, now: number): Promise<boolean>;
  failAbandonedJobs(now: number): Promise<string[]>;
  releaseJob(id: string, lease: JobLease, now: number): Promise<boolean>;
  requestJobCancel(database: string, id: string, now: number): Promise<JobStatus | undefined>;
  markJobCancelled(id: string, lease: JobLease, now: number): Promise<boolean>;
  replaceJobItems(jobId: string, lease: JobLease, params: readonly JobJson[], now: number): Promise<boolean>;
  claimJobItem(jobId: string, lease: JobLease, now: number, leaseMs: number): Promise<JobItemRow | undefined>;
  completeJobItem(jobId: string, seq: number, lease: JobLease, rowsWritten: number, now: number): Promise<boolean>;
  countJobItems(jobId: string): Promise<JobItemCounts>;
  insertJobEvent(row: NewJobEventRow): Promise<void>;
  listJobEvents(database: string, filter: JobEventFilter, limit: number): Promise<JobEventRow[]>;
  countJobsByStatus(): Promise<Partial<Record<JobStatus, number>>>;
}

export function jobRows(db: Kysely<Database>, adapter: DialectAdapter): JobRows {
  return {
    insertJob: (row) => insertJob(db, row),
    findJob: (database, id) => findJob(db, database, id),
    findActiveJobOn: (target, kind) => findActiveJobOn(db, target, kind),
    findLatestJobOn: (target, kind) => findLatestJobOn(db, target, kind),
    listJobs: (database, after, limit, filter) => listJobs(db, database, after, limit, filter),
    claimJob: (options) => claimJob(db, adapter, options),
    extendJobLease: (id, lease, now, leaseMs) => extendJobLease(db, id, lease, now, leaseMs),
    saveJobProgress: (id, lease, update, now) => saveJobProgress(db, id, lease, update, now),
    completeJob: (id, lease, result, now) => completeJob(db, id, lease, result, now),
    failJob: (id, lease, failure, now) => failJob(db, id, lease, failure, now),
    failAbandonedJobs: (now) => failAbandonedJobs(db, now),
    releaseJob: (id, lease, now) => releaseJob(db, id, lease, now),
    requestJobCancel: (database, id, now) => requestJobCancel(db, database, id, now),
    markJobCancelled: (id, lease, now) => markJobCancelled(db, id, lease, now),
    replaceJobItems: (jobId, lease, params, now) => replaceJobItems(db, jobId, lease, params, now),
    claimJobItem: (jobId, lease, now, leaseMs) => claimJobItem(db, adapter, jobId, lease, now, leaseMs),
    completeJobItem: (jobId, seq, lease, rowsWritten, now) => completeJobItem(db, jobId, seq, lease, rowsWritten, now),
    countJobItems: (jobId) => countJobItems(db, jobId),
    insertJobEvent: (row) => insertJobEvent(db, row),
    listJobEvents: (database, filter, limit) => listJobEvents(db, database, filter, limit),
    countJobsByStatus: () => countJobsByStatus(db),
  };
}
