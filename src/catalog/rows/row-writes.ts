/**
 * @module Row writes (spec/endpoints.md §5.2–5.5): InsertIntoTable, MergeInsertIntoTable,
 * UpdateTable, DeleteFromTable. Each commits one Lance version and answers it.
 */
import { ipcStreamToFile } from "../../engine/arrow-ipc.js";
import type {
  DeleteFromTableRequest,
  DeleteFromTableResponse,
  InsertIntoTableRequest,
  InsertIntoTableResponse,
  MergeInsertIntoTableRequest,
  MergeInsertIntoTableResponse,
  UpdateTableRequest,
  UpdateTableResponse,
} from "../../model/data.js";
import { InsertModes, parseMode } from "../../model/modes.js";
import { invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { recordCommittedWrite } from "../transaction-records.js";
import { translating } from "../failures.js";
import { tableLabel } from "../identifiers.js";
import { loadTable } from "../table-lookup.js";
import { refOf, refOverrides } from "../table-refs.js";
import type { ArrowStreamBody } from "../catalog-operations.js";
import { stageMultipartPart } from "./multipart-writes.js";

/**
 * InsertIntoTable: appends the rows of an Arrow IPC stream (LZ4 buffers accepted), or with
 * mode Overwrite replaces every row. `mode` defaults to Append; `branch` to main. On a
 * declared-only table the rows create the table at its location. Throws 1, 4, 13, 14, 20, 22.
 */
export async function insertIntoTable(scope: CatalogScope, request: WithId<InsertIntoTableRequest>, body: ArrowStreamBody): Promise<InsertIntoTableResponse> {
  // validate
  const mode = parseMode(request.mode, InsertModes);
  if (mode === null) throw invalidInput(`mode must be one of ${InsertModes.join(", ")}; got ${JSON.stringify(request.mode)}`);
  // A part of a multipart write is staged, not committed (multipart-writes.ts).
  if (request.upload_id) {
    return stageMultipartPart(scope, { id: request.id, upload_id: request.upload_id, upload_part_id: request.upload_part_id, branch: request.branch, overwrite: mode === "Overwrite" }, body);
  }
  const subject = tableLabel(request.id);
  const ref = refOf({ branch: request.branch });
  return translating(subject, async () => {
    // load
    const row = await loadTable(scope, request.id);
    const upload = await ipcStreamToFile(body);
    // write
    const outcome = await scope.engine.writes.insert(row.location, ref, upload, mode === "Overwrite" ? "overwrite" : "append");
    const transaction = await recordCommittedWrite(scope, "InsertIntoTable", request.id, outcome.version, request.branch, {
      mode: mode === "Overwrite" ? "overwrite" : "append",
      num_inserted_rows: outcome.numInsertedRows,
    });
    return { version: outcome.version, num_inserted_rows: outcome.numInsertedRows, ...transaction };
  }, refOverrides(subject, ref));
}

/** Parses durations such as "30s", "5m", "250ms", "1h"; a bare number is seconds. */
export function parseDurationMs(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text);
  if (!match) throw invalidInput(`timeout must be a duration such as 30s or 5m; got ${JSON.stringify(text)}`);
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? "s").toLowerCase() as "ms" | "s" | "m" | "h"];
  return Math.round(Number(match[1]) * factor);
}

/** The store lock that keeps merge-inserts on one table one at a time. */
const mergeInsertLockOf = (tableId: string) => `merge-insert:${tableId}`;

/**
 * MergeInsertIntoTable: matches uploaded rows to existing ones on `on` (one or more field
 * paths), then updates matches (all columns, optionally only where
 * `when_matched_update_all_filt` holds), inserts non-matches and deletes unmatched target rows
 * as the flags ask (all default false). A declared-only table is created from the rows.
 * Throws 1, 4, 12, 13, 14, 19, 20, 22.
 */
