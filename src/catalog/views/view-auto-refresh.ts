/**
 * @module Auto refresh of materialized views created with `auto_refresh: true`. The job system
 * calls `autoRefreshMaterializedView` for each such view on a timer (src/jobs/auto-refresh.ts);
 * no write path elsewhere needs a hook, so changes made by any client, even straight through
 * Lance, count. The view is due when its source moved beyond the deployment's thresholds since
 * the view's last refresh; the refresh itself is an ordinary refresh job.
 */
import { type ViewIO, diffSortedIds } from "../../engine/engine.js";
import type { MaterializedViewRow } from "../../store/job-schema.js";
import type { TableRow } from "../../store/schema.js";
import type { CatalogScope } from "../catalog-scope.js";
import { namespaceIdOfKey, namespaceKey } from "../identifiers.js";
import { type AutoRefreshTrigger, queueRefresh, refreshViewJobKind } from "./materialized-views.js";
import type { ViewDefinition } from "./view-definition.js";

/** The deployment-wide policy; a threshold of 0 turns that criterion off. */
export interface AutoRefreshPolicy {
  /** Source row changes (rows added + rows removed, among those passing the view's filter). */
  rows: number;
  /** Source versions committed. */
  versions: number;
  /** Least time between the view's latest refresh (its start, or its end) and the next auto refresh. */
  cooldownMs: number;
}

/**
 * Row-change counts measured in earlier rounds, keyed by view, source and both versions: a
 * source that did not move since is not scanned again. The caller owns it and may drop it.
 */
export type DriftMemo = Map<string, number>;

export type AutoRefreshOutcome =
  | { action: "queued"; jobId: string; trigger: AutoRefreshTrigger }
  | { action: "skipped"; reason: "gone" | "no-source" | "pending" | "cooldown" | "current" | "below-threshold" };

/**
 * Queues a refresh of `view` when its source moved beyond `policy` since the view's last
 * refresh, unless a refresh of the view is already queued or running, or the cooldown has not
 * passed. A view never refreshed counts from an empty source, and a source name that now
 * resolves to another table (dropped and re-created) is always due. Row changes are measured
 * like a refresh plans: the source's row ids passing the filter at the last refreshed version
 * against those at the latest (an update counts twice: its old row leaves, its new row
 * arrives). A baseline Lance no longer has (cleaned up) counts as due. Never throws for a
 * missing view or source: it reports why it skipped.
 */
export async function autoRefreshMaterializedView(
  scope: CatalogScope,
  view: MaterializedViewRow,
  policy: AutoRefreshPolicy,
  memo: DriftMemo = new Map(),
  now = Date.now(),
): Promise<AutoRefreshOutcome> {
  const rows = scope.store.rows;
  const io = scope.engine.views;

  // load
  const table = await rows.findTableById(view.table_id);
  if (!table) return { action: "skipped", reason: "gone" };
  const definition = view.definition as unknown as ViewDefinition;
  const source = await findSource(scope, definition);
  if (!source || !(await scope.engine.datasetExists(source.location))) return { action: "skipped", reason: "no-source" };

  // decide: the cheap store checks first, the source's version next, a row-id scan last
  if (await rows.findActiveJobOn(table.id, refreshViewJobKind)) return { action: "skipped", reason: "pending" };
  const latest = await rows.findLatestJobOn(table.id, refreshViewJobKind);
  if (latest && now - Math.max(latest.created_at, latest.finished_at ?? 0) < policy.cooldownMs) return { action: "skipped", reason: "cooldown" };

  const sourceVersion = await io.version(source.location);
  const replaced = view.refreshed_source_table !== null && view.refreshed_source_table !== source.id;
  const baseline = replaced ? null : view.refreshed_source_version;
  if (baseline === sourceVersion) return { action: "skipped", reason: "current" };
  const versions = baseline === null ? sourceVersion : Math.abs(sourceVersion - baseline);

  let trigger: AutoRefreshTrigger | undefined;
  if (replaced) trigger = { reason: "the source table was replaced", source_version: sourceVersion, versions_committed: versions, rows_changed: null };
  else if (policy.versions > 0 && versions >= policy.versions) {
    trigger = { reason: `${versions} source versions committed (threshold ${policy.versions})`, source_version: sourceVersion, versions_committed: versions, rows_changed: null };
  } else if (policy.rows > 0) {
    const changed = await rowChanges(io, memo, table.id, source, definition.filter, baseline, sourceVersion);
    if (changed >= policy.rows) {
      const measured = Number.isFinite(changed) ? `${changed} source row changes` : "source row changes not measurable (baseline version gone)";
      trigger = { reason: `${measured} (threshold ${policy.rows})`, source_version: sourceVersion, versions_committed: versions, rows_changed: Number.isFinite(changed) ? changed : null };
    }
  }
  if (!trigger) return { action: "skipped", reason: "below-threshold" };

  // write: the pending check again, under the view's row lock, so two checkers (in any
  // process) queue one refresh
  const queued = trigger;
  const id = [...namespaceIdOfKey(table.namespace_path), table.name];
  const jobId = await scope.store.transaction(async (tx) => {
    if (!(await tx.lockTableRow(table.id))) return undefined;
    if (await tx.findActiveJobOn(table.id, refreshViewJobKind)) return undefined;
    const jobId = await queueRefresh(tx, scope, id, table.id, { auto_refresh: queued });
    await tx.insertJobEvent({ job_id: jobId, at: Date.now(), state: "auto_refresh", emitted_by: "catalog", claim_entity: null, rows_processed: queued.rows_changed, message: queued.reason });
    return jobId;
  });
  return jobId ? { action: "queued", jobId, trigger: queued } : { action: "skipped", reason: "pending" };
}

async function findSource(scope: CatalogScope, definition: ViewDefinition): Promise<TableRow | undefined> {
  const name = definition.source[definition.source.length - 1] as string;
  return scope.store.rows.findTableByName(scope.database.name, namespaceKey(definition.source.slice(0, -1)), name);
}

/** Rows added + removed between `baseline` (null = empty) and `current`; Infinity if unmeasurable. */
async function rowChanges(
  io: ViewIO,
  memo: DriftMemo,
  viewId: string,
  source: TableRow,
  filter: string | null,
  baseline: number | null,
  current: number,
): Promise<number> {
  const key = `${viewId}:${source.id}:${baseline ?? "-"}:${current}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  let changed: number;
  try {
    const now = await io.sourceRowIds(source.location, current, filter);
    if (baseline === null) changed = now.length;
    else {
      const before = await io.sourceRowIds(source.location, baseline, filter);
      const { onlyA, onlyB } = diffSortedIds(now, before);
      changed = onlyA.length + onlyB.length;
    }
  } catch {
    // The baseline was cleaned up, or the filter no longer applies to the source's schema: let
    // the refresh decide (it rebuilds, or fails with the reason in its job record).
    changed = Number.POSITIVE_INFINITY;
  }
  memo.set(key, changed);
  return changed;
}
