/**
 * @module Operator settings of the job system, from the runtime config or the environment:
 * QUIVER_WORKER_POOLS (comma-separated pool names a refresh's `cluster` may name; the first is
 * the default; default "default"), QUIVER_JOB_LEASE_MS (default 15000), QUIVER_JOB_POLL_MS
 * (default 200), QUIVER_JOB_CONCURRENCY (jobs run at once by one process; default 2).
 */
export interface JobSystemConfig {
  pools?: string[];
  /** How long a claim lasts without a heartbeat; a dead worker's jobs resume after it. */
  leaseMs?: number;
  /** How often an idle worker looks for due jobs. */
  pollMs?: number;
  /** Jobs one process runs at the same time. */
  maxConcurrentJobs?: number;
  /** Retry delay base and cap for failed attempts (capped exponential backoff). */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** False: this process queues jobs but runs none (another process's worker does). */
  runWorker?: boolean;
}

export type JobSystemSettings = Required<JobSystemConfig>;

function positive(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return text !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}

export function jobSettings(config: JobSystemConfig = {}, env: NodeJS.ProcessEnv = process.env): JobSystemSettings {
  const pools = config.pools ?? (env.QUIVER_WORKER_POOLS ? env.QUIVER_WORKER_POOLS.split(",").map((p) => p.trim()).filter(Boolean) : ["default"]);
  return {
    pools: pools.length > 0 ? pools : ["default"],
    leaseMs: config.leaseMs ?? positive(env.QUIVER_JOB_LEASE_MS, 15_000),
    pollMs: config.pollMs ?? positive(env.QUIVER_JOB_POLL_MS, 200),
    maxConcurrentJobs: config.maxConcurrentJobs ?? positive(env.QUIVER_JOB_CONCURRENCY, 2),
    backoffBaseMs: config.backoffBaseMs ?? 1_000,
    backoffCapMs: config.backoffCapMs ?? 60_000,
    runWorker: config.runWorker ?? true,
  };
}

/** Delay before attempt `attempts + 1`: base × 2^(attempts − 1), capped. */
export function retryDelay(attempts: number, baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempts - 1));
}
