/**
 * @module How automatic maintenance stands for one table: its effective policy with where each
 * part comes from, and its latest `auto_maintenance` job summed up (one indexed store read each).
 */
import { type AutoMaintenancePolicy, type AutoMaintenanceRun, defaultRetentionSeconds } from "../../model/maintenance.js";
import type { JobRow } from "../../store/job-schema.js";
import type { NamespaceRow, TableRow } from "../../store/schema.js";
import type { CatalogScope } from "../catalog-scope.js";
import { autoMaintenanceJobKind } from "./auto-maintenance-job.js";
import { defaultCompactionThresholds, type MaintenanceThresholds } from "./maintenance-needs.js";
import { enclosingNamespaces, type MaintenancePolicy, maintenancePolicy, type ServerMaintenanceDefaults } from "./maintenance-policy.js";

/** The server's settings as the scope knows them: on, 7 days and the default thresholds when it was given none. */
export function serverMaintenanceDefaults(scope: CatalogScope): ServerMaintenanceDefaults & MaintenanceThresholds {
  return scope.jobs?.autoMaintenance ?? { enabled: true, retentionMs: defaultRetentionSeconds * 1000, ...defaultCompactionThresholds };
}

/** The effective policy of table `row`; `cache` lets a caller looking at many tables read each namespace once. */
export async function policyOfTable(scope: CatalogScope, row: TableRow, cache?: Map<string, NamespaceRow | undefined>): Promise<MaintenancePolicy> {
  const namespaces = await enclosingNamespaces(scope.store.rows, scope.database.name, row.namespace_path, cache);
  return maintenancePolicy(row, namespaces, scope.database, serverMaintenanceDefaults(scope));
}

/** The latest `auto_maintenance` job of table `tableId`, summed up; undefined when none ran. */
export async function lastAutoMaintenanceRun(scope: CatalogScope, tableId: string): Promise<AutoMaintenanceRun | undefined> {
  const job = await scope.store.rows.findLatestJobOn(tableId, autoMaintenanceJobKind);
  return job && summaryOf(job);
}

function summaryOf(job: JobRow): AutoMaintenanceRun {
  const result = job.result ?? {};
  const count = (key: string) => (typeof result[key] === "number" ? (result[key] as number) : null);
  // A run that yielded to writers succeeds with its reason in the result.
  const yielded = typeof result.error === "string" ? result.error : null;
  return {
    job_id: job.id,
    status: job.status,
    created_at_ms: job.created_at,
    finished_at_ms: job.finished_at,
    due: ((job.params as { due?: Record<string, string> }).due ?? {}) as Record<string, string>,
    fragments_before: count("fragments_before"),
    fragments_after: count("fragments_after"),
    versions_removed: count("versions_removed"),
    error: job.status === "failed" ? job.last_error : yielded,
  };
}

/** The policy of table `row` as DescribeTableMaintenanceSchedule answers it, with its last run. */
export async function describeAutoMaintenancePolicy(scope: CatalogScope, row: TableRow): Promise<AutoMaintenancePolicy> {
  const policy = await policyOfTable(scope, row);
  return {
    auto_maintenance: policy.enabled ? "on" : "off",
    source: policy.source,
    version_retention_seconds: Math.floor(policy.retentionMs / 1000),
    version_retention_source: policy.retentionSource,
    last_run: (await lastAutoMaintenanceRun(scope, row.id)) ?? null,
  };
}
