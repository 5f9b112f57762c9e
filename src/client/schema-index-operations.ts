/**
 * @module Client operation entries of schema evolution and indexes (spec/endpoints.md §3.10, §6, §7).
 */
import { Type } from "@sinclair/typebox";
import * as M from "../model/index.js";
import { operation, withPathFields } from "./operation-types.js";

const IndexName = { index_name: Type.String({ minLength: 1 }) };

export const schemaIndexOperations = {
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
   * UpdateTableSchemaMetadata: merges `metadata`, sent as the bare map the route takes, into the
   * schema-level metadata; answers the whole map. Changing an existing key's value throws 0
   * (Unsupported); also 1, 4, 14, 19.
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
   * index on `column`, named `<column>_idx` unless `name` says otherwise; an index of that name
   * is rebuilt unless `replace` is false (then 7). Throws 1, 4, 7, 12, 13, 14, 19.
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

  /** PrewarmTableIndex: loads index `index_name` into the server's index cache. Throws 1, 4, 6, 19, 22. */
  prewarmTableIndex: operation({
    operationId: "PrewarmTableIndex",
    method: "POST",
    path: "/v1/table/{id}/index/{index_name}/prewarm",
    target: "table",
    body: "none",
    query: ["branch"],
    request: withPathFields(M.PrewarmTableIndexRequest, IndexName),
    response: { kind: "json", schema: M.PrewarmTableIndexResponse },
  }),

  /** PrewarmTablePageCache: this server's engine cannot prewarm data pages; throws 0 once the table is found, and 1, 4, 19. */
  prewarmTablePageCache: operation({
    operationId: "PrewarmTablePageCache",
    method: "POST",
    path: "/v1/table/{id}/page_cache/prewarm",
    target: "table",
    body: "json",
    request: M.PrewarmTablePageCacheRequest,
    response: { kind: "json", schema: M.PrewarmTablePageCacheResponse },
  }),
};
