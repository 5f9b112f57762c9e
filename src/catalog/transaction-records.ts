/**
 * @module Transaction records (spec/endpoints.md §11, spec/concepts.md §10). Every write records
 * one and answers its id as `transaction_id`: `recordTransaction` inside the write's own store
 * transaction, `recordCommittedWrite` after a write the engine has committed. Writes of every
 * area share them; the version area reads and alters the records.
 */
import { randomUUID } from "node:crypto";
import { changeEventsLost } from "../metrics/metrics.js";
import type { TransactionStatus } from "../model/transactions.js";
import type { StoreTx } from "../store/store.js";
import type { CatalogScope } from "./catalog-scope.js";
import { type ChangeKind, recordChange } from "./change-events.js";
import { noteCommitted } from "./table-heads.js";
import { findTable } from "./table-lookup.js";

/**
 * The change event of each operation whose transaction record is its catalog record: the record
 * and the event are written by `recordTransaction` in one transaction. Versions committed
 * through the catalog are left out: `insertVersionEntry` writes one event per version.
 */
const changeOfOperation: Record<string, ChangeKind> = {
  InsertIntoTable: "table.version.created",
  MergeInsertIntoTable: "table.version.created",
  UpdateTable: "table.version.created",
  DeleteFromTable: "table.version.created",
  AlterTableBackfillColumns: "table.version.created",
  RestoreTable: "table.restored",
  AlterTableDropColumns: "table.schema.changed",
  AlterTableAddColumns: "table.schema.changed",
  AlterTableAlterColumns: "table.schema.changed",
  UpdateFieldMetadata: "table.schema.changed",
  UpdateTableSchemaMetadata: "table.schema.changed",
  CreateTableIndex: "table.index.created",
  DropTableIndex: "table.index.dropped",
  CompactTable: "table.maintained",
  CleanupTableVersions: "table.maintained",
  OptimizeTableIndices: "table.maintained",
  BatchDeleteTableVersions: "table.versions.deleted",
  CreateTableTag: "table.tag.created",
  UpdateTableTag: "table.tag.updated",
  DeleteTableTag: "table.tag.deleted",
  CreateTableBranch: "table.branch.created",
  DeleteTableBranch: "table.branch.deleted",
};

/**
 * Records a transaction for a write and returns its id. Call it with the `tx` of the write so the
 * record commits (or rolls back) with it. `properties` should name what was done, e.g.
 * `{ table: "ns$t", version: "3" }`; the operation name is added as `operation`. A change of a
 * table also writes its change event in `tx`, with `properties` and `eventData` as its data.
 */
export async function recordTransaction(
  tx: StoreTx,
  database: string,
  operation: string,
  properties: Record<string, string> = {},
  status: TransactionStatus = "Succeeded",
  eventData: Record<string, unknown> = {},
): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await tx.insertTransaction({
    id,
    database,
    status,
    operation,
    properties: { operation, ...properties },
    created_at: now,
    updated_at: now,
  });
  const kind = changeOfOperation[operation];
  if (kind !== undefined && status === "Succeeded" && properties.table !== undefined) {
    const { table, version, ...rest } = properties;
    await recordChange(tx, {
      kind,
      database,
      object: table.split("$"),
      data: { operation, ...(version !== undefined ? { version: Number(version) } : {}), ...rest, ...eventData, transaction_id: id },
    });
  }
  return id;
}

/**
 * Records a write that has already committed in Lance and returns `{ transaction_id }`: raises
 * the table's head (see `table-heads.ts`), then writes the transaction record and the change event
 * (with `eventData`, e.g. row counts) in one store transaction. The data is in, so this must not
 * fail the request: a store failure leaves the answer without an id, and the event is counted lost.
 */
export async function recordCommittedWrite(
  scope: CatalogScope,
  operation: string,
  table: readonly string[],
  version: number,
  branch?: string | null,
  eventData: Record<string, unknown> = {},
): Promise<{ transaction_id?: string }> {
  const row = await findTable(scope.store.rows, scope.database.name, table).catch(() => undefined);
  if (row) await noteCommitted(scope.store.rows, row.id, branch, version);
  const properties: Record<string, string> = { table: table.join("$"), version: String(version) };
  if (branch) properties.branch = branch;
  try {
    return { transaction_id: await scope.store.transaction((tx) => recordTransaction(tx, scope.database.name, operation, properties, "Succeeded", eventData)) };
  } catch {
    if (changeOfOperation[operation] !== undefined) changeEventsLost.inc();
    return {};
  }
}
