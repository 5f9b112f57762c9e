/**
 * @module Operation entries of namespaces and the tables directly in one (spec/endpoints.md §2).
 */
import * as M from "../index.js";
import { json, operation, pageQuery } from "./operation-entry.js";

export const namespaceOperations = {
  /**
   * CreateNamespace: creates namespace `id`; its parent must exist. Mode `Create` (default)
   * fails when it exists, `ExistOk` keeps the existing one, `Overwrite` replaces it with an
   * empty one. Throws 1 (parent missing), 2 (exists), 13.
   */
  createNamespace: operation({
    operationId: "CreateNamespace",
    summary: "Create a namespace",
    tag: "Namespace",
    access: "write",
    privilege: { needs: "CREATE_NAMESPACE", on: "parent" },
    methods: ["POST"],
    path: "/v1/namespace/{id}/create",
    target: "namespace",
    body: "json",
    request: M.CreateNamespaceRequest,
    response: json(M.CreateNamespaceResponse),
  }),

  /** ListNamespaces: names of the direct children of namespace `id` (default root), paged by `limit` and `page_token`. Throws 1, 13. */
  listNamespaces: operation({
    operationId: "ListNamespaces",
    summary: "List the child namespaces of a namespace",
    tag: "Namespace",
    access: "read",
    privilege: { needs: "USAGE", on: "object" },
    methods: ["GET"],
    path: "/v1/namespace/{id}/list",
    // With the delimiter ".", URL libraries drop the root id "." (spec/clients.md §2.2).
    aliases: ["/v1/namespace/list"],
    target: "namespace",
    body: "none",
    querySchema: M.ListQuery,
    query: pageQuery,
    request: M.ListNamespacesRequest,
    response: json(M.ListNamespacesResponse),
  }),

  /** DescribeNamespace: the properties of namespace `id` (default root). Throws 1, 13. */
  describeNamespace: operation({
    operationId: "DescribeNamespace",
    summary: "Describe a namespace",
    tag: "Namespace",
    access: "read",
    privilege: { needs: "USAGE", on: "object" },
    methods: ["POST"],
    path: "/v1/namespace/{id}/describe",
    target: "namespace",
    body: "json",
    request: M.DescribeNamespaceRequest,
    response: json(M.DescribeNamespaceResponse),
  }),

  /**
   * DropNamespace: mode `Fail` (default) throws 1 when it is missing, `Skip` succeeds;
   * behavior `Restrict` (default) throws 3 when it holds anything, `Cascade` drops its
   * contents (table data included). Throws 1, 3, 13.
   */
  dropNamespace: operation({
    operationId: "DropNamespace",
    summary: "Drop a namespace",
    tag: "Namespace",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/namespace/{id}/drop",
    target: "namespace",
    body: "json",
    request: M.DropNamespaceRequest,
    response: json(M.DropNamespaceResponse),
  }),

  /** NamespaceExists: resolves when namespace `id` exists. Throws 1 when it does not, 13. */
  namespaceExists: operation({
    operationId: "NamespaceExists",
    summary: "Check whether a namespace exists (200 yes, 404 no)",
    tag: "Namespace",
    access: "read",
    privilege: { needs: "USAGE", on: "object" },
    methods: ["POST"],
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
    summary: "List the tables directly in a namespace",
    tag: "Namespace",
    access: "read",
    privilege: { needs: "USAGE", on: "object" },
    methods: ["GET"],
    path: "/v1/namespace/{id}/table/list",
    target: "namespace",
    body: "none",
    querySchema: M.ListQuery,
    query: [...pageQuery, "include_declared"],
    request: M.ListTablesRequest,
    response: json(M.ListTablesResponse),
  }),
};
