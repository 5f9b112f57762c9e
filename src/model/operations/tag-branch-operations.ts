/**
 * @module Operation entries of tags and branches (spec/endpoints.md §8, §9).
 */
import * as M from "../index.js";
import { json, operation, pageQuery } from "./operation-entry.js";

export const tagBranchOperations = {
  /** ListTableTags: tag name → `{ version, manifestSize, branch? }`, by name, paged. Throws 1, 4. */
  listTableTags: operation({
    operationId: "ListTableTags",
    summary: "List a table's tags",
    tag: "Tag",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    // GET from the namespace client, bodiless POST from the Cloud client; GET on the route
    // without a trailing slash answers the spec's `{ tags }` shape.
    methods: ["GET", "POST"],
    path: "/v1/table/{id}/tags/list",
    target: "table",
    body: "none",
    querySchema: M.ListTableTagsQuery,
    query: pageQuery,
    request: M.ListTableTagsRequest,
    response: json(M.ListTableTagsResponse),
  }),

  /** GetTableTagVersion: the version (and, unless main, the branch) tag `tag` points at. Throws 1, 4, 8. */
  getTableTagVersion: operation({
    operationId: "GetTableTagVersion",
    summary: "The version (and branch) a tag points at",
    tag: "Tag",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/tags/version",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.GetTableTagVersionRequest,
    response: json(M.GetTableTagVersionResponse),
  }),

  /** CreateTableTag: points a new tag at `version` of `branch` (default main). Throws 1, 4, 9 (tag exists), 11, 13, 22. */
  createTableTag: operation({
    operationId: "CreateTableTag",
    summary: "Create a tag pointing at a version",
    tag: "Tag",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/tags/create",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.CreateTableTagRequest,
    response: json(M.CreateTableTagResponse),
  }),

  /** DeleteTableTag: removes the tag; its version stays. Throws 1, 4, 8. */
  deleteTableTag: operation({
    operationId: "DeleteTableTag",
    summary: "Delete a tag",
    tag: "Tag",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/tags/delete",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.DeleteTableTagRequest,
    response: json(M.DeleteTableTagResponse),
  }),

  /** UpdateTableTag: re-points an existing tag at `version`. Throws 1, 4, 8 (no such tag), 11, 13, 22. */
  updateTableTag: operation({
    operationId: "UpdateTableTag",
    summary: "Re-point a tag at another version",
    tag: "Tag",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/tags/update",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.UpdateTableTagRequest,
    response: json(M.UpdateTableTagResponse),
  }),

  /** ListTableBranches: branch name → `{ parentBranch?, parentVersion, createAt, manifestSize }`, paged. Throws 1, 4. */
  listTableBranches: operation({
    operationId: "ListTableBranches",
    summary: "List a table's branches",
    tag: "Branch",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    // The namespace client sends its request model as a body; paging travels in the query.
    methods: ["POST"],
    path: "/v1/table/{id}/branches/list",
    target: "table",
    body: "none",
    querySchema: M.ListTableBranchesQuery,
    query: pageQuery,
    request: M.ListTableBranchesRequest,
    response: json(M.ListTableBranchesResponse),
  }),

  /**
   * CreateTableBranch: forks `name` from `from_branch` (default main) at `from_version`
   * (default its latest). Throws 1, 4, 11, 13 (bad name), 22 (source branch missing), 23 (name taken).
   */
  createTableBranch: operation({
    operationId: "CreateTableBranch",
    summary: "Fork a branch from a branch and version",
    tag: "Branch",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/branches/create",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.CreateTableBranchRequest,
    response: json(M.CreateTableBranchResponse),
  }),

  /** DeleteTableBranch: removes branch `name` and its versions; a branch tags point into throws 19. Throws 1, 4, 19, 22. */
  deleteTableBranch: operation({
    operationId: "DeleteTableBranch",
    summary: "Delete a branch",
    tag: "Branch",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/branches/delete",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.DeleteTableBranchRequest,
    response: json(M.DeleteTableBranchResponse),
  }),

  /** DiffTableBranch: this server's engine cannot diff branches; throws 0 once the table and branch are found, and 1, 4, 22. */
  diffTableBranch: operation({
    operationId: "DiffTableBranch",
    summary: "Changes of a branch (unsupported: answers 406)",
    tag: "Branch",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/branches/diff",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.DiffTableBranchRequest,
    response: json(M.DiffTableBranchResponse),
  }),

  /** CherryPickTableBranch: this server's engine cannot cherry-pick; throws 0 once the table and branch are found, and 1, 4, 22. */
  cherryPickTableBranch: operation({
    operationId: "CherryPickTableBranch",
    summary: "Apply a branch's changes (unsupported: answers 406)",
    tag: "Branch",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/branches/cherry_pick",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.CherryPickTableBranchRequest,
    response: json(M.CherryPickTableBranchResponse),
  }),
};
