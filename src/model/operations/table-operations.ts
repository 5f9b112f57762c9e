/**
 * @module Operation entries of table metadata, CreateTable and the managed deployment's table
 * routes (spec/endpoints.md §2.7, §3, §5.1; service description: Extended API).
 */
import * as M from "../index.js";
import { json, operation, pageQuery } from "./operation-entry.js";

export const tableOperations = {
  /**
   * ListAllTables: every table of the database as a full identifier joined with the
   * connection's delimiter (default `$`), paged. Throws 13.
   */
  listAllTables: operation({
    operationId: "ListAllTables",
    summary: "List every table of the database by full identifier",
    tag: "Table",
    access: "read",
    privilege: { needs: "USAGE", on: "database" },
    methods: ["GET"],
    path: "/v1/table",
    target: "none",
    body: "none",
    querySchema: M.ListQuery,
    query: [...pageQuery, "include_declared"],
    request: M.ListTablesRequest,
    response: json(M.ListTablesResponse),
  }),

  /**
   * RegisterTable: adds the existing Lance table at `location` (inside the storage root)
   * under `id`. Mode `Create` (default) throws 5 when the name is taken, `Overwrite` re-points
   * it. Throws 1, 5, 13 (no Lance table there).
   */
  registerTable: operation({
    operationId: "RegisterTable",
    summary: "Register an existing Lance table under an identifier",
    tag: "Table",
    access: "write",
    privilege: { needs: "CREATE_TABLE", on: "parent" },
    methods: ["POST"],
    path: "/v1/table/{id}/register",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.RegisterTableRequest,
    response: json(M.RegisterTableResponse),
  }),

  /**
   * CloneTable: creates `id` as a shallow clone of the table at `source_location` (same
   * database), at `source_version` or `source_tag`; it shares the source's data files and has
   * its own history. `is_shallow: false` throws 0. Also throws 1, 4, 5, 8, 11, 13, 19.
   */
  cloneTable: operation({
    operationId: "CloneTable",
    summary: "Create a table as a shallow clone of another table's version or tag",
    tag: "Table",
    access: "write",
    privilege: { needs: "CREATE_TABLE", on: "parent" },
    methods: ["POST"],
    path: "/v1/table/{id}/clone",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.CloneTableRequest,
    response: json(M.CloneTableResponse),
  }),

  /**
   * DescribeTable: location and properties; version, schema and stats too when the table has
   * data (unless `load_detailed_metadata` is false). `version`, `branch` or `tag` select what
   * is described. Throws 1, 4, 8, 11, 13, 19 (details asked of a declared-only table), 22.
   */
  describeTable: operation({
    operationId: "DescribeTable",
    summary: "Describe a table: location, properties and, when it has data, version, schema and stats",
    tag: "Table",
    access: "read",
    privilege: { needs: "visible", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/describe",
    target: "table",
    body: "json",
    querySchema: M.DescribeTableQuery,
    request: M.DescribeTableRequest,
    response: json(M.DescribeTableResponse),
  }),

  /** TableExists: resolves when the table exists (declared-only included). Throws 1, 4, 11, 13. */
  tableExists: operation({
    operationId: "TableExists",
    summary: "Check whether a table exists (200 yes, 404 no)",
    tag: "Table",
    access: "read",
    privilege: { needs: "visible", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/exists",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.TableExistsRequest,
    response: { kind: "empty" },
  }),

  /** DropTable: removes the table and deletes its data. Takes `{ namespace, name }` too. Throws 1, 4, 13. */
  dropTable: operation({
    operationId: "DropTable",
    summary: "Drop a table and delete its data",
    tag: "Table",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/drop",
    target: "table",
    namespaceInput: true,
    body: "none",
    querySchema: M.DelimiterQuery,
    request: M.DropTableRequest,
    response: json(M.DropTableResponse),
  }),

  /**
   * ListDroppedTables: tables of a namespace dropped under a drop retention and not yet purged,
   * paged by `dropped_id`. Writers and admins only: a reader never saw a drop. Throws 1, 13.
   */
  listDroppedTables: operation({
    operationId: "ListDroppedTables",
    summary: "List the dropped tables of a namespace that can still be restored",
    tag: "Table",
    access: "write",
    privilege: { needs: "CREATE_TABLE", on: "object" },
    methods: ["GET"],
    path: "/v1/namespace/{id}/dropped_tables",
    target: "namespace",
    body: "none",
    querySchema: M.ListQuery,
    query: [...pageQuery],
    request: M.ListDroppedTablesRequest,
    response: json(M.ListDroppedTablesResponse),
  }),

  /**
   * UndropTable: restores a table dropped under a drop retention, with its rows, versions, tags,
   * branches, indexes and properties. Throws 1 (its namespace is gone), 4 (no kept drop),
   * 5 (the name is taken), 13.
   */
  undropTable: operation({
    operationId: "UndropTable",
    summary: "Restore a dropped table kept by the drop retention",
    tag: "Table",
    access: "write",
    privilege: { needs: "CREATE_TABLE", on: "parent" },
    methods: ["POST"],
    path: "/v1/table/{id}/undrop",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.UndropTableRequest,
    response: json(M.UndropTableResponse),
  }),

  /** DeregisterTable: removes the table from its namespace and keeps its files. Throws 1, 4, 13. */
  deregisterTable: operation({
    operationId: "DeregisterTable",
    summary: "Remove a table from its namespace, keeping its data",
    tag: "Table",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/deregister",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.DeregisterTableRequest,
    response: json(M.DeregisterTableResponse),
  }),

  /** RestoreTable: commits a new version whose content is `version`. Throws 1, 4, 11, 13, 14. */
  restoreTable: operation({
    operationId: "RestoreTable",
    summary: "Make an older version the newest one",
    tag: "Table",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/restore",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.RestoreTableRequest,
    response: json(M.RestoreTableResponse),
  }),

  /**
   * RenameTable: gives the table `new_table_name` and, with `new_namespace_id`, moves it to
   * another namespace; the data stays in place. Takes `{ namespace, name }` too.
   * Throws 1 (target namespace), 4, 5 (target taken), 13.
   */
  renameTable: operation({
    operationId: "RenameTable",
    summary: "Rename a table, optionally into another namespace (metadata only)",
    tag: "Table",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/rename",
    target: "table",
    namespaceInput: true,
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.RenameTableRequest,
    response: json(M.RenameTableResponse),
  }),

  /**
   * DeclareTable: reserves the name and a location without writing data; the answer's
   * `location` is where the caller writes the table. Throws 1, 5, 13.
   */
  declareTable: operation({
    operationId: "DeclareTable",
    summary: "Reserve a table name and location without writing data",
    tag: "Table",
    access: "write",
    privilege: { needs: "CREATE_TABLE", on: "parent" },
    methods: ["POST"],
    path: "/v1/table/{id}/declare",
    // Older clients call the deprecated CreateEmptyTable, which now means DeclareTable.
    aliases: ["/v1/table/{id}/create-empty"],
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.DeclareTableRequest,
    response: json(M.DeclareTableResponse),
  }),

  /**
   * CreateTable from Arrow data (an apache-arrow Table or RecordBatch, or IPC bytes); a
   * schema-only table makes an empty table. Mode `Create` (default) throws 5 when a table with
   * data exists, `ExistOk` keeps it, `Overwrite` replaces its rows. Takes `{ namespace, name }`
   * too. Throws 1, 5, 13, 20.
   */
  createTable: operation({
    operationId: "CreateTable",
    summary: "Create a table from an Arrow IPC stream",
    tag: "Data",
    access: "write",
    privilege: { needs: "CREATE_TABLE", on: "parent" },
    methods: ["POST"],
    path: "/v1/table/{id}/create",
    target: "table",
    namespaceInput: true,
    body: "arrow",
    querySchema: M.CreateTableQuery,
    query: ["mode"],
    jsonQuery: ["properties", "storage_options"],
    request: M.CreateTableRequest,
    response: json(M.CreateTableResponse),
  }),

  /** ListTablesExtended: ListAllTables at the managed deployment's `/v1/tables`. */
  listTablesExtended: operation({
    operationId: "ListTablesExtended",
    summary: "List every table of the database (managed-deployment API)",
    tag: "Extended",
    access: "read",
    privilege: { needs: "USAGE", on: "database" },
    methods: ["GET"],
    path: "/v1/tables",
    target: "none",
    client: false,
    body: "none",
    querySchema: M.ListQuery,
    request: M.ListTablesRequest,
    response: json(M.ListTablesResponse),
  }),

  /** CreateTableExtended: CreateTable at the managed deployment's `/v1/tables/{table_name}`, used by its connection check. */
  createTableExtended: operation({
    operationId: "CreateTableExtended",
    summary: "Create a table from an Arrow IPC stream (managed-deployment API)",
    tag: "Extended",
    access: "write",
    privilege: { needs: "CREATE_TABLE", on: "database" },
    methods: ["POST"],
    path: "/v1/tables/{table_name}",
    target: "none",
    client: false,
    body: "arrow",
    querySchema: M.CreateTableQuery,
    jsonQuery: ["properties", "storage_options"],
    request: M.CreateTableRequest,
    response: json(M.CreateTableResponse),
  }),
};
