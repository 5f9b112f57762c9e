/**
 * @module Transaction records (spec/endpoints.md §11, spec/concepts.md §10). Every write of the
 * version area records one and answers its id as `transaction_id`; `recordTransaction` lets any
 * other write do the same inside its own store transaction.
 */
import { noteCommitted } from "../table-heads.js";
import { findTable } from "../table-lookup.js";
import { randomUUID } from "node:crypto";
import { parseMode } from "../../model/modes.js";
import {
  type AlterTransactionRequest,
  type AlterTransactionResponse,
  type DescribeTransactionResponse,
  SetPropertyModes,
  type TransactionStatus,
  TransactionStatuses,
  UnsetPropertyModes,
} from "../../model/transactions.js";
import { fromJsonColumn, toJsonColumn } from "../../store/rows/json-columns.js";
import type { TransactionRow } from "../../store/schema.js";
import type { StoreTx } from "../../store/store.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { type ChangeKind, recordChange } from "../events/change-events.js";
import { changeEventsLost } from "../../metrics/metrics.js";

const terminalStatuses: ReadonlySet<TransactionStatus> = new Set(["Succeeded", "Failed", "Canceled"]);

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
    properties: toJsonColumn({ operation, ...properties }),
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

async function requireTransaction(tx: StoreTx, database: string, id: string): Promise<TransactionRow> {
  const row = await tx.findTransaction(database, id);
  if (!row) throw CatalogError.of("TransactionNotFound", `transaction '${id}' does not exist`);
  return row;
}

function describeRow(row: TransactionRow): DescribeTransactionResponse {
  return { status: row.status, properties: fromJsonColumn(row.properties) };
}

/** DescribeTransaction: status and properties. Throws 10. */
export async function describeTransaction(scope: CatalogScope, request: { transaction_id: string }): Promise<DescribeTransactionResponse> {
  const transactionId = request.transaction_id;
  const row = await translating(`transaction '${transactionId}'`, () => requireTransaction(scope.store.rows, scope.database.name, transactionId));
  return describeRow(row);
}

/**
 * AlterTransaction: applies every action or none, in order. setStatusAction moves the status
 * (a finished transaction — Succeeded, Failed, Canceled — keeps its outcome: 14);
 * setPropertyAction modes Overwrite (default), Skip (keep an existing value), Fail (14 when the
 * key exists); unsetPropertyAction modes Skip (default), Fail (13 when the key is absent).
 * Throws 10, 13, 14.
 */
export async function alterTransaction(
  scope: CatalogScope,
  request: AlterTransactionRequest & { transaction_id: string },
): Promise<AlterTransactionResponse> {
  const transactionId = request.transaction_id;
  // validate
  if (request.actions.length === 0) throw invalidInput("actions must hold at least one action");
  return translating(`transaction '${transactionId}'`, () =>
    scope.store.transaction(async (tx) => {
      // load
      const row = await requireTransaction(tx, scope.database.name, transactionId);
      let status = row.status as TransactionStatus;
      const properties = fromJsonColumn(row.properties);
      // decide
      request.actions.forEach((action, index) => {
        const set = [action.setStatusAction, action.setPropertyAction, action.unsetPropertyAction].filter((a) => a != null);
        if (set.length !== 1) throw invalidInput(`actions[${index}] must set exactly one of setStatusAction, setPropertyAction, unsetPropertyAction`);
        if (action.setStatusAction) {
          const next = parseMode(action.setStatusAction.status, TransactionStatuses);
          if (!next) throw invalidInput(`actions[${index}].status must be one of ${TransactionStatuses.join(", ")}`);
          if (next !== status && terminalStatuses.has(status)) {
            throw CatalogError.of("ConcurrentModification", `transaction '${transactionId}' already ended as ${status}`);
          }
          status = next;
        } else if (action.setPropertyAction) {
          const { key, value } = action.setPropertyAction;
          const mode = parseMode(action.setPropertyAction.mode, SetPropertyModes) ?? (action.setPropertyAction.mode == null ? "Overwrite" : null);
          if (!key) throw invalidInput(`actions[${index}].key must not be empty`);
          if (value == null) throw invalidInput(`actions[${index}].value is required`);
          if (mode === null) throw invalidInput(`actions[${index}].mode must be one of ${SetPropertyModes.join(", ")}`);
          const exists = key in properties;
          if (exists && mode === "Fail") throw CatalogError.of("ConcurrentModification", `transaction property '${key}' is already set`);
          if (!exists || mode === "Overwrite") properties[key] = value;
        } else if (action.unsetPropertyAction) {
          const { key } = action.unsetPropertyAction;
          const mode = parseMode(action.unsetPropertyAction.mode, UnsetPropertyModes) ?? (action.unsetPropertyAction.mode == null ? "Skip" : null);
          if (!key) throw invalidInput(`actions[${index}].key must not be empty`);
          if (mode === null) throw invalidInput(`actions[${index}].mode must be one of ${UnsetPropertyModes.join(", ")}`);
          if (!(key in properties) && mode === "Fail") throw invalidInput(`transaction property '${key}' is not set`);
          delete properties[key];
        }
      });
      // write
      await tx.updateTransaction(transactionId, { status, properties: toJsonColumn(properties), updated_at: Date.now() });
      return { status, properties };
    }),
  );
}
