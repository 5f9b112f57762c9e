/**
 * @module Operator settings of the job system, from the runtime config or the environment:
 * QUIVER_WORKER_POOLS (comma-separated pool names a refresh's `cluster` may name; the first is
 * the default; default "default"), QUIVER_JOB_LEASE_MS (default 15000), QUIVER_JOB_POLL_MS
 * (default 200), QUIVER_JOB_CONCURRENCY (jobs run at once by one process; default 2), and the
 * auto-refresh policy of materialized views: QUIVER_AUTO_REFRESH_ROWS (default 1000),
 * QUIVER_AUTO_REFRESH_VERSIONS (default 20), QUIVER_AUTO_REFRESH_COOLDOWN_MS (default 60000),
 * QUIVER_AUTO_REFRESH_INTERVAL_MS (default 5000; 0 turns auto refresh off); and the upkeep of
 * tables: QUIVER_AUTO_MAINTENANCE (on|off, default on), QUIVER_VERSION_RETENTION (default 7 days),
 * QUIVER_AUTO_MAINTENANCE_INTERVAL_MS (default 30000; 0 turns the periodic pass off).
 */
import { defaultCompactionThresholds } from "../catalog/maintenance/maintenance-needs.js";
import { backoffDelay } from "../model/retry.js";

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
  /** When views with `auto_refresh: true` are refreshed without being asked. */
  autoRefresh?: AutoRefreshConfig;
  /** When tables are compacted, re-indexed and cleaned up without being asked. */
  autoMaintenance?: AutoMaintenanceConfig;
}

/**
 * The deployment-wide auto-refresh policy. A view is due when its source changed by at least
 * `rows` rows or `versions` versions since the view's last refresh (either one; 0 turns that
 * criterion off), and no refresh of the view is queued or running, and the view's latest
 * refresh started or ended at least `cooldownMs` ago.
 */
export interface AutoRefreshConfig {
  /** Source rows added, changed or removed (among those passing the view's filter). */
  rows?: number;
  /** Source versions committed. */
  versions?: number;
  cooldownMs?: number;
  /** How often the check runs; 0 turns auto refresh off in this process. */
  intervalMs?: number;
}

export type AutoRefreshSettings = Required<AutoRefreshConfig>;

/**
 * The deployment-wide upkeep of tables (docs/maintenance.md). A database's setting and a
 * namespace's or table's `quiver.auto_maintenance` property override `enabled`; a namespace's or
 * table's `quiver.version_retention` overrides `retentionMs`; the rest applies everywhere.
 */
export interface AutoMaintenanceConfig {
  /** Whether tables are maintained when neither their database nor their properties say. */
  enabled?: boolean;
  /** Versions committed longer ago than this are removed (never a protected one). */
  retentionMs?: number;
  /** How often every table is looked at; 0 leaves only the look after commits. */
  intervalMs?: number;
  /** Fragments below the target size that make compaction due. */
  smallFragments?: number;
  /** Share of a table's rows deleted (0–1) that makes compaction due. */
  deletedShare?: number;
}

export type AutoMaintenanceSettings = Required<AutoMaintenanceConfig>;

export type JobSystemSettings = Required<Omit<JobSystemConfig, "autoRefresh" | "autoMaintenance">> & {
  autoRefresh: AutoRefreshSettings;
  autoMaintenance: AutoMaintenanceSettings;
};

/** The retention of versions when none is set: 7 days. */
export const defaultVersionRetentionMs = 7 * 86_400_000;

/**
 * An integer setting of at least `least` from the environment, or `fallback` when unset. A value
 * that is set but not such an integer is refused by name, never silently replaced by the default.
 */
export function integerSetting(env: NodeJS.ProcessEnv, name: string, least: number, fallback: number): number {
  const text = env[name];
  if (text === undefined || text.trim() === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < least) throw new Error(`${name} must be an integer of at least ${least}, got '${text}'`);
  return value;
}

export function jobSettings(config: JobSystemConfig = {}, env: NodeJS.ProcessEnv = process.env): JobSystemSettings {
  const pools = config.pools ?? (env.QUIVER_WORKER_POOLS ? env.QUIVER_WORKER_POOLS.split(",").map((p) => p.trim()).filter(Boolean) : ["default"]);
  return {
    pools: pools.length > 0 ? pools : ["default"],
    leaseMs: config.leaseMs ?? integerSetting(env, "QUIVER_JOB_LEASE_MS", 1, 15_000),
    pollMs: config.pollMs ?? integerSetting(env, "QUIVER_JOB_POLL_MS", 1, 200),
    maxConcurrentJobs: config.maxConcurrentJobs ?? integerSetting(env, "QUIVER_JOB_CONCURRENCY", 1, 2),
    backoffBaseMs: config.backoffBaseMs ?? 1_000,
    backoffCapMs: config.backoffCapMs ?? 60_000,
    runWorker: config.runWorker ?? true,
    autoRefresh: {
      rows: config.autoRefresh?.rows ?? integerSetting(env, "QUIVER_AUTO_REFRESH_ROWS", 0, 1_000),
      versions: config.autoRefresh?.versions ?? integerSetting(env, "QUIVER_AUTO_REFRESH_VERSIONS", 0, 20),
      cooldownMs: config.autoRefresh?.cooldownMs ?? integerSetting(env, "QUIVER_AUTO_REFRESH_COOLDOWN_MS", 0, 60_000),
      intervalMs: config.autoRefresh?.intervalMs ?? integerSetting(env, "QUIVER_AUTO_REFRESH_INTERVAL_MS", 0, 5_000),
    },
    autoMaintenance: {
      enabled: config.autoMaintenance?.enabled ?? switchSetting(env, "QUIVER_AUTO_MAINTENANCE", true),
      retentionMs: config.autoMaintenance?.retentionMs ?? defaultVersionRetentionMs,
      intervalMs: config.autoMaintenance?.intervalMs ?? integerSetting(env, "QUIVER_AUTO_MAINTENANCE_INTERVAL_MS", 0, 30_000),
      smallFragments: config.autoMaintenance?.smallFragments ?? defaultCompactionThresholds.smallFragments,
      deletedShare: config.autoMaintenance?.deletedShare ?? defaultCompactionThresholds.deletedShare,
    },
  };
}

/** An on/off setting from the environment (on, off, true, false, 1, 0), or `fallback` when unset. */
export function switchSetting(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const text = env[name]?.trim().toLowerCase();
  if (text === undefined || text === "") return fallback;
  if (["on", "true", "1"].includes(text)) return true;
  if (["off", "false", "0"].includes(text)) return false;
  throw new Error(`${name} must be on or off, got '${env[name]}'`);
}

/** Delay before attempt `attempts + 1`: base × 2^(attempts − 1), capped. */
export function retryDelay(attempts: number, baseMs: number, capMs: number): number {
  return backoffDelay({ firstMs: baseMs, capMs }, attempts);
}
