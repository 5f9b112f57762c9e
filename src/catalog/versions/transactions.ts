/**
 * @module DescribeTransaction and AlterTransaction (spec/endpoints.md §11, spec/concepts.md
 * §10): reading and changing the transaction records every write leaves
 * (`../transaction-records.ts`).
 */
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
import type { TransactionRow } from "../../store/schema.js";
import type { StoreTx } from "../../store/store.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope } from "../catalog-scope.js";
import { translating } from "../failures.js";

const terminalStatuses: ReadonlySet<TransactionStatus> = new Set(["Succeeded", "Failed", "Canceled"]);

async function requireTransaction(tx: StoreTx, database: string, id: string): Promise<TransactionRow> {
  const row = await tx.findTransaction(database, id);
  if (!row) throw CatalogError.of("TransactionNotFound", `transaction '${id}' does not exist`);
  return row;
}

function describeRow(row: TransactionRow): DescribeTransactionResponse {
  return { status: row.status, properties: row.properties };
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
      const properties = row.properties;
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
      await tx.updateTransaction(transactionId, { status, properties, updated_at: Date.now() });
      return { status, properties };
    }),
  );
}
