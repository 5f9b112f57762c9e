/**
 * @module The client's operation table: one entry per spec operation, keyed by the camelCase
 * operation name, which is also the `Catalog` method `dir` calls and the `Namespace` method
 * users call. Adding an operation to the client is adding its entry here (see
 * `operation-types.ts` for what an entry holds).
 */
import * as M from "../model/index.js";
import type { OperationEntry } from "./operation-types.js";

function operation<const E extends OperationEntry>(entry: E): E {
  return entry;
}

const pageQuery = ["page_token", "limit"] as const;

export const operations = {
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

  // Table metadata (spec/endpoints.md §3)

  /**
   * RegisterTable: adds the existing Lance table at `location` (inside the storage root)
   * under `id`. Mode `Create` (default) throws 5 when the name is taken, `Overwrite` re-points
   * it. Throws 1, 5, 13 (no Lance table there).
   */
  registerTable: operation({
    operationId: "RegisterTable",
    method: "POST",
    path: "/v1/table/{id}/register",
    target: "table",
    body: "json",
    request: M.RegisterTableRequest,
    response: { kind: "json", schema: M.RegisterTableResponse },
  }),

  /**
   * DescribeTable: location and properties; version, schema and stats too when the table has
   * data (unless `load_detailed_metadata` is false). `version`, `branch` or `tag` select what
   * is described. Throws 1, 4, 8, 11, 13, 19 (details asked of a declared-only table), 22.
   */
  describeTable: operation({
    operationId: "DescribeTable",
    method: "POST",
    path: "/v1/table/{id}/describe",
    target: "table",
    body: "json",
    request: M.DescribeTableRequest,
    response: { kind: "json", schema: M.DescribeTableResponse },
  }),

  /** TableExists: resolves when the table exists (declared-only included). Throws 1, 4, 11, 13. */
  tableExists: operation({
    operationId: "TableExists",
    method: "POST",
    path: "/v1/table/{id}/exists",
    target: "table",
    body: "json",
    request: M.TableExistsRequest,
    response: { kind: "empty" },
  }),

  /** DropTable: removes the table and deletes its data. Takes `{ namespace, name }` too. Throws 1, 4, 13. */
  dropTable: operation({
    operationId: "DropTable",
    method: "POST",
    path: "/v1/table/{id}/drop",
    target: "table",
    namespaceInput: true,
    body: "none",
    request: M.DropTableRequest,
    response: { kind: "json", schema: M.DropTableResponse },
  }),

  /** DeregisterTable: removes the table from its namespace and keeps its files. Throws 1, 4, 13. */
  deregisterTable: operation({
    operationId: "DeregisterTable",
    method: "POST",
    path: "/v1/table/{id}/deregister",
    target: "table",
    body: "json",
    request: M.DeregisterTableRequest,
    response: { kind: "json", schema: M.DeregisterTableResponse },
  }),

  /** RestoreTable: commits a new version whose content is `version`. Throws 1, 4, 11, 13, 14. */
  restoreTable: operation({
    operationId: "RestoreTable",
    method: "POST",
    path: "/v1/table/{id}/restore",
    target: "table",
    body: "json",
    request: M.RestoreTableRequest,
    response: { kind: "json", schema: M.RestoreTableResponse },
  }),

  /**
   * RenameTable: gives the table `new_table_name` and, with `new_namespace_id`, moves it to
   * another namespace; the data stays in place. Takes `{ namespace, name }` too.
   * Throws 1 (target namespace), 4, 5 (target taken), 13.
   */
  renameTable: operation({
    operationId: "RenameTable",
    method: "POST",
    path: "/v1/table/{id}/rename",
    target: "table",
    namespaceInput: true,
    body: "json",
    request: M.RenameTableRequest,
    response: { kind: "json", schema: M.RenameTableResponse },
  }),

  /**
   * DeclareTable: reserves the name and a location without writing data; the answer's
   * `location` is where the caller writes the table. Throws 1, 5, 13.
   */
  declareTable: operation({
    operationId: "DeclareTable",
    method: "POST",
    path: "/v1/table/{id}/declare",
    target: "table",
    body: "json",
    request: M.DeclareTableRequest,
    response: { kind: "json", schema: M.DeclareTableResponse },
  }),

  // Data (spec/endpoints.md §5)

  /**
   * CreateTable from Arrow data (an apache-arrow Table or RecordBatch, or IPC bytes); a
   * schema-only table makes an empty table. Mode `Create` (default) throws 5 when a table with
   * data exists, `ExistOk` keeps it, `Overwrite` replaces its rows. Takes `{ namespace, name }`
   * too. Throws 1, 5, 13, 20.
   */
  createTable: operation({
    operationId: "CreateTable",
    method: "POST",
    path: "/v1/table/{id}/create",
    target: "table",
    namespaceInput: true,
    body: "arrow",
    query: ["mode"],
    jsonQuery: ["properties", "storage_options"],
    request: M.CreateTableRequest,
    response: { kind: "json", schema: M.CreateTableResponse },
  }),
};

export type Operations = typeof operations;
export type OperationName = keyof Operations;

/** Names of the operations whose path id is a table: the methods of an opened table. */
export type TableOperationName = {
  [K in OperationName]: Operations[K]["target"] extends "table" ? K : never;
}[OperationName];
