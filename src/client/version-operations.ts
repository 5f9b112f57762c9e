/**
 * @module Client operation entries of versions, atomic multi-table commits, tags, branches and
 * transactions (spec/endpoints.md §4, §8, §9, §11).
 */
import { Type } from "@sinclair/typebox";
import * as M from "../model/index.js";
import { operation, pageQuery, withPathFields } from "./operation-types.js";

const TransactionId = { transaction_id: Type.String({ minLength: 1, description: "the id a write answered as `transaction_id`" }) };

export const versionOperations = {
  // Versions (spec/endpoints.md §4)

  /** ListTableVersions: the versions of `branch` (default main), ascending unless `descending`, paged. Throws 1, 4, 13, 22. */
  listTableVersions: operation({
    operationId: "ListTableVersions",
    method: "POST",
    path: "/v1/table/{id}/version/list",
    target: "table",
    body: "none",
    query: ["branch", ...pageQuery, "descending"],
    request: M.ListTableVersionsRequest,
    response: { kind: "json", schema: M.ListTableVersionsResponse },
  }),

  /**
   * CreateTableVersion: commits `version` from the staged manifest at `manifest_path`
   * (put-if-not-exists; naming scheme V2 by default). Throws 1, 4, 13, 14 (the version exists), 22.
   */
  createTableVersion: operation({
    operationId: "CreateTableVersion",
    method: "POST",
    path: "/v1/table/{id}/version/create",
    target: "table",
    body: "json",
    request: M.CreateTableVersionRequest,
    response: { kind: "json", schema: M.CreateTableVersionResponse },
  }),

  /** DescribeTableVersion: one version of `branch`, the latest when `version` is absent. Throws 1, 4, 11, 22. */
  describeTableVersion: operation({
    operationId: "DescribeTableVersion",
    method: "POST",
    path: "/v1/table/{id}/version/describe",
    target: "table",
    body: "json",
    request: M.DescribeTableVersionRequest,
    response: { kind: "json", schema: M.DescribeTableVersionResponse },
  }),

  /**
   * BatchDeleteTableVersions: removes the version records and manifests in `ranges` (never data
   * files), keeping the latest and tagged versions; `{0, -1}` means all. Throws 1, 4, 13, 22.
   */
  batchDeleteTableVersions: operation({
    operationId: "BatchDeleteTableVersions",
    method: "POST",
    path: "/v1/table/{id}/version/delete",
    target: "table",
    body: "json",
    request: M.BatchDeleteTableVersionsRequest,
    response: { kind: "json", schema: M.BatchDeleteTableVersionsResponse },
  }),

  /**
   * BatchCreateTableVersions: creates every entry's version (across tables) or none: one
   * conflict (14), missing table (1, 4), branch (22) or staged manifest (13) fails the batch.
   */
  batchCreateTableVersions: operation({
    operationId: "BatchCreateTableVersions",
    method: "POST",
    path: "/v1/table/version/batch-create",
    target: "none",
    body: "json",
    request: M.BatchCreateTableVersionsRequest,
    response: { kind: "json", schema: M.BatchCreateTableVersionsResponse },
  }),

  /**
   * BatchCommitTables: declare / create-version / delete-versions / deregister operations
   * applied all or none, in order; results in request order. Throws 1, 4, 5, 13, 14, 22.
   */
  batchCommitTables: operation({
    operationId: "BatchCommitTables",
    method: "POST",
    path: "/v1/table/batch-commit",
    target: "none",
    body: "json",
    request: M.BatchCommitTablesRequest,
    response: { kind: "json", schema: M.BatchCommitTablesResponse },
  }),

  // Tags (spec/endpoints.md §8)

  /** ListTableTags: tag name → `{ version, manifestSize, branch? }`, by name, paged. Throws 1, 4. */
  listTableTags: operation({
    operationId: "ListTableTags",
    // GET on the route without a trailing slash answers the spec's `{ tags }` shape.
    method: "GET",
    path: "/v1/table/{id}/tags/list",
    target: "table",
    body: "none",
    query: pageQuery,
    request: M.ListTableTagsRequest,
    response: { kind: "json", schema: M.ListTableTagsResponse },
  }),

  /** GetTableTagVersion: the version (and, unless main, the branch) tag `tag` points at. Throws 1, 4, 8. */
  getTableTagVersion: operation({
    operationId: "GetTableTagVersion",
    method: "POST",
    path: "/v1/table/{id}/tags/version",
    target: "table",
    body: "json",
    request: M.GetTableTagVersionRequest,
    response: { kind: "json", schema: M.GetTableTagVersionResponse },
  }),

  /** CreateTableTag: points a new tag at `version` of `branch` (default main). Throws 1, 4, 9 (tag exists), 11, 13, 22. */
  createTableTag: operation({
    operationId: "CreateTableTag",
    method: "POST",
    path: "/v1/table/{id}/tags/create",
    target: "table",
    body: "json",
    request: M.CreateTableTagRequest,
    response: { kind: "json", schema: M.CreateTableTagResponse },
  }),

  /** UpdateTableTag: re-points an existing tag at `version`. Throws 1, 4, 8 (no such tag), 11, 13, 22. */
  updateTableTag: operation({
    operationId: "UpdateTableTag",
    method: "POST",
    path: "/v1/table/{id}/tags/update",
    target: "table",
    body: "json",
    request: M.UpdateTableTagRequest,
    response: { kind: "json", schema: M.UpdateTableTagResponse },
  }),

  /** DeleteTableTag: removes the tag; its version stays. Throws 1, 4, 8. */
  deleteTableTag: operation({
    operationId: "DeleteTableTag",
    method: "POST",
    path: "/v1/table/{id}/tags/delete",
    target: "table",
    body: "json",
    request: M.DeleteTableTagRequest,
    response: { kind: "json", schema: M.DeleteTableTagResponse },
  }),

  // Branches (spec/endpoints.md §9)

  /** ListTableBranches: branch name → `{ parentBranch?, parentVersion, createAt, manifestSize }`, paged. Throws 1, 4. */
  listTableBranches: operation({
    operationId: "ListTableBranches",
    method: "POST",
    path: "/v1/table/{id}/branches/list",
    target: "table",
    body: "none",
    query: pageQuery,
    request: M.ListTableBranchesRequest,
    response: { kind: "json", schema: M.ListTableBranchesResponse },
  }),

  /**
   * CreateTableBranch: forks `name` from `from_branch` (default main) at `from_version`
   * (default its latest). Throws 1, 4, 11, 13 (bad name), 22 (source branch missing), 23 (name taken).
   */
  createTableBranch: operation({
    operationId: "CreateTableBranch",
    method: "POST",
    path: "/v1/table/{id}/branches/create",
    target: "table",
    body: "json",
    request: M.CreateTableBranchRequest,
    response: { kind: "json", schema: M.CreateTableBranchResponse },
  }),

  /** DeleteTableBranch: removes branch `name` and its versions; a branch tags point into throws 19. Throws 1, 4, 19, 22. */
  deleteTableBranch: operation({
    operationId: "DeleteTableBranch",
    method: "POST",
    path: "/v1/table/{id}/branches/delete",
    target: "table",
    body: "json",
    request: M.DeleteTableBranchRequest,
    response: { kind: "json", schema: M.DeleteTableBranchResponse },
  }),

  /** DiffTableBranch: this server's engine cannot diff branches; throws 0 once the table and branch are found, and 1, 4, 22. */
  diffTableBranch: operation({
    operationId: "DiffTableBranch",
    method: "POST",
    path: "/v1/table/{id}/branches/diff",
    target: "table",
    body: "json",
    request: M.DiffTableBranchRequest,
    response: { kind: "json", schema: M.DiffTableBranchResponse },
  }),

  /** CherryPickTableBranch: this server's engine cannot cherry-pick; throws 0 once the table and branch are found, and 1, 4, 22. */
  cherryPickTableBranch: operation({
    operationId: "CherryPickTableBranch",
    method: "POST",
    path: "/v1/table/{id}/branches/cherry_pick",
    target: "table",
    body: "json",
    request: M.CherryPickTableBranchRequest,
    response: { kind: "json", schema: M.CherryPickTableBranchResponse },
  }),

  // Transactions (spec/endpoints.md §11)

  /** DescribeTransaction: status and properties of the transaction `transaction_id` a write answered. Throws 10, 13. */
  describeTransaction: operation({
    operationId: "DescribeTransaction",
    method: "POST",
    path: "/v1/transaction/{transaction_id}/describe",
    target: "none",
    pathArgs: ["transaction_id"],
    catalogRequest: false,
    body: "json",
    request: withPathFields(M.DescribeTransactionRequest, TransactionId),
    response: { kind: "json", schema: M.DescribeTransactionResponse },
  }),

  /**
   * AlterTransaction: applies every action (set status, set or unset a property) or none; a
   * finished transaction keeps its outcome (14). Throws 10, 13, 14.
   */
  alterTransaction: operation({
    operationId: "AlterTransaction",
    method: "POST",
    path: "/v1/transaction/{transaction_id}/alter",
    target: "none",
    pathArgs: ["transaction_id"],
    body: "json",
    request: withPathFields(M.AlterTransactionRequest, TransactionId),
    response: { kind: "json", schema: M.AlterTransactionResponse },
  }),
};
