/**
 * @module The client's operation table: one entry per spec operation, keyed by the camelCase
 * operation name, which is also the `Catalog` method `dir` calls and the `Namespace` method
 * users call. Adding an operation to the client is adding its entry here (see
 * `operation-types.ts` for what an entry holds).
 */
import { type TObject, type TProperties, Type } from "@sinclair/typebox";
import * as M from "../model/index.js";
import type { OperationEntry } from "./operation-types.js";

function operation<const E extends OperationEntry>(entry: E): E {
  return entry;
}

/**
 * A request model with the fields its route's path needs made required: without them the
 * client could not address the route, so both implementations refuse the call alike (13).
 */
function withPathFields<T extends TObject, P extends TProperties>(model: T, fields: P) {
  const properties = { ...model.properties, ...fields } as Omit<T["properties"], keyof P> & P;
  return Type.Object(properties, { title: model.title, additionalProperties: true });
}

const pageQuery = ["page_token", "limit"] as const;
const IndexName = { index_name: Type.String({ minLength: 1 }) };
const TransactionId = { transaction_id: Type.String({ minLength: 1, description: "the id a write answered as `transaction_id`" }) };

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

  // Schema evolution (spec/endpoints.md §3.10, §6)

  /** AlterTableAddColumns: adds columns computed once from SQL `expression`s over the rows. Throws 0, 1, 4, 12, 13, 14, 19, 20. */
  alterTableAddColumns: operation({
    operationId: "AlterTableAddColumns",
    method: "POST",
    path: "/v1/table/{id}/add_columns",
    target: "table",
    body: "json",
    request: M.AlterTableAddColumnsRequest,
    response: { kind: "json", schema: M.AlterTableAddColumnsResponse },
  }),

  /** AlterTableAlterColumns: renames columns, changes their nullability or casts them (`data_type`). Throws 0, 1, 4, 12, 13, 14, 19, 20. */
  alterTableAlterColumns: operation({
    operationId: "AlterTableAlterColumns",
    method: "POST",
    path: "/v1/table/{id}/alter_columns",
    target: "table",
    body: "json",
    request: M.AlterTableAlterColumnsRequest,
    response: { kind: "json", schema: M.AlterTableAlterColumnsResponse },
  }),

  /** AlterTableDropColumns: removes columns by field path. Throws 1, 4, 12, 13, 14, 19. */
  alterTableDropColumns: operation({
    operationId: "AlterTableDropColumns",
    method: "POST",
    path: "/v1/table/{id}/drop_columns",
    target: "table",
    body: "json",
    request: M.AlterTableDropColumnsRequest,
    response: { kind: "json", schema: M.AlterTableDropColumnsResponse },
  }),

  /**
   * UpdateFieldMetadata: merges keys into fields' metadata (`replace` replaces the map; a
   * `null` value removes a key); answers the version and each field's metadata. Throws 1, 4, 12, 13, 14, 19.
   */
  updateFieldMetadata: operation({
    operationId: "UpdateFieldMetadata",
    method: "POST",
    path: "/v1/table/{id}/update_field_metadata",
    target: "table",
    body: "json",
    request: M.UpdateFieldMetadataRequest,
    response: { kind: "json", schema: M.UpdateFieldMetadataResponse },
  }),

  /**
   * UpdateTableSchemaMetadata: replaces the schema-level metadata with `metadata`, sent as the
   * bare map the route takes. This server's engine cannot do it: throws 0 (Unsupported) once
   * the table is found, and 1, 4, 19.
   */
  updateTableSchemaMetadata: operation({
    operationId: "UpdateTableSchemaMetadata",
    method: "POST",
    path: "/v1/table/{id}/schema_metadata/update",
    target: "table",
    body: "json",
    bodyField: "metadata",
    query: ["branch"],
    request: M.UpdateTableSchemaMetadataRequest,
    response: { kind: "json", schema: M.UpdateTableSchemaMetadataBody },
  }),

  // Indexes (spec/endpoints.md §7)

  /**
   * CreateTableIndex: builds a vector, scalar (BTREE, BITMAP, LABEL_LIST) or full-text (FTS)
   * index on `column`, named `<column>_idx` unless `name` says otherwise; an existing name
   * throws 7 unless `replace`. Throws 1, 4, 7, 12, 13, 14, 19.
   */
  createTableIndex: operation({
    operationId: "CreateTableIndex",
    method: "POST",
    path: "/v1/table/{id}/create_index",
    target: "table",
    body: "json",
    request: M.CreateTableIndexRequest,
    response: { kind: "json", schema: M.CreateTableIndexResponse },
  }),

  /** CreateTableScalarIndex: CreateTableIndex for scalar and full-text index types. Throws 1, 4, 7, 12, 13, 14, 19. */
  createTableScalarIndex: operation({
    operationId: "CreateTableScalarIndex",
    method: "POST",
    path: "/v1/table/{id}/create_scalar_index",
    target: "table",
    body: "json",
    request: M.CreateTableIndexRequest,
    response: { kind: "json", schema: M.CreateTableScalarIndexResponse },
  }),

  /** ListTableIndices: the table's indexes, by name, paged. Throws 1, 4, 11, 19, 22. */
  listTableIndices: operation({
    operationId: "ListTableIndices",
    method: "POST",
    path: "/v1/table/{id}/index/list",
    target: "table",
    body: "json",
    request: M.ListTableIndicesRequest,
    response: { kind: "json", schema: M.ListTableIndicesResponse },
  }),

  /** DescribeTableIndexStats: rows indexed and not, type and metric of index `index_name`. Throws 1, 4, 6, 11, 13, 19, 22. */
  describeTableIndexStats: operation({
    operationId: "DescribeTableIndexStats",
    method: "POST",
    path: "/v1/table/{id}/index/{index_name}/stats",
    target: "table",
    body: "json",
    request: withPathFields(M.DescribeTableIndexStatsRequest, IndexName),
    response: { kind: "json", schema: M.DescribeTableIndexStatsResponse },
  }),

  /** DropTableIndex: removes index `index_name` (the data stays). Throws 1, 4, 6, 13, 19, 22. */
  dropTableIndex: operation({
    operationId: "DropTableIndex",
    method: "POST",
    path: "/v1/table/{id}/index/{index_name}/drop",
    target: "table",
    body: "none",
    query: ["branch"],
    request: withPathFields(M.DropTableIndexRequest, IndexName),
    response: { kind: "json", schema: M.DropTableIndexResponse },
  }),

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

export type Operations = typeof operations;
export type OperationName = keyof Operations;

/** Names of the operations whose path id is a table: the methods of an opened table. */
export type TableOperationName = {
  [K in OperationName]: Operations[K]["target"] extends "table" ? K : never;
}[OperationName];
