/**
 * @module Read routes (spec/endpoints.md §3.9, §5.6–5.9): query answers an Arrow IPC file,
 * count_rows a bare integer, explain/analyze a JSON string; count_rows and stats take GET too.
 */
import type { FastifyInstance } from "fastify";
import { Type } from "@sinclair/typebox";
import * as M from "../../model/index.js";
import { defineOperation } from "../route-kit.js";
import type { ServerServices } from "../services.js";

const tag = "Data";

export function queryRoutes(app: FastifyInstance, services: ServerServices): void {
  defineOperation<M.QueryTableRequest>(
    app,
    services,
    {
      operationId: "QueryTable",
      summary: "Scan, vector-search or full-text-search a table; answers an Arrow IPC file",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/query",
      body: { kind: "json", schema: M.QueryTableRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "arrow-file" },
      access: "read",
    },
    async ({ catalog, id, body, call, reply }) => {
      const result = await catalog.queryTable({ ...body, id }, call);
      // The Cloud client echoes this back as its read-freshness hint (spec/clients.md §2.1).
      reply.header("x-lancedb-version", String(result.version));
      return result.chunks;
    },
  );

  defineOperation<M.CountTableRowsRequest>(
    app,
    services,
    {
      operationId: "CountTableRows",
      summary: "Count the rows matching an optional predicate; answers a bare integer",
      tag,
      methods: ["GET", "POST"],
      url: "/v1/table/:id/count_rows",
      body: { kind: "json", schema: M.CountTableRowsRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "integer" },
      access: "read",
    },
    ({ catalog, id, body, call }) => catalog.countTableRows({ ...body, id }, call),
  );

  defineOperation<M.ExplainTableQueryPlanRequest>(
    app,
    services,
    {
      operationId: "ExplainTableQueryPlan",
      summary: "The plan a query would run, as a JSON string",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/explain_plan",
      body: { kind: "json", schema: M.ExplainTableQueryPlanRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "string" },
      access: "read",
    },
    ({ catalog, id, body, call }) => catalog.explainTableQueryPlan({ ...body, id }, call),
  );

  defineOperation<M.AnalyzeTableQueryPlanRequest>(
    app,
    services,
    {
      operationId: "AnalyzeTableQueryPlan",
      summary: "Run a query and answer its plan with execution metrics, as a JSON string",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/analyze_plan",
      body: { kind: "json", schema: M.AnalyzeTableQueryPlanRequest },
      querystring: Type.Object({ delimiter: Type.Optional(Type.String({ minLength: 1 })), distributed_metrics: Type.Optional(Type.String()) }),
      response: { kind: "string" },
      access: "read",
    },
    ({ catalog, id, body, call }) => catalog.analyzeTableQueryPlan({ ...body, id }, call),
  );

  defineOperation<M.GetTableStatsRequest>(
    app,
    services,
    {
      operationId: "GetTableStats",
      summary: "Size, row, index and fragment statistics of a table",
      tag: "Table",
      methods: ["GET", "POST"],
      url: "/v1/table/:id/stats",
      body: { kind: "json", schema: M.GetTableStatsRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.GetTableStatsResponse },
      access: "read",
    },
    ({ catalog, id, body, call }) => catalog.getTableStats({ ...body, id }, call),
  );
}
