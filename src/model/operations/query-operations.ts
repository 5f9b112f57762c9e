/**
 * @module Operation entries of reads (spec/endpoints.md §3.9, §5.6–5.9): QueryTable answers an
 * Arrow IPC file, CountTableRows a bare integer, the plans a JSON string; counts and stats take
 * GET too.
 */
import * as M from "../index.js";
import { json, operation } from "./operation-entry.js";

export const queryOperations = {
  /**
   * QueryTable: a filtered scan (`filter`, `columns`, `k`, `offset`), a vector search
   * (`vector`, `vector_column`) or a full-text search, on the latest version of main unless
   * `version` / `branch` say otherwise; resolves with an apache-arrow 18 `Table`. Without `k` a
   * scan returns every row and a search the top 10. Throws 1, 4, 11, 12, 13, 19, 22.
   */
  queryTable: operation({
    operationId: "QueryTable",
    summary: "Scan, vector-search or full-text-search a table; answers an Arrow IPC file",
    tag: "Data",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/query",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.QueryTableRequest,
    response: { kind: "arrow-file" },
  }),

  /** CountTableRows: the rows matching `predicate` (all when absent), as a number. Throws 1, 4, 11, 12, 13, 22. */
  countTableRows: operation({
    operationId: "CountTableRows",
    summary: "Count the rows matching an optional predicate; answers a bare integer",
    tag: "Data",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST", "GET"],
    path: "/v1/table/{id}/count_rows",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.CountTableRowsRequest,
    response: { kind: "integer" },
  }),

  /** ExplainTableQueryPlan: the plan `query` would run, as text; more detail with `verbose`. Throws 1, 4, 11, 12, 13, 19. */
  explainTableQueryPlan: operation({
    operationId: "ExplainTableQueryPlan",
    summary: "The plan a query would run, as a JSON string",
    tag: "Data",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/explain_plan",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.ExplainTableQueryPlanRequest,
    response: { kind: "string" },
  }),

  /** AnalyzeTableQueryPlan: runs the query and answers its plan with execution metrics, as text. Throws 1, 4, 11, 12, 13, 19. */
  analyzeTableQueryPlan: operation({
    operationId: "AnalyzeTableQueryPlan",
    summary: "Run a query and answer its plan with execution metrics, as a JSON string",
    tag: "Data",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/analyze_plan",
    target: "table",
    body: "json",
    querySchema: M.AnalyzeTableQueryPlanQuery,
    request: M.AnalyzeTableQueryPlanRequest,
    response: { kind: "string" },
  }),

  /** GetTableStats: size, row, index and fragment statistics of `branch` (default main). Throws 1, 4, 19, 22. */
  getTableStats: operation({
    operationId: "GetTableStats",
    summary: "Size, row, index and fragment statistics of a table",
    tag: "Table",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST", "GET"],
    path: "/v1/table/{id}/stats",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.GetTableStatsRequest,
    response: json(M.GetTableStatsResponse),
  }),
};
