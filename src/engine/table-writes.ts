/**
 * @module Row writes: insert (append / overwrite), merge-insert, update and delete. Each commits
 * one Lance version and reports it; commit conflicts are retried (commit-retry.ts).
 */
import { type DecodedUpload, readingUpload } from "./arrow-ipc.js";
import { EngineError } from "./engine-errors.js";
import { withCommitRetry } from "./commit-retry.js";
import type { Engine, TableRef } from "./engine.js";
import type { NativeTable } from "./lance-native.js";
import { rewriteNestedUpdates } from "./nested-updates.js";
import { refuseLsmWrites } from "./lsm-specs.js";
import { inSpan } from "../tracing/spans.js";

export interface InsertOutcome {
  version: number;
  numInsertedRows: number;
}

/**
 * Appends or overwrites rows on the branch in `ref`. Without a dataset at `location` (a
 * declared-only table) the rows create it; a concurrent creator winning turns this into an add.
 */
function insertRows(
  engine: Engine,
  location: string,
  ref: TableRef,
  upload: DecodedUpload,
  mode: "append" | "overwrite",
): Promise<InsertOutcome> {
  return inSpan("engine.insert", { "quiver.table.location": location }, async () => {
    const first = await openOrCreate(engine, location, ref, upload);
    if ("created" in first) return { version: first.created, numInsertedRows: upload.numRows };
    const version = await retryingOn(engine, location, ref, first.table, async (table) => {
      const result = await engine.call(() => readingUpload(upload, (file) => table.add(file, mode))).catch(asSchemaMismatch);
      return result.version;
    });
    return { version, numInsertedRows: upload.numRows };
  });
}

export interface MergeInsertSpec {
  on: string[];
  whenMatchedUpdateAll: boolean;
  whenMatchedUpdateAllFilter?: string;
  whenNotMatchedInsertAll: boolean;
  whenNotMatchedBySourceDelete: boolean;
  whenNotMatchedBySourceDeleteFilter?: string;
  timeoutMs?: number;
  useIndex?: boolean;
  /**
   * Aborts when the lock that keeps merge-inserts on the table one at a time is lost: checked
   * right before each commit attempt, which then fails with the signal's reason.
   */
  fence?: AbortSignal;
}

export interface MergeOutcome {
  version: number;
  numInsertedRows: number;
  numUpdatedRows: number;
  numDeletedRows: number;
  /** Commit attempts in all: Lance's own retries plus the re-runs after a commit conflict. */
  numAttempts: number;
  /** Source rows processed. */
  numRows: number;
}

/**
 * Upserts the uploaded rows; a declared-only table is simply created from them. Lance commits
 * two merge-inserts that both insert the same new key without a conflict (each only adds
 * fragments), so the caller must run merge-inserts on one table one at a time.
 */
function mergeInsertRows(engine: Engine, location: string, ref: TableRef, upload: DecodedUpload, spec: MergeInsertSpec): Promise<MergeOutcome> {
  return inSpan("engine.mergeInsert", { "quiver.table.location": location }, async () => {
    const first = await openOrCreate(engine, location, ref, upload);
    if ("created" in first) {
      return { version: first.created, numInsertedRows: upload.numRows, numUpdatedRows: 0, numDeletedRows: 0, numAttempts: 1, numRows: upload.numRows };
    }
    let conflicts = -1;
    const result = await retryingOn(engine, location, ref, first.table, async (table) => {
      conflicts += 1;
      // Lance sends a merge insert on a table with an LSM write spec down the MemWAL path.
      await refuseLsmWrites(engine, table);
      return engine.call(() => {
        let builder = table.mergeInsert(spec.on);
        if (spec.whenMatchedUpdateAll || spec.whenMatchedUpdateAllFilter) builder = builder.whenMatchedUpdateAll(spec.whenMatchedUpdateAllFilter ?? null);
        if (spec.whenNotMatchedInsertAll) builder = builder.whenNotMatchedInsertAll();
        if (spec.whenNotMatchedBySourceDelete || spec.whenNotMatchedBySourceDeleteFilter) {
          builder = builder.whenNotMatchedBySourceDelete(spec.whenNotMatchedBySourceDeleteFilter ?? null);
        }
        if (spec.useIndex !== undefined) builder = builder.useIndex(spec.useIndex);
        if (spec.timeoutMs !== undefined) builder.setTimeout(spec.timeoutMs);
        return readingUpload(upload, (file) => {
          spec.fence?.throwIfAborted();
          return builder.execute(file);
        });
      });
    }).catch((error: unknown) => {
      // Whatever failed after the fence fell, the lost lock is why nothing was committed.
      throw spec.fence?.aborted ? spec.fence.reason : error;
    });
    return {
      version: result.version,
      numInsertedRows: result.numInsertedRows,
      numUpdatedRows: result.numUpdatedRows,
      numDeletedRows: result.numDeletedRows,
      numAttempts: conflicts + result.numAttempts,
      numRows: result.numRows,
    };
  });
}

