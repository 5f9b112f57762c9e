/**
 * @module Client operation entries of the table metadata operations and CreateTable (spec/endpoints.md §3, §5.1).
 */
import * as M from "../model/index.js";
import { operation } from "./operation-types.js";

export const tableOperations = {
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
   * CloneTable: creates `id` as a shallow clone of the table at `source_location` (same
   * database), at `source_version` or `source_tag`; it shares the source's data files and has
   * its own history. `is_shallow: false` throws 0. Also throws 1, 4, 5, 8, 11, 13, 19.
   */
  cloneTable: operation({
    operationId: "CloneTable",
    method: "POST",
    path: "/v1/table/{id}/clone",
    target: "table",
    body: "json",
    request: M.CloneTableRequest,
    response: { kind: "json", schema: M.CloneTableResponse },
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

  // Creation with data (spec/endpoints.md §5.1)

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
