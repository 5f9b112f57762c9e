/**
 * @module The `refresh_materialized_view` job: brings a view up to date with its source.
 *
 * Plan (once per job, resumable): fix the source version, decide incremental or rebuild,
 * diff the source's row ids at that version (rows passing the filter) against the
 * `__source_row_id`s in the view, delete view rows whose source row is gone, and split the
 * new source ids into work items of `source_task_size` ids. Apply: workers claim items from the
 * store and append each item's view rows (view-io.ts `writeRange`, idempotent). Finish: record
 * what the view now reflects. Cancel or final failure restores the view's version from
 * before the job. Why row ids work as change keys, and their limits: docs/materialized-views.md.
 */
import { createHash } from "node:crypto";
import type { RefreshJobParams } from "./materialized-views.js";
import type { ViewDefinition } from "./view-definition.js";
import { type RowBudget, type ViewIO, type ViewQuerySpec, diffSortedIds } from "../../engine/engine.js";
import type { MaterializedViewRow, JobRow } from "../../store/job-schema.js";
import type { TableRow } from "../../store/schema.js";
import type { StoreTx } from "../../store/store.js";
import { namespaceIdOfKey, namespaceKey } from "../identifiers.js";
import { recordChange } from "../change-events.js";
import { type JobContext, type JobHandler, PermanentJobError } from "../jobs/job-handler.js";

interface RefreshState {
  phase?: string;
  start_view_version?: number;
  source_version?: number;
  source_table?: string;
  source_fingerprint?: string;
  mode?: "rebuild" | "incremental";
  planned?: boolean;
  rows_deleted?: number;
  source_rows_added?: number;
  source_rows_removed?: number;
}

type ItemRange = {
  from: string;
  to: string;
  count: number;
};

export const refreshViewHandler: JobHandler = {
  async run(ctx) {
    const params = ctx.job.params as unknown as RefreshJobParams;
    const rows = ctx.scope.store.rows;
    const io = ctx.scope.engine.views;

    // load
    const { table, view, definition } = await loadView(rows, ctx.job);
    const source = await loadSource(rows, ctx.scope.database.name, definition);
    await requireOwnerReads(ctx, table, definition);
    const spec: ViewQuerySpec = { projections: definition.projections, filter: definition.filter, chunker: definition.chunker };

    // plan
    if (ctx.state.planned !== true) await plan(ctx, io, params, table, view, source, definition);
    const state = ctx.state as RefreshState;

    // apply
    const viewSchema = await io.schemaOf(table.location);
    const budget = params.output_limit === null ? undefined : rowBudget(params.output_limit - (await io.countRows(table.location)));
    let stop: unknown;
    const checkpoint = () => {
      if (stop) throw stop;
      ctx.checkpoint();
    };
    const loops = Array.from({ length: params.concurrency }, async () => {
      try {
        for (;;) {
          checkpoint();
          const item = await ctx.claimItem();
          if (!item) return;
          const range = item.params as unknown as ItemRange;
          const entity = `item:${item.seq}`;
          await ctx.event("claim", { claimEntity: entity, message: `source row ids ${range.from}..${range.to} (${range.count})` });
          const written = await io.writeRange({
            sourceLocation: source.location,
            sourceVersion: state.source_version as number,
            viewLocation: table.location,
            viewSchema,
            spec,
            from: BigInt(range.from),
            to: BigInt(range.to),
            maxRowsPerFragment: params.max_rows_per_fragment,
            writeConcurrency: params.intra_applier_concurrency,
            budget,
            checkpoint,
          });
          await ctx.completeItem(item.seq, written);
          await ctx.event("claim_complete", { claimEntity: entity, rows: written });
          const counts = await rows.countJobItems(ctx.job.id);
          await ctx.setProgress({ itemsDone: counts.done, rowsWritten: counts.rowsWritten });
        }
      } catch (error) {
        stop ??= error;
        throw error;
      }
    });
    const outcomes = await Promise.allSettled(loops);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
    if (failed) throw failed.reason;

    // finalize: only the lease holder records what the view now reflects
    await ctx.checkpointNow();
    const viewVersion = await io.version(table.location);
    const counts = await rows.countJobItems(ctx.job.id);
    await ctx.scope.store.transaction(async (tx) => {
      await tx.updateMaterializedView(table.id, {
        refreshed_source_table: state.source_table as string,
        refreshed_source_version: state.source_version as number,
        refreshed_definition_sha: state.source_fingerprint as string,
        refreshed_view_version: viewVersion,
        updated_at: Date.now(),
      });
      await recordChange(tx, {
        kind: "view.refreshed",
        database: ctx.scope.database.name,
        object: [...namespaceIdOfKey(table.namespace_path), table.name],
        data: { job_id: ctx.job.id, mode: state.mode, version: viewVersion, source_version: state.source_version, rows_written: counts.rowsWritten, rows_deleted: state.rows_deleted ?? 0 },
      });
    });
    const manifest = manifestOf(params, view);
    return {
      mode: state.mode,
      source_version: state.source_version,
      view_version: viewVersion,
      previous_view_version: state.start_view_version,
      rows_written: counts.rowsWritten,
      rows_deleted: state.rows_deleted ?? 0,
      source_rows_added: state.source_rows_added ?? 0,
      source_rows_removed: state.source_rows_removed ?? 0,
      work_items: counts.total,
      output_limit: params.output_limit,
      output_limit_reached: budget ? budget.remaining() < budget.skipped() : false,
      manifest_origin: manifest.origin,
      manifest: manifest.value,
      cluster: params.cluster,
    };
  },

  async undo(ctx) {
    const state = ctx.state as RefreshState;
    if (state.start_view_version === undefined) return;
    const table = await ctx.scope.store.rows.findTableById(ctx.job.target);
    if (!table) return;
    const io = ctx.scope.engine.views;
    if ((await io.version(table.location)) !== state.start_view_version) await io.restore(table.location, state.start_view_version);
  },
};

