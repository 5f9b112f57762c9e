/**
 * @module Client operation entries of the namespace operations (spec/endpoints.md §2).
 */
import * as M from "../model/index.js";
import { operation, pageQuery } from "./operation-types.js";

export const namespaceOperations = {
  // Namespaces (spec/endpoints.md §2)

  /**
   * CreateNamespace: creates namespace `id`; its parent must exist. Mode `Create` (default)
   * fails when it exists, `ExistOk` keeps the existing one, `Overwrite` replaces it with an
   * empty one. Throws 1 (parent missing), 2 (exists), 13.
   */
  createNamespace: operation({
    operationId: "CreateNamespace",
    method: "POST",
    path: "/v1/namespace/{id}/create",
    target: "namespace",
    body: "json",
    request: M.CreateNamespaceRequest,
    response: { kind: "json", schema: M.CreateNamespaceResponse },
  }),

  /** ListNamespaces: names of the direct children of namespace `id` (default root), paged by `limit` and `page_token`. Throws 1, 13. */
  listNamespaces: operation({
    operationId: "ListNamespaces",
    method: "GET",
    path: "/v1/namespace/{id}/list",
    target: "namespace",
    body: "none",
    query: pageQuery,
    request: M.ListNamespacesRequest,
    response: { kind: "json", schema: M.ListNamespacesResponse },
  }),

  /** DescribeNamespace: the properties of namespace `id` (default root). Throws 1, 13. */
  describeNamespace: operation({
    operationId: "DescribeNamespace",
    method: "POST",
    path: "/v1/namespace/{id}/describe",
    target: "namespace",
    body: "json",
    request: M.DescribeNamespaceRequest,
    response: { kind: "json", schema: M.DescribeNamespaceResponse },
  }),

  /**
   * DropNamespace: mode `Fail` (default) throws 1 when it is missing, `Skip` succeeds;
   * behavior `Restrict` (default) throws 3 when it holds anything, `Cascade` drops its
   * contents (table data included). Throws 1, 3, 13.
   */
  dropNamespace: operation({
    operationId: "DropNamespace",
    method: "POST",
    path: "/v1/namespace/{id}/drop",
    target: "namespace",
    body: "json",
    request: M.DropNamespaceRequest,
    response: { kind: "json", schema: M.DropNamespaceResponse },
  }),

  /** NamespaceExists: resolves when namespace `id` exists. Throws 1 when it does not, 13. */
  namespaceExists: operation({
    operationId: "NamespaceExists",
    method: "POST",
    path: "/v1/namespace/{id}/exists",
    target: "namespace",
    body: "json",
    request: M.NamespaceExistsRequest,
    response: { kind: "empty" },
  }),

  /**
   * ListTables: names of the tables directly in namespace `id` (default root), paged.
   * Declared-only tables are included unless `include_declared` is false. Throws 1, 13.
   */
  listTables: operation({
    operationId: "ListTables",
    method: "GET",
    path: "/v1/namespace/{id}/table/list",
    target: "namespace",
    body: "none",
    query: [...pageQuery, "include_declared"],
    request: M.ListTablesRequest,
    response: { kind: "json", schema: M.ListTablesResponse },
  }),

  /**
   * ListAllTables: every table of the database as a full identifier joined with the
   * connection's delimiter (default `$`), paged. Throws 13.
   */
  listAllTables: operation({
    operationId: "ListAllTables",
    method: "GET",
    path: "/v1/table",
    target: "none",
    body: "none",
    query: [...pageQuery, "include_declared"],
    request: M.ListTablesRequest,
    response: { kind: "json", schema: M.ListTablesResponse },
  }),
};
