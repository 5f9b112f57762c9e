/**
 * @module Index builds and drops run as jobs, when a client asks not to wait (docs/jobs.md):
 * CreateTableIndex / CreateTableScalarIndex and DropTableIndex validate what they can up front,
 * then queue a job and return its id. The job (src/jobs/index-jobs.ts) runs the same catalog
 * operations as the synchronous routes (table-indexes.ts), so both ways build alike.
 */
import { parseFieldPath } from "../../engine/engine.js";
import type { CreateTableIndexRequest, DropTableIndexRequest } from "../../model/indexes.js";
import type { JsonArrowField } from "../../model/schema-json.js";
import { CatalogError } from "../../model/catalog-error.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { enqueueJob, resolvePool } from "../jobs/job-queue.js";
import { indexNameOf, indexSpecOf } from "./table-indexes.js";
import { refOf } from "../table-refs.js";
import { withTableData } from "./table-with-data.js";

export const createIndexJobKind = "create_index";
export const dropIndexJobKind = "drop_index";

/** What an index build job runs: the request as the client sent it, minus transport fields. */
export interface CreateIndexJobParams {
  /** The table's identifier when the job was queued (the job follows the table if renamed). */
  table: string[];
  index_name: string;
  request: CreateTableIndexRequest;
}

export interface DropIndexJobParams {
  table: string[];
  index_name: string;
  branch: string | null;
}

export interface IndexJobAccepted {
  job_id: string;
  /** The index the job builds or drops. */
  index_name: string;
}

/**
 * CreateTableIndex without waiting: validates the table (1, 4, 19), its branch (22), the
 * `index_type` (13), that `column` exists in the schema (12, nested paths through structs too)
 * and that the index name is free when `replace` is false (7); then queues a `create_index` job and
 * returns its id. What only the build can tell (a type the index cannot cover, parameters that
 * do not fit the data) fails the job, with the engine's reason in its `failure`.
 */
export async function createTableIndexJob(scope: CatalogScope, request: WithId<CreateTableIndexRequest>): Promise<IndexJobAccepted> {
  // validate
  const spec = indexSpecOf(request);
  const ref = refOf({ branch: request.branch });
  const indexName = indexNameOf(spec);
  const pool = resolvePool(scope, null);
  return withTableData(scope, request.id, ref, async (row, subject) => {
    const snapshot = await scope.engine.describeTable(row.location, ref);
    // decide
    if (!hasField(snapshot.schema.fields, parseFieldPath(spec.column))) {
      throw CatalogError.of("TableColumnNotFound", `${subject} has no column '${spec.column}'`);
    }
    const existing = await scope.engine.indexes.list(row.location, ref);
    if (!spec.replace && existing.some((index) => index.name === indexName)) {
      throw CatalogError.of("TableIndexAlreadyExists", `${subject} already has an index named '${indexName}'`);
    }
    // write
    const { identity: _identity, context: _context, id: _id, wait: _wait, ...fields } = request;
    const params: CreateIndexJobParams = { table: request.id, index_name: indexName, request: fields };
    const jobId = await scope.store.transaction((tx) =>
      enqueueJob(tx, scope.database.name, { kind: createIndexJobKind, target: row.id, targetName: row.name, params: { ...params }, pool }),
    );
    return { job_id: jobId, index_name: indexName };
  });
}

/**
 * DropTableIndex without waiting: validates the table (1, 4, 19), its branch (22) and that the
 * index exists (6), then queues a `drop_index` job and returns its id.
 */
export async function dropTableIndexJob(
  scope: CatalogScope,
  request: WithId<DropTableIndexRequest> & { index_name: string },
): Promise<IndexJobAccepted> {
  const ref = refOf({ branch: request.branch });
  const pool = resolvePool(scope, null);
  return withTableData(scope, request.id, ref, async (row, subject) => {
    const existing = await scope.engine.indexes.list(row.location, ref);
    if (!existing.some((index) => index.name === request.index_name)) {
      throw CatalogError.of("TableIndexNotFound", `${subject} has no index named '${request.index_name}'`);
    }
    const params: DropIndexJobParams = { table: request.id, index_name: request.index_name, branch: request.branch ?? null };
    const jobId = await scope.store.transaction((tx) =>
      enqueueJob(tx, scope.database.name, { kind: dropIndexJobKind, target: row.id, targetName: row.name, params: { ...params }, pool }),
    );
    return { job_id: jobId, index_name: request.index_name };
  });
}

function hasField(fields: readonly JsonArrowField[], path: readonly string[]): boolean {
  const [head, ...rest] = path;
  const field = fields.find((f) => f.name === head);
  if (!field) return false;
  return rest.length === 0 || hasField(field.type.fields ?? [], rest);
}