async function plan(
  ctx: JobContext,
  io: ViewIO,
  params: RefreshJobParams,
  table: TableRow,
  view: MaterializedViewRow,
  source: TableRow,
  definition: ViewDefinition,
): Promise<void> {
  const earlier = ctx.state as RefreshState;
  // Fixed on the first attempt, so a resumed attempt finishes the same plan.
  const startViewVersion = earlier.start_view_version ?? (await io.version(table.location));
  const sourceVersion = earlier.source_version ?? params.src_version ?? (await io.version(source.location));
  const sourceSchema = await io.schemaOf(source.location, { version: sourceVersion });
  const fingerprint = createHash("sha256").update(view.definition_sha).update(sourceSchema.fields.map((f) => `${f.name}:${f.type}`).join("|")).digest("hex");
  const rebuild =
    earlier.mode === "rebuild" ||
    (earlier.mode === undefined &&
      (view.kind === "udtf" || view.refreshed_definition_sha !== fingerprint || view.refreshed_source_table !== source.id));
  const mode = rebuild ? "rebuild" : "incremental";
  await ctx.saveState({ phase: "plan", start_view_version: startViewVersion, source_version: sourceVersion, source_table: source.id, source_fingerprint: fingerprint, mode });

  if (rebuild) await io.clear(table.location);
  ctx.checkpoint();
  const present = await io.viewSourceIds(table.location);
  const wanted = await io.sourceRowIds(source.location, sourceVersion, definition.filter);
  const { onlyA: added, onlyB: removed } = diffSortedIds(wanted, present);
  ctx.checkpoint();
  const deleted = await io.deleteBySourceIds(table.location, removed);
  const items = planItems(added, params.source_task_size);
  await ctx.replaceItems(items);
  await ctx.saveState({ phase: "apply", planned: true, rows_deleted: deleted, source_rows_added: added.length, source_rows_removed: removed.length });
  await ctx.setProgress({ itemsTotal: items.length, itemsDone: 0, rowsWritten: 0 });
  await ctx.event("planned", {
    message: `${mode} from source version ${sourceVersion}: ${added.length} source rows to add, ${removed.length} removed (${deleted} view rows deleted), ${items.length} work items`,
  });
}

/** Consecutive runs of `size` new source ids, as inclusive ranges. */
function planItems(added: BigUint64Array, size: number): ItemRange[] {
  const items: ItemRange[] = [];
  for (let start = 0; start < added.length; start += size) {
    const end = Math.min(start + size, added.length) - 1;
    const range: ItemRange = { from: String(added[start]), to: String(added[end]), count: end - start + 1 };
    items.push(range);
  }
  return items;
}

/** The output_limit budget; `skipped` counts rows left out because they did not fit. */
function rowBudget(initial: number): RowBudget & { skipped(): number } {
  let left = Math.max(0, initial);
  let skipped = 0;
  return {
    take(rows) {
      if (rows > left) {
        skipped += rows;
        return false;
      }
      left -= rows;
      return true;
    },
    remaining: () => left,
    skipped: () => skipped,
  };
}

async function loadView(rows: StoreTx, job: JobRow): Promise<{ table: TableRow; view: MaterializedViewRow; definition: ViewDefinition }> {
  const table = await rows.findTableById(job.target);
  if (!table) throw new PermanentJobError(`the view '${job.target_name}' was dropped`, "load");
  const view = await rows.findMaterializedView(table.id);
  if (!view) throw new PermanentJobError(`table '${table.name}' is not a materialized view`, "load");
  return { table, view, definition: view.definition as unknown as ViewDefinition };
}

async function loadSource(rows: StoreTx, database: string, definition: ViewDefinition): Promise<TableRow> {
  const namespace = definition.source.slice(0, -1);
  const name = definition.source[definition.source.length - 1] as string;
  const source = await rows.findTableByName(database, namespaceKey(namespace), name);
  if (!source) throw new PermanentJobError(`the source table '${definition.source.join("$")}' no longer exists`, "load");
  return source;
}

/** A refresh runs with its owner's privileges: fails for good once the owner may not read the source. */
async function requireOwnerReads(ctx: JobContext, table: TableRow, definition: ViewDefinition): Promise<void> {
  const view = [...namespaceIdOfKey(table.namespace_path), table.name];
  if (ctx.scope.ownerMayRead && !(await ctx.scope.ownerMayRead(ctx.scope.database.name, view, definition.source))) {
    throw new PermanentJobError(`the owner of view '${view.join("$")}' may no longer read its source table '${definition.source.join("$")}' (SELECT); it refreshes again once its owner may`, "load");
  }
}

function manifestOf(params: RefreshJobParams, view: MaterializedViewRow): { origin: string; value: unknown } {
  if (params.manifest !== null && params.manifest !== undefined) return { origin: "request", value: params.manifest };
  const stored = view.udtf_spec ? (view.udtf_spec as { manifest?: string | null }).manifest : null;
  if (!stored) return { origin: "none", value: null };
  try {
    return { origin: "view", value: JSON.parse(stored) };
  } catch {
    return { origin: "view", value: stored };
  }
}
