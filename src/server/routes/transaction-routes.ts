/**
 * @module Transaction routes (spec/endpoints.md §11). The path segment is the transaction id, not
 * an object id, and a body `id` names the owning table, so the two are never compared
 * (spec/concepts.md §2).
 */
import type { FastifyInstance } from "fastify";
import * as M from "../../model/index.js";
import { defineOperation } from "../route-kit.js";
import type { ServerServices } from "../services.js";

const tag = "Transaction";

function transactionIdOf(params: unknown): string {
  return (params as { transaction_id: string }).transaction_id;
}

export function transactionRoutes(app: FastifyInstance, services: ServerServices): void {
  defineOperation<M.DescribeTransactionRequest>(
    app,
    services,
    {
      operationId: "DescribeTransaction",
      summary: "Status and properties of a transaction",
      tag,
      methods: ["POST"],
      url: "/v1/transaction/:transaction_id/describe",
      body: { kind: "json", schema: M.DescribeTransactionRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.DescribeTransactionResponse },
      access: "read",
    },
    ({ catalog, request, call }) => catalog.describeTransaction(transactionIdOf(request.params), call),
  );

  defineOperation<M.AlterTransactionRequest>(
    app,
    services,
    {
      operationId: "AlterTransaction",
      summary: "Change a transaction's status and properties (all actions or none)",
      tag,
      methods: ["POST"],
      url: "/v1/transaction/:transaction_id/alter",
      body: { kind: "json", schema: M.AlterTransactionRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.AlterTransactionResponse },
      access: "write",
    },
    ({ catalog, request, body, call }) => catalog.alterTransaction(transactionIdOf(request.params), body, call),
  );
}
