/**
 * @module Operation entries of schema evolution and indexes (spec/endpoints.md §3.10, §6.1–6.4,
 * §7). Index builds and drops run as jobs when asked not to wait (docs/jobs.md).
 */
import { Type } from "@sinclair/typebox";
import * as M from "../index.js";
import { json, operation } from "./operation-entry.js";

const IndexName = { index_name: Type.String({ minLength: 1 }) };

export const schemaIndexOperations = {
  /** AlterTableAddColumns: adds columns computed once from SQL `expression`s over the rows. Throws 0, 1, 4, 12, 13, 14, 19, 20. */
  alterTableAddColumns: operation({
    operationId: "AlterTableAddColumns",
    summary: "Add columns computed from SQL expressions",
    tag: "Table",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/add_columns",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.AlterTableAddColumnsRequest,
    response: json(M.AlterTableAddColumnsResponse),
  }),

  /** AlterTableAlterColumns: renames columns, changes their nullability or casts them (`data_type`). Throws 0, 1, 4, 12, 13, 14, 19, 20. */
  alterTableAlterColumns: operation({
    operationId: "AlterTableAlterColumns",
    summary: "Rename columns, change their nullability or type",
    tag: "Table",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/alter_columns",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.AlterTableAlterColumnsRequest,
    response: json(M.AlterTableAlterColumnsResponse),
  }),

  /** AlterTableDropColumns: removes columns by field path. Throws 1, 4, 12, 13, 14, 19. */
  alterTableDropColumns: operation({
    operationId: "AlterTableDropColumns",
    summary: "Drop columns",
    tag: "Table",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/drop_columns",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.AlterTableDropColumnsRequest,
    response: json(M.AlterTableDropColumnsResponse),
  }),

  /**
   * UpdateFieldMetadata: merges keys into fields' metadata (`replace` replaces the map; a
   * `null` value removes a key); answers the version and each field's metadata. Throws 1, 4, 12, 13, 14, 19.
   */
  updateFieldMetadata: operation({
    operationId: "UpdateFieldMetadata",
    summary: "Merge or replace the metadata of fields",
    tag: "Table",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/update_field_metadata",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.UpdateFieldMetadataRequest,
    response: json(M.UpdateFieldMetadataResponse),
  }),

  /**
   * UpdateTableSchemaMetadata: merges `metadata`, sent as the bare map the route takes, into the
   * schema-level metadata; answers the whole map. Changing an existing key's value throws 0
   * (Unsupported); also 1, 4, 14, 19.
   */
  updateTableSchemaMetadata: operation({
    operationId: "UpdateTableSchemaMetadata",
    summary: "Replace the table's schema metadata (bare JSON map in and out)",
    tag: "Table",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/schema_metadata/update",
    target: "table",
    body: "json",
    bodySchema: M.UpdateTableSchemaMetadataBody,
    bodyField: "metadata",
    querySchema: M.UpdateTableSchemaQuery,
    query: ["branch"],
    request: M.UpdateTableSchemaMetadataRequest,
    response: json(M.UpdateTableSchemaMetadataBody),
  }),

  /**
   * CreateTableIndex: builds a vector, scalar (BTREE, BITMAP, LABEL_LIST) or full-text (FTS)
   * index on `column`, named `<column>_idx` unless `name` says otherwise; an index of that name
   * is rebuilt unless `replace` is false (then 7). Throws 1, 4, 7, 12, 13, 14, 19.
   */
  createTableIndex: operation({
    operationId: "CreateTableIndex",
    summary: "Build a vector, scalar or full-text index",
    tag: "Index",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/create_index",
    target: "table",
    body: "json",
    querySchema: M.IndexJobQuery,
    request: M.CreateTableIndexRequest,
    response: json(M.CreateTableIndexResponse),
  }),

  /** CreateTableScalarIndex: the spec's alias of CreateTableIndex for scalar and full-text index types. Throws 1, 4, 7, 12, 13, 14, 19. */
  createTableScalarIndex: operation({
    operationId: "CreateTableScalarIndex",
    summary: "Build a scalar or full-text index",
    tag: "Index",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/create_scalar_index",
    target: "table",
    body: "json",
    querySchema: M.IndexJobQuery,
    request: M.CreateTableIndexRequest,
    response: json(M.CreateTableScalarIndexResponse),
  }),

  /** ListTableIndices: the table's indexes, by name, paged. Throws 1, 4, 11, 19, 22. */
  listTableIndices: operation({
    operationId: "ListTableIndices",
    summary: "List the indexes of a table",
    tag: "Index",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/index/list",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.ListTableIndicesRequest,
    response: json(M.ListTableIndicesResponse),
  }),

  /** DescribeTableIndexStats: rows indexed and not, type and metric of index `index_name`. Throws 1, 4, 6, 11, 13, 19, 22. */
  describeTableIndexStats: operation({
    operationId: "DescribeTableIndexStats",
    summary: "Statistics of one index",
    tag: "Index",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST", "GET"],
    path: "/v1/table/{id}/index/{index_name}/stats",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.DescribeTableIndexStatsRequest,
    pathFields: IndexName,
    response: json(M.DescribeTableIndexStatsResponse),
  }),

  /** DropTableIndex: removes index `index_name` (the data stays). Throws 1, 4, 6, 13, 19, 22. */
  dropTableIndex: operation({
    operationId: "DropTableIndex",
    summary: "Drop one index",
    tag: "Index",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/index/{index_name}/drop",
    target: "table",
    body: "none",
    querySchema: M.BranchQuery,
    query: ["branch"],
    request: M.DropTableIndexRequest,
    pathFields: IndexName,
    response: json(M.DropTableIndexResponse),
  }),

  /** PrewarmTableIndex: loads index `index_name` into the server's index cache. Throws 1, 4, 6, 19, 22. */
  prewarmTableIndex: operation({
    operationId: "PrewarmTableIndex",
    summary: "Load an index into the server's index cache",
    tag: "Index",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/index/{index_name}/prewarm",
    target: "table",
    body: "none",
    querySchema: M.PrewarmQuery,
    query: ["branch"],
    request: M.PrewarmTableIndexRequest,
    pathFields: IndexName,
    response: json(M.PrewarmTableIndexResponse),
  }),

  /** PrewarmTablePageCache: this server's engine cannot prewarm data pages; throws 0 once the table is found, and 1, 4, 19. */
  prewarmTablePageCache: operation({
    operationId: "PrewarmTablePageCache",
    summary: "Load columns' data pages into the page cache (unsupported: answers 406)",
    tag: "Index",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/page_cache/prewarm",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.PrewarmTablePageCacheRequest,
    response: json(M.PrewarmTablePageCacheResponse),
  }),
};