export interface UpdateOutcome {
  version: number;
  rowsUpdated: number;
}

/**
 * `UPDATE … SET path = expr WHERE predicate`. Paths may name nested struct fields; those are
 * rewritten into an update of their top-level column (nested-updates.ts).
 */
function updateRows(engine: Engine, location: string, ref: TableRef, predicate: string | null | undefined, updates: [string, string][]): Promise<UpdateOutcome> {
  return inSpan("engine.update", { "quiver.table.location": location }, async () => {
    return withCommitRetry(engine.commitAttempts, async () => {
      const table = await engine.openTable(location, ref);
      const columns = await rewriteNestedUpdates(engine, table, updates);
      const result = await engine.call(() => table.update(predicate ?? null, columns));
      return { version: result.version, rowsUpdated: result.rowsUpdated };
    });
  });
}

export interface DeleteOutcome {
  version: number;
  numDeletedRows: number;
}

/** Deletes the rows matching `predicate`; returns the version committed and the rows deleted. */
function deleteRows(engine: Engine, location: string, ref: TableRef, predicate: string): Promise<DeleteOutcome> {
  return inSpan("engine.delete", { "quiver.table.location": location }, async () => {
    return withCommitRetry(engine.commitAttempts, async () => {
      const table = await engine.openTable(location, ref);
      const result = await engine.call(() => table.delete(predicate));
      return { version: result.version, numDeletedRows: result.numDeletedRows };
    });
  });
}

/**
 * Runs `write` on `opened` under commit retries; a retry opens the table again, at its newest
 * version.
 */
async function retryingOn<T>(engine: Engine, location: string, ref: TableRef, opened: NativeTable, write: (table: NativeTable) => Promise<T>): Promise<T> {
  let first: NativeTable | undefined = opened;
  return withCommitRetry(engine.commitAttempts, async () => {
    const table = first ?? (await engine.openTable(location, ref));
    first = undefined;
    return write(table);
  });
}

/**
 * The table to write into; or, for a declared-only table (no dataset yet), the version of the
 * dataset `upload` created. A concurrent creator winning that race turns it into a write. Opening
 * is the existence check: one look at the table's versions, not two.
 */
async function openOrCreate(engine: Engine, location: string, ref: TableRef, upload: DecodedUpload): Promise<{ table: NativeTable } | { created: number }> {
  try {
    return { table: await engine.openTable(location, ref) };
  } catch (error) {
    if (ref.branch || !(error instanceof EngineError) || error.kind !== "dataset-not-found") throw error;
  }
  try {
    return { created: await engine.createTable(location, upload, "create") };
  } catch (error) {
    if (!(await engine.datasetExists(location))) throw error;
    return { table: await engine.openTable(location, ref) };
  }
}

/** Uploaded rows naming a column the table lacks do not match its schema. */
function asSchemaMismatch(error: EngineError): never {
  if (error.kind === "column-not-found") throw new EngineError("schema-mismatch", error.message, { cause: error });
  throw error;
}

/** The row writes of one engine: each commits one Lance version on the branch its ref names. */
export class TableWrites {
  constructor(private readonly engine: Engine) {}

  /** Appends or overwrites rows; rows for a declared-only table create it. */
  insert(location: string, ref: TableRef, upload: DecodedUpload, mode: "append" | "overwrite"): Promise<InsertOutcome> {
    return insertRows(this.engine, location, ref, upload, mode);
  }

  /** Updates rows matching on the spec's key and inserts the others, as the spec says. */
  mergeInsert(location: string, ref: TableRef, upload: DecodedUpload, spec: MergeInsertSpec): Promise<MergeOutcome> {
    return mergeInsertRows(this.engine, location, ref, upload, spec);
  }

  /** Sets columns to SQL expressions on the rows `predicate` selects (every row when absent). */
  update(location: string, ref: TableRef, predicate: string | null | undefined, updates: [string, string][]): Promise<UpdateOutcome> {
    return updateRows(this.engine, location, ref, predicate, updates);
  }

  /** Deletes the rows `predicate` selects. */
  delete(location: string, ref: TableRef, predicate: string): Promise<DeleteOutcome> {
    return deleteRows(this.engine, location, ref, predicate);
  }
}
