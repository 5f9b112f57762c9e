/**
 * @module AlterTableBackfillColumns (spec/endpoints.md §6.5): queues a job that fills a
 * computed column for the rows that lack values (src/jobs/backfill-column-job.ts).
 */
import type { AlterTableBackfillColumnsRequest, AlterTableBackfillColumnsResponse } from "../../model/backfill.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { tableLabel, splitTableId } from "../identifiers.js";
import { enqueueJob, resolvePool } from "./job-queue.js";
import { declaredOnly, requireTable } from "../table-lookup.js";

export const backfillColumnJobKind = "backfill_column";

/** Why each request field the engine cannot honour is refused rather than ignored. */
const unsupportedBecause = {
  where: "the Lance engine computes a computed column for every row lacking a value and offers no row filter, and refuses direct writes to the column",
  branch: "Quiver fills computed columns on the main branch only",
  read_version: "the Lance engine computes from the latest version only",
} as const;

/**
 * Queues the backfill and returns its job id (the route answers 202). Lance computes a
 * computed column over every row of the main branch's latest version that lacks a value, so
 * `where`, `branch` and `read_version` are Unsupported (0) rather than silently ignored; the
 * sizing knobs are recorded in the job's spec. Throws 0, 1, 4, 12 (no such column), 13 (not a
 * computed column, unknown `cluster`), 19 (table has no data).
 */
export async function alterTableBackfillColumns(
  scope: CatalogScope,
  request: WithId<AlterTableBackfillColumnsRequest>,
): Promise<AlterTableBackfillColumnsResponse> {
  // validate
  const { id, column } = request;
  splitTableId(id);
  for (const field of ["where", "branch", "read_version"] as const) {
    if (request[field] !== undefined && request[field] !== null) {
      throw CatalogError.of("Unsupported", `backfill_column does not support '${field}': ${unsupportedBecause[field]}`);
    }
  }
  const pool = resolvePool(scope, request.cluster);
  const subject = tableLabel(id);
  return translating(subject, async () => {
    // load
    const table = await requireTable(scope.store.rows, scope.database.name, id);
    if (!(await scope.engine.datasetExists(table.location))) throw declaredOnly(subject);
    // decide
    const kind = await scope.engine.computed.kind(table.location, column);
    if (kind === "missing") throw CatalogError.of("TableColumnNotFound", `${subject} has no column '${column}'`);
    if (kind === "plain") throw invalidInput(`column '${column}' of ${subject} is not a computed column`);
    // write
    const { identity: _identity, context: _context, id: _id, ...spec } = request;
    const jobId = await scope.store.transaction((tx) =>
      enqueueJob(tx, scope.database.name, {
        kind: backfillColumnJobKind,
        target: table.id,
        targetName: table.name,
        params: { ...spec, table: id, cluster: pool },
        pool,
      }),
    );
    return { job_id: jobId };
  });
}