export async function mergeInsertIntoTable(
  scope: CatalogScope,
  request: WithId<MergeInsertIntoTableRequest>,
  body: ArrowStreamBody,
): Promise<MergeInsertIntoTableResponse> {
  // validate
  const on = request.on === undefined ? [] : Array.isArray(request.on) ? request.on : [request.on];
  if (on.length === 0) throw invalidInput("merge_insert needs at least one `on` column");
  const timeoutMs = request.timeout ? parseDurationMs(request.timeout) : undefined;
  const subject = tableLabel(request.id);
  const ref = refOf({ branch: request.branch });
  return translating(subject, async () => {
    // load
    const row = await loadTable(scope, request.id);
    const upload = await ipcStreamToFile(body);
    // write: one merge-insert per table at a time, across every process on the store (Lance
    // would commit two that insert the same new key side by side, duplicating it). Should the
    // lock be lost meanwhile, the fence stops the merge before it commits.
    const outcome = await scope.store.withLock(mergeInsertLockOf(row.id), (fence) =>
      scope.engine.writes.mergeInsert(row.location, ref, upload, {
        on,
        whenMatchedUpdateAll: request.when_matched_update_all ?? false,
        whenMatchedUpdateAllFilter: request.when_matched_update_all_filt || undefined,
        whenNotMatchedInsertAll: request.when_not_matched_insert_all ?? false,
        whenNotMatchedBySourceDelete: request.when_not_matched_by_source_delete ?? false,
        whenNotMatchedBySourceDeleteFilter: request.when_not_matched_by_source_delete_filt || undefined,
        timeoutMs,
        useIndex: request.use_index,
        fence,
      }),
    );
    return {
      version: outcome.version,
      num_inserted_rows: outcome.numInsertedRows,
      num_updated_rows: outcome.numUpdatedRows,
      num_deleted_rows: outcome.numDeletedRows,
      num_attempts: outcome.numAttempts,
      num_rows: outcome.numRows,
      ...(await recordCommittedWrite(scope, "MergeInsertIntoTable", request.id, outcome.version, request.branch, {
        num_inserted_rows: outcome.numInsertedRows,
        num_updated_rows: outcome.numUpdatedRows,
        num_deleted_rows: outcome.numDeletedRows,
      })),
    };
  }, refOverrides(subject, ref));
}

/**
 * UpdateTable: sets each `[field_path, sql_expression]` of `updates` (nested struct fields
 * included) on the rows matching `predicate` (all rows when absent). `properties` are merged
 * into the table's stored properties. Answers `updated_rows` (also as `rows_updated`),
 * `version` and the table's properties. Throws 1, 4, 12, 13, 14, 19, 22.
 */
export async function updateTable(scope: CatalogScope, request: WithId<UpdateTableRequest>): Promise<UpdateTableResponse> {
  // validate
  if (request.updates.length === 0 && !request.properties) throw invalidInput("updates must name at least one column");
  const subject = tableLabel(request.id);
  const ref = refOf({ branch: request.branch });
  return translating(subject, async () => {
    // load: a declared-only table is found out by the write itself (19, see refOverrides)
    const row = await loadTable(scope, request.id);
    // write: data first; the properties follow and are read back, so a failure to store them
    // after the commit is reported in the answer instead of turning a committed write into 5xx.
    const outcome =
      request.updates.length > 0
        ? await scope.engine.writes.update(row.location, ref, request.predicate, request.updates as [string, string][])
        : { version: (await scope.engine.describeTable(row.location, ref)).version, rowsUpdated: 0 };
    let properties = row.properties;
    if (request.properties) {
      const added = request.properties;
      try {
        // Merge into the row as it is now, locked until the update commits: concurrent updates
        // (from any process) keep each other's keys.
        properties = await scope.store.transaction(async (tx) => {
          const current = await tx.lockTableRow(row.id);
          const merged = { ...(current?.properties ?? row.properties), ...added };
          await tx.updateTable(row.id, { properties: merged, updated_at: Date.now() });
          return merged;
        });
      } catch {
        properties = (await scope.store.rows.findTableById(row.id).catch(() => row))?.properties ?? row.properties;
      }
    }
    const transaction = await recordCommittedWrite(scope, "UpdateTable", request.id, outcome.version, request.branch, {
      num_updated_rows: outcome.rowsUpdated,
      ...(request.properties ? { properties_set: Object.keys(request.properties) } : {}),
    });
    return { updated_rows: outcome.rowsUpdated, rows_updated: outcome.rowsUpdated, version: outcome.version, properties, ...transaction };
  }, refOverrides(subject, ref));
}

/**
 * DeleteFromTable: deletes the rows matching `predicate`; answers the version and, for the
 * LanceDB Cloud client, `num_deleted_rows`. Throws 1, 4, 12, 13, 14, 19, 22.
 */
export async function deleteFromTable(scope: CatalogScope, request: WithId<DeleteFromTableRequest>): Promise<DeleteFromTableResponse> {
  if (request.predicate.trim() === "") throw invalidInput("predicate must not be empty; use `true` to delete every row");
  const subject = tableLabel(request.id);
  const ref = refOf({ branch: request.branch });
  return translating(subject, async () => {
    const row = await loadTable(scope, request.id);
    const outcome = await scope.engine.writes.delete(row.location, ref, request.predicate);
    const transaction = await recordCommittedWrite(scope, "DeleteFromTable", request.id, outcome.version, request.branch, { num_deleted_rows: outcome.numDeletedRows });
    return { version: outcome.version, num_deleted_rows: outcome.numDeletedRows, ...transaction };
  }, refOverrides(subject, ref));
}
