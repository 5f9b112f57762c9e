/**
 * @module Operation entries of transactions (spec/endpoints.md §11). The path segment is the
 * transaction id, not an object id, and a body `id` names the owning table, so the two are
 * never compared (spec/concepts.md §2).
 */
import { Type } from "@sinclair/typebox";
import * as M from "../index.js";
import { json, operation } from "./operation-entry.js";

const TransactionId = { transaction_id: Type.String({ minLength: 1, description: "the id a write answered as `transaction_id`" }) };

export const transactionOperations = {
  /** DescribeTransaction: status and properties of the transaction `transaction_id` a write answered. Throws 10, 13. */
  describeTransaction: operation({
    operationId: "DescribeTransaction",
    summary: "Status and properties of a transaction",
    tag: "Transaction",
    access: "read",
    privilege: { needs: "SELECT", on: "database" },
    methods: ["POST"],
    path: "/v1/transaction/{transaction_id}/describe",
    target: "none",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.DescribeTransactionRequest,
    pathFields: TransactionId,
    response: json(M.DescribeTransactionResponse),
  }),

  /**
   * AlterTransaction: applies every action (set status, set or unset a property) or none; a
   * finished transaction keeps its outcome (14). Throws 10, 13, 14.
   */
  alterTransaction: operation({
    operationId: "AlterTransaction",
    summary: "Change a transaction's status and properties (all actions or none)",
    tag: "Transaction",
    access: "write",
    privilege: { needs: ["INSERT", "UPDATE", "DELETE"], on: "database" },
    methods: ["POST"],
    path: "/v1/transaction/{transaction_id}/alter",
    target: "none",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.AlterTransactionRequest,
    pathFields: TransactionId,
    response: json(M.AlterTransactionResponse),
  }),
};
