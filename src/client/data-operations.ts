/**
 * @module Client operation entries of row writes and reads: Arrow in for insert and merge-insert,
 * an apache-arrow Table out for queries (spec/endpoints.md §3.9, §5.2–5.9).
 */
import * as M from "../model/index.js";
import { operation } from "./operation-types.js";

export const dataOperations = {
  // Rows (spec/endpoints.md §5.2–5.5)

  /**
   * InsertIntoTable: appends Arrow rows (an apache-arrow Table or RecordBatch, or IPC bytes) to
   * `branch` (default main); mode `Overwrite` replaces every row. On a declared-only table the
   * rows create it. Throws 1, 4, 13, 14, 20 (schema mismatch), 22.
   */
  insertIntoTable: operation({
    operationId: "InsertIntoTable",
    method: "POST",
    path: "/v1/table/{id}/insert",
    target: "table",
    body: "arrow",
    query: ["mode", "branch"],
    request: M.InsertIntoTableRequest,
    response: { kind: "json", schema: M.InsertIntoTableResponse },
  }),

  /**
   * MergeInsertIntoTable: matches Arrow rows to existing ones on `on` (one or more columns),
   * then updates matches (`when_matched_update_all`, optionally filtered), inserts the rest
   * (`when_not_matched_insert_all`) and deletes unmatched target rows
   * (`when_not_matched_by_source_delete`); every flag defaults to false. Answers the counts.
   * Throws 1, 4, 12, 13, 14, 19, 20, 22.
   */
  mergeInsertIntoTable: operation({
    operationId: "MergeInsertIntoTable",
    method: "POST",
    path: "/v1/table/{id}/merge_insert",
    target: "table",
    body: "arrow",
    query: [
      "branch",
      "on",
      "when_matched_update_all",
      "when_matched_update_all_filt",
      "when_not_matched_insert_all",
      "when_not_matched_by_source_delete",
      "when_not_matched_by_source_delete_filt",
      "timeout",
      "use_index",
    ],
    request: M.MergeInsertIntoTableRequest,
    response: { kind: "json", schema: M.MergeInsertIntoTableResponse },
  }),

  /**
   * UpdateTable: sets each `[column, sql_expression]` of `updates` on the rows matching
   * `predicate` (every row when absent). Answers `updated_rows` and the new version.
   * Throws 1, 4, 12, 13, 14, 19, 22.
   */
  updateTable: operation({
    operationId: "UpdateTable",
    method: "POST",
    path: "/v1/table/{id}/update",
    target: "table",
    body: "json",
    request: M.UpdateTableRequest,
    response: { kind: "json", schema: M.UpdateTableResponse },
  }),

  /** DeleteFromTable: deletes the rows matching `predicate`; answers the new version. Throws 1, 4, 12, 13, 14, 19, 22. */
  deleteFromTable: operation({
    operationId: "DeleteFromTable",
    method: "POST",
    path: "/v1/table/{id}/delete",
    target: "table",
    body: "json",
    request: M.DeleteFromTableRequest,
    response: { kind: "json", schema: M.DeleteFromTableResponse },
  }),

  // Reads (spec/endpoints.md §3.9, §5.6–5.9)

  /**
   * QueryTable: a filtered scan (`filter`, `columns`, `k`, `offset`), a vector search
   * (`vector`, `vector_column`) or a full-text search, on the latest version of main unless
   * `version` / `branch` say otherwise; resolves with an apache-arrow 18 `Table`. Without `k` a
   * scan returns every row and a search the top 10. Throws 1, 4, 11, 12, 13, 19, 22.
   */
  queryTable: operation({
    operationId: "QueryTable",
    method: "POST",
    path: "/v1/table/{id}/query",
    target: "table",
    body: "json",
    request: M.QueryTableRequest,
    response: { kind: "arrow-file" },
  }),

  /** CountTableRows: the rows matching `predicate` (all when absent), as a number. Throws 1, 4, 11, 12, 13, 22. */
  countTableRows: operation({
    operationId: "CountTableRows",
    method: "POST",
    path: "/v1/table/{id}/count_rows",
    target: "table",
    body: "json",
    request: M.CountTableRowsRequest,
    response: { kind: "integer" },
  }),

  /** ExplainTableQueryPlan: the plan `query` would run, as text; more detail with `verbose`. Throws 1, 4, 11, 12, 13, 19. */
  explainTableQueryPlan: operation({
    operationId: "ExplainTableQueryPlan",
    method: "POST",
    path: "/v1/table/{id}/explain_plan",
    target: "table",
    body: "json",
    request: M.ExplainTableQueryPlanRequest,
    response: { kind: "string" },
  }),

  /** AnalyzeTableQueryPlan: runs the query and answers its plan with execution metrics, as text. Throws 1, 4, 11, 12, 13, 19. */
  analyzeTableQueryPlan: operation({
    operationId: "AnalyzeTableQueryPlan",
    method: "POST",
    path: "/v1/table/{id}/analyze_plan",
    target: "table",
    body: "json",
    request: M.AnalyzeTableQueryPlanRequest,
    response: { kind: "string" },
  }),

  /** GetTableStats: size, row, index and fragment statistics of `branch` (default main). Throws 1, 4, 19, 22. */
  getTableStats: operation({
    operationId: "GetTableStats",
    method: "POST",
    path: "/v1/table/{id}/stats",
    target: "table",
    body: "json",
    request: M.GetTableStatsRequest,
    response: { kind: "json", schema: M.GetTableStatsResponse },
  }),
};
