/**
 * @module Puts work on the durable job queue. Catalog operations that answer 202 call this
 * inside their transaction, so the job exists exactly when the request succeeded.
 */
import { randomUUID } from "node:crypto";
import type { StoreTx } from "../../store/store.js";
import { invalidInput } from "../../model/catalog-error.js";
import { jobsQueued } from "../../metrics/metrics.js";
import type { CatalogScope } from "../catalog-scope.js";

export const defaultPool = "default";
/** Attempts before a job that keeps failing for transient reasons is failed for good. */
export const defaultMaxAttempts = 3;

export interface NewJob {
  kind: string;
  target: string;
  targetName: string;
  params: Record<string, unknown>;
  pool: string;
  /** When the job becomes due (epoch ms); default now. */
  runAt?: number;
}

/** The pools this deployment runs; `cluster` must name one of them. */
export function configuredPools(scope: CatalogScope): readonly string[] {
  return scope.jobs?.pools ?? [defaultPool];
}

/** Resolves a request's `cluster` to a pool; an unknown name is InvalidInput (13). */
export function resolvePool(scope: CatalogScope, cluster: string | null | undefined): string {
  const pools = configuredPools(scope);
  if (cluster === undefined || cluster === null || cluster === "") return pools[0] ?? defaultPool;
  if (!pools.includes(cluster)) {
    throw invalidInput(`cluster '${cluster}' is not a worker pool of this deployment; configured: ${pools.join(", ")}`);
  }
  return cluster;
}

/** Inserts a queued job (due now, or at `job.runAt`) in `tx`; returns its id. */
export async function enqueueJob(tx: StoreTx, database: string, job: NewJob): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await tx.insertJob({
    id,
    database,
    kind: job.kind,
    target: job.target,
    target_name: job.targetName,
    pool: job.pool,
    params: job.params,
    state: {},
    status: "queued",
    cancel_requested: 0,
    attempts: 0,
    max_attempts: defaultMaxAttempts,
    run_at: job.runAt ?? now,
    locked_by: null,
    locked_until: null,
    heartbeat_at: null,
    items_total: 0,
    items_done: 0,
    rows_written: 0,
    result: null,
    last_error: null,
    error_phase: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    finished_at: null,
  });
  jobsQueued.inc({ kind: job.kind });
  return id;
}
