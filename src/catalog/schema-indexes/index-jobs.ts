/**
 * @module The `create_index` and `drop_index` jobs: run the index catalog operations the
 * synchronous routes run (src/catalog/schema-indexes/table-indexes.ts) on the table the job
 * targets, found by its immutable id, so a rename between queueing and running does not lose it.
 * A native build cannot be interrupted: a cancel arriving meanwhile takes effect when it returns.
 *
 * Idempotent across attempts: the first attempt records whether the index existed before; a
 * resumed attempt that finds an index it did not have before knows an earlier attempt built it
 * (a build commits in one step) and finishes without building again. A resumed drop that
 * finds the index gone likewise counts as done.
 */
import { namespaceIdOfKey } from "../identifiers.js";
import type { CreateIndexJobParams, DropIndexJobParams } from "./queue-index-jobs.js";
import { dropTableIndex, createTableIndex, listTableIndices } from "./table-indexes.js";
import type { JobContext, JobHandler } from "../jobs/job-handler.js";
import { PermanentJobError } from "../jobs/job-handler.js";
import { optionalBranch } from "../table-refs.js";

interface IndexJobState {
  existed_before?: boolean;
  started?: boolean;
}

export const createIndexHandler: JobHandler = {
  async run(ctx) {
    const params = ctx.job.params as unknown as CreateIndexJobParams;
    const id = await currentId(ctx);
    const branch = params.request.branch ?? null;
    const state = ctx.state as IndexJobState;
    const present = await hasIndex(ctx, id, branch, params.index_name);
    ctx.checkpoint();
    if (state.existed_before === undefined) await ctx.saveState({ existed_before: present, phase: "build" });
    else if (!state.existed_before && present) return resultOf(ctx, params, "built by an earlier attempt");

    await ctx.event("build", { message: `building index '${params.index_name}' on column '${params.request.column}'` });
    await createTableIndex(ctx.scope, { ...params.request, id });
    await ctx.setProgress({ itemsTotal: 1, itemsDone: 1 });
    return resultOf(ctx, params, "built");
  },

  // A build that a cancel or a final failure overtook: remove the index, unless an index of
  // that name was there before (a replace cannot bring the old one back; docs/jobs.md).
  async undo(ctx) {
    const params = ctx.job.params as unknown as CreateIndexJobParams;
    if ((ctx.state as IndexJobState).existed_before !== false) return;
    const id = await currentId(ctx).catch(() => undefined);
    if (!id) return;
    const branch = params.request.branch ?? null;
    if (await hasIndex(ctx, id, branch, params.index_name)) {
      await dropTableIndex(ctx.scope, { id, branch, index_name: params.index_name });
    }
  },
};

export const dropIndexHandler: JobHandler = {
  async run(ctx) {
    const params = ctx.job.params as unknown as DropIndexJobParams;
    const id = await currentId(ctx);
    const state = ctx.state as IndexJobState;
    ctx.checkpoint();
    if (state.started && !(await hasIndex(ctx, id, params.branch, params.index_name))) {
      return { index_name: params.index_name, outcome: "dropped by an earlier attempt", version: await versionOf(ctx, params.branch) };
    }
    await ctx.saveState({ started: true, phase: "drop" });
    await dropTableIndex(ctx.scope, { id, branch: params.branch, index_name: params.index_name });
    await ctx.setProgress({ itemsTotal: 1, itemsDone: 1 });
    return { index_name: params.index_name, outcome: "dropped", version: await versionOf(ctx, params.branch) };
  },
};

/** The target table's identifier now; a dropped table fails the job for good. */
async function currentId(ctx: JobContext): Promise<string[]> {
  const table = await ctx.scope.store.rows.findTableById(ctx.job.target);
  if (!table) throw new PermanentJobError(`the table '${ctx.job.target_name}' was dropped`, "load");
  return [...namespaceIdOfKey(table.namespace_path), table.name];
}

async function hasIndex(ctx: JobContext, id: string[], branch: string | null, name: string): Promise<boolean> {
  const listed = await listTableIndices(ctx.scope, { id, branch });
  return listed.indexes.some((index) => index.index_name === name);
}

async function versionOf(ctx: JobContext, branch: string | null): Promise<number> {
  const table = await ctx.scope.store.rows.findTableById(ctx.job.target);
  if (!table) return 0;
  return (await ctx.scope.engine.describeTable(table.location, { branch: optionalBranch(branch) })).version;
}

async function resultOf(ctx: JobContext, params: CreateIndexJobParams, outcome: string): Promise<Record<string, unknown>> {
  return {
    index_name: params.index_name,
    column: params.request.column,
    index_type: params.request.index_type ?? "AUTO",
    outcome,
    version: await versionOf(ctx, params.request.branch ?? null),
  };
}
