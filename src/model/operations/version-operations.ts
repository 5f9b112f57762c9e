/**
 * @module Operation entries of versions and the atomic multi-table commits (spec/endpoints.md §4).
 */
import * as M from "../index.js";
import { json, operation, pageQuery } from "./operation-entry.js";

export const versionOperations = {
  /** ListTableVersions: the versions of `branch` (default main), ascending unless `descending`, paged. Throws 1, 4, 13, 22. */
  listTableVersions: operation({
    operationId: "ListTableVersions",
    summary: "List the versions of a table's branch",
    tag: "Table",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    // POST with body `null` (lance 12) or GET (older clients); parameters in the query.
    methods: ["POST", "GET"],
    path: "/v1/table/{id}/version/list",
    target: "table",
    body: "none",
    querySchema: M.ListTableVersionsQuery,
    query: ["branch", ...pageQuery, "descending"],
    request: M.ListTableVersionsRequest,
    response: json(M.ListTableVersionsResponse),
  }),

  /**
   * CreateTableVersion: commits `version` from the staged manifest at `manifest_path`
   * (put-if-not-exists; naming scheme V2 by default). Throws 1, 4, 13, 14 (the version exists), 22.
   */
  createTableVersion: operation({
    operationId: "CreateTableVersion",
    summary: "Commit a version from a staged manifest (put-if-not-exists)",
    tag: "Table",
    access: "write",
    privilege: { needs: ["INSERT", "UPDATE", "DELETE"], on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/version/create",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.CreateTableVersionRequest,
    response: json(M.CreateTableVersionResponse),
  }),

  /** DescribeTableVersion: one version of `branch`, the latest when `version` is absent. Throws 1, 4, 11, 22. */
  describeTableVersion: operation({
    operationId: "DescribeTableVersion",
    summary: "Describe one version of a table (the latest by default)",
    tag: "Table",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/version/describe",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.DescribeTableVersionRequest,
    response: json(M.DescribeTableVersionResponse),
  }),

  /**
   * BatchDeleteTableVersions: removes the version records and manifests in `ranges` (never data
   * files), keeping the latest and tagged versions; `{0, -1}` means all. Throws 1, 4, 13, 22.
   */
  batchDeleteTableVersions: operation({
    operationId: "BatchDeleteTableVersions",
    summary: "Delete version records and manifests by range (never data files)",
    tag: "Table",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/version/delete",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.BatchDeleteTableVersionsRequest,
    response: json(M.BatchDeleteTableVersionsResponse),
  }),

  /**
   * BatchCreateTableVersions: creates every entry's version (across tables) or none: one
   * conflict (14), missing table (1, 4), branch (22) or staged manifest (13) fails the batch.
   */
  batchCreateTableVersions: operation({
    operationId: "BatchCreateTableVersions",
    summary: "Create versions of several tables atomically",
    tag: "Table",
    access: "write",
    privilege: { needs: ["INSERT", "UPDATE", "DELETE"], on: "database" },
    methods: ["POST"],
    path: "/v1/table/version/batch-create",
    target: "none",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.BatchCreateTableVersionsRequest,
    response: json(M.BatchCreateTableVersionsResponse),
  }),

  /**
   * BatchCommitTables: declare / create-version / delete-versions / deregister operations
   * applied all or none, in order; results in request order. Throws 1, 4, 5, 13, 14, 22.
   */
  batchCommitTables: operation({
    operationId: "BatchCommitTables",
    summary: "Apply declare / create-version / delete-versions / deregister operations atomically",
    tag: "Table",
    access: "write",
    privilege: { needs: ["INSERT", "UPDATE", "DELETE"], on: "database" },
    methods: ["POST"],
    path: "/v1/table/batch-commit",
    target: "none",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.BatchCommitTablesRequest,
    response: json(M.BatchCommitTablesResponse),
  }),
};
