/**
 * @module Operation entries of row writes: Arrow in for insert and merge-insert, with their
 * parameters in the query string; JSON for update and delete (spec/endpoints.md §5.2–5.5).
 */
import * as M from "../index.js";
import { json, operation } from "./operation-entry.js";

export const dataOperations = {
  /**
   * InsertIntoTable: appends Arrow rows (an apache-arrow Table or RecordBatch, or IPC bytes) to
   * `branch` (default main); mode `Overwrite` replaces every row. On a declared-only table the
   * rows create it. Throws 1, 4, 13, 14, 20 (schema mismatch), 22.
   */
  insertIntoTable: operation({
    operationId: "InsertIntoTable",
    summary: "Append (or overwrite with) the rows of an Arrow IPC stream",
    tag: "Data",
    access: "write",
    privilege: { needs: "INSERT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/insert",
    target: "table",
    body: "arrow",
    querySchema: M.InsertIntoTableQuery,
    query: ["mode", "branch", "upload_id", "upload_part_id"],
    request: M.InsertIntoTableRequest,
    response: json(M.InsertIntoTableResponse),
  }),

  /**
   * CreateMultipartWrite (LanceDB client extension): opens an upload whose parts arrive as
   * `insert?upload_id=` requests, staged beside the table's data, until complete or abort.
   * Throws 1, 4.
   */
  createMultipartWrite: operation({
    operationId: "CreateMultipartWrite",
    summary: "Open a multipart write: parts arrive as inserts naming its upload_id",
    tag: "Data",
    access: "write",
    privilege: { needs: "INSERT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/multipart_write/create",
    target: "table",
    body: "none",
    querySchema: M.CreateMultipartWriteQuery,
    query: ["branch"],
    request: M.CreateMultipartWriteRequest,
    response: json(M.CreateMultipartWriteResponse),
  }),

  /**
   * CompleteMultipartWrite (LanceDB client extension): commits every staged part as one
   * version; completing again answers the same version. Throws 1, 4, 13, 19, 20, 22.
   */
  completeMultipartWrite: operation({
    operationId: "CompleteMultipartWrite",
    summary: "Commit every part of a multipart write as one version",
    tag: "Data",
    access: "write",
    privilege: { needs: "INSERT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/multipart_write/complete",
    target: "table",
    body: "none",
    querySchema: M.MultipartWriteQuery,
    query: ["branch", "upload_id"],
    request: M.CompleteMultipartWriteRequest,
    response: json(M.CompleteMultipartWriteResponse),
  }),

  /**
   * AbortMultipartWrite (LanceDB client extension): forgets an upload and deletes its staged
   * parts; nothing is committed. Throws 1, 4, 13, 19 (already committed).
   */
  abortMultipartWrite: operation({
    operationId: "AbortMultipartWrite",
    summary: "Discard a multipart write and its staged parts",
    tag: "Data",
    access: "write",
    privilege: { needs: "INSERT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/multipart_write/abort",
    target: "table",
    body: "none",
    querySchema: M.MultipartWriteQuery,
    query: ["branch", "upload_id"],
    request: M.AbortMultipartWriteRequest,
    response: json(M.AbortMultipartWriteResponse),
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
    summary: "Upsert the rows of an Arrow IPC stream, matched on the `on` columns",
    tag: "Data",
    access: "write",
    privilege: { needs: ["INSERT", "UPDATE"], on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/merge_insert",
    target: "table",
    body: "arrow",
    querySchema: M.MergeInsertIntoTableQuery,
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
    response: json(M.MergeInsertIntoTableResponse),
  }),

  /**
   * UpdateTable: sets each `[column, sql_expression]` of `updates` on the rows matching
   * `predicate` (every row when absent). Answers `updated_rows` and the new version.
   * Throws 1, 4, 12, 13, 14, 19, 22.
   */
  updateTable: operation({
    operationId: "UpdateTable",
    summary: "Set columns to SQL expressions on the rows matching a predicate",
    tag: "Data",
    access: "write",
    privilege: { needs: "UPDATE", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/update",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.UpdateTableRequest,
    response: json(M.UpdateTableResponse),
  }),

  /** DeleteFromTable: deletes the rows matching `predicate`; answers the new version. Throws 1, 4, 12, 13, 14, 19, 22. */
  deleteFromTable: operation({
    operationId: "DeleteFromTable",
    summary: "Delete the rows matching a predicate",
    tag: "Data",
    access: "write",
    privilege: { needs: "DELETE", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/delete",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.DeleteFromTableRequest,
    response: json(M.DeleteFromTableResponse),
  }),
};
