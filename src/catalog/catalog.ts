/**
 * @module The catalog of one database: one method per spec operation, named after it, taking
 * and returning the spec's models. It knows nothing of HTTP; the server and the `dir` client
 * both call it. Every method throws `CatalogError` with a spec code.
 */
import type * as M from "../model/index.js";
import type { CallContext, CatalogScope } from "./catalog-scope.js";
import * as namespaces from "./namespaces.js";
import * as tableCreate from "./table-create.js";
import * as tableClone from "./table-clone.js";
import * as tableDescribe from "./table-describe.js";
import * as tableLifecycle from "./table-lifecycle.js";
import * as tableListing from "./table-listing.js";
import type { ArrowStreamBody } from "./table-create.js";
import * as tableData from "./table-data.js";
import * as tableIndexes from "./table-indexes.js";
import * as tableQuery from "./table-query.js";
import * as tableSchema from "./table-schema.js";
import * as branches from "./branches.js";
import * as tags from "./tags.js";
import * as transactions from "./transactions.js";
import * as versionBatches from "./version-batches.js";
import * as versions from "./versions.js";
import * as materializedViews from "./materialized-views.js";
import * as jobs from "./jobs.js";
import * as backfill from "./backfill.js";
import * as indexJobs from "./index-jobs.js";

type WithId<T> = T & { id: string[] };

export class Catalog {
  constructor(readonly scope: CatalogScope) {}

  get database() {
    return this.scope.database;
  }

  // Namespaces
  createNamespace(request: WithId<M.CreateNamespaceRequest>, _call?: CallContext) {
    return namespaces.createNamespace(this.scope, request);
  }
  listNamespaces(request: WithId<M.ListNamespacesRequest>, _call?: CallContext) {
    return namespaces.listNamespaces(this.scope, request);
  }
  describeNamespace(request: WithId<M.DescribeNamespaceRequest>, _call?: CallContext) {
    return namespaces.describeNamespaceOp(this.scope, request);
  }
  dropNamespace(request: WithId<M.DropNamespaceRequest>, _call?: CallContext) {
    return namespaces.dropNamespace(this.scope, request);
  }
  namespaceExists(request: WithId<M.NamespaceExistsRequest>, _call?: CallContext) {
    return namespaces.namespaceExistsOp(this.scope, request);
  }
  listTables(request: WithId<M.ListTablesRequest>, _call?: CallContext) {
    return tableListing.listTables(this.scope, request);
  }
  listAllTables(request: M.ListTablesRequest & { delimiter?: string }, _call?: CallContext) {
    return tableListing.listAllTables(this.scope, request);
  }

  // Table metadata
  declareTable(request: WithId<M.DeclareTableRequest>, _call?: CallContext) {
    return tableCreate.declareTable(this.scope, request);
  }
  createTable(request: WithId<M.CreateTableRequest>, body: ArrowStreamBody, _call?: CallContext) {
    return tableCreate.createTable(this.scope, request, body);
  }
  registerTable(request: WithId<M.RegisterTableRequest>, _call?: CallContext) {
    return tableCreate.registerTable(this.scope, request);
  }
  cloneTable(request: WithId<M.CloneTableRequest>, _call?: CallContext) {
    return tableClone.cloneTable(this.scope, request);
  }
  describeTable(request: WithId<M.DescribeTableRequest>, _call?: CallContext) {
    return tableDescribe.describeTable(this.scope, request);
  }
  tableExists(request: WithId<M.TableExistsRequest>, _call?: CallContext) {
    return tableDescribe.tableExists(this.scope, request);
  }
  deregisterTable(request: WithId<M.DeregisterTableRequest>, _call?: CallContext) {
    return tableLifecycle.deregisterTable(this.scope, request);
  }
  dropTable(request: WithId<M.DropTableRequest>, _call?: CallContext) {
    return tableLifecycle.dropTable(this.scope, request);
  }
  renameTable(request: WithId<M.RenameTableRequest>, _call?: CallContext) {
    return tableLifecycle.renameTable(this.scope, request);
  }
  restoreTable(request: WithId<M.RestoreTableRequest>, _call?: CallContext) {
    return tableLifecycle.restoreTable(this.scope, request);
  }

  // Rows and queries
  insertIntoTable(request: WithId<M.InsertIntoTableRequest>, body: ArrowStreamBody, _call?: CallContext) {
    return tableData.insertIntoTable(this.scope, request, body);
  }
  mergeInsertIntoTable(request: WithId<M.MergeInsertIntoTableRequest>, body: ArrowStreamBody, _call?: CallContext) {
    return tableData.mergeInsertIntoTable(this.scope, request, body);
  }
  updateTable(request: WithId<M.UpdateTableRequest>, _call?: CallContext) {
    return tableData.updateTable(this.scope, request);
  }
  deleteFromTable(request: WithId<M.DeleteFromTableRequest>, _call?: CallContext) {
    return tableData.deleteFromTable(this.scope, request);
  }
  queryTable(request: WithId<M.QueryTableRequest>, _call?: CallContext) {
    return tableQuery.queryTable(this.scope, request);
  }
  countTableRows(request: WithId<M.CountTableRowsRequest>, _call?: CallContext) {
    return tableQuery.countTableRows(this.scope, request);
  }
  explainTableQueryPlan(request: WithId<M.ExplainTableQueryPlanRequest>, _call?: CallContext) {
    return tableQuery.explainTableQueryPlan(this.scope, request);
  }
  analyzeTableQueryPlan(request: WithId<M.AnalyzeTableQueryPlanRequest>, _call?: CallContext) {
    return tableQuery.analyzeTableQueryPlan(this.scope, request);
  }
  getTableStats(request: WithId<M.GetTableStatsRequest>, _call?: CallContext) {
    return tableQuery.getTableStats(this.scope, request);
  }

  // Schema evolution
  alterTableAddColumns(request: WithId<M.AlterTableAddColumnsRequest>, _call?: CallContext) {
    return tableSchema.alterTableAddColumns(this.scope, request);
  }
  alterTableAlterColumns(request: WithId<M.AlterTableAlterColumnsRequest>, _call?: CallContext) {
    return tableSchema.alterTableAlterColumns(this.scope, request);
  }
  alterTableDropColumns(request: WithId<M.AlterTableDropColumnsRequest>, _call?: CallContext) {
    return tableSchema.alterTableDropColumns(this.scope, request);
  }
  updateFieldMetadata(request: WithId<M.UpdateFieldMetadataRequest>, _call?: CallContext) {
    return tableSchema.updateFieldMetadata(this.scope, request);
  }
  updateTableSchemaMetadata(request: WithId<M.UpdateTableSchemaMetadataRequest>, _call?: CallContext) {
    return tableSchema.updateTableSchemaMetadata(this.scope, request);
  }

  // Indexes
  createTableIndex(request: WithId<M.CreateTableIndexRequest>, _call?: CallContext) {
    return tableIndexes.createTableIndex(this.scope, request);
  }
  createTableScalarIndex(request: WithId<M.CreateTableIndexRequest>, _call?: CallContext) {
    return tableIndexes.createTableIndex(this.scope, request);
  }
  listTableIndices(request: WithId<M.ListTableIndicesRequest>, _call?: CallContext) {
    return tableIndexes.listTableIndices(this.scope, request);
  }
  describeTableIndexStats(request: WithId<M.DescribeTableIndexStatsRequest> & { index_name: string }, _call?: CallContext) {
    return tableIndexes.describeTableIndexStats(this.scope, request);
  }
  dropTableIndex(request: WithId<M.DropTableIndexRequest> & { index_name: string }, _call?: CallContext) {
    return tableIndexes.dropTableIndex(this.scope, request);
  }
  prewarmTableIndex(request: WithId<M.PrewarmTableIndexRequest> & { index_name: string }, _call?: CallContext) {
    return tableIndexes.prewarmTableIndex(this.scope, request);
  }
  prewarmTablePageCache(request: WithId<M.PrewarmTablePageCacheRequest>, _call?: CallContext) {
    return tableIndexes.prewarmTablePageCache(this.scope, request);
  }


  // Versions
  listTableVersions(request: WithId<M.ListTableVersionsRequest>, _call?: CallContext) {
    return versions.listTableVersions(this.scope, request);
  }
  createTableVersion(request: WithId<M.CreateTableVersionRequest>, _call?: CallContext) {
    return versions.createTableVersion(this.scope, request);
  }
  describeTableVersion(request: WithId<M.DescribeTableVersionRequest>, _call?: CallContext) {
    return versions.describeTableVersion(this.scope, request);
  }
  batchDeleteTableVersions(request: WithId<M.BatchDeleteTableVersionsRequest>, _call?: CallContext) {
    return versions.batchDeleteTableVersions(this.scope, request);
  }
  batchCreateTableVersions(request: M.BatchCreateTableVersionsRequest, _call?: CallContext) {
    return versionBatches.batchCreateTableVersions(this.scope, request);
  }
  batchCommitTables(request: M.BatchCommitTablesRequest, _call?: CallContext) {
    return versionBatches.batchCommitTables(this.scope, request);
  }

  // Tags
  listTableTags(request: WithId<M.ListTableTagsRequest>, _call?: CallContext) {
    return tags.listTableTags(this.scope, request);
  }
  getTableTagVersion(request: WithId<M.GetTableTagVersionRequest>, _call?: CallContext) {
    return tags.getTableTagVersion(this.scope, request);
  }
  createTableTag(request: WithId<M.CreateTableTagRequest>, _call?: CallContext) {
    return tags.createTableTag(this.scope, request);
  }
  updateTableTag(request: WithId<M.UpdateTableTagRequest>, _call?: CallContext) {
    return tags.updateTableTag(this.scope, request);
  }
  deleteTableTag(request: WithId<M.DeleteTableTagRequest>, _call?: CallContext) {
    return tags.deleteTableTag(this.scope, request);
  }

  // Branches
  listTableBranches(request: WithId<M.ListTableBranchesRequest>, _call?: CallContext) {
    return branches.listTableBranches(this.scope, request);
  }
  createTableBranch(request: WithId<M.CreateTableBranchRequest>, _call?: CallContext) {
    return branches.createTableBranch(this.scope, request);
  }
  deleteTableBranch(request: WithId<M.DeleteTableBranchRequest>, _call?: CallContext) {
    return branches.deleteTableBranch(this.scope, request);
  }
  diffTableBranch(request: WithId<M.DiffTableBranchRequest>, _call?: CallContext) {
    return branches.diffTableBranch(this.scope, request);
  }
  cherryPickTableBranch(request: WithId<M.CherryPickTableBranchRequest>, _call?: CallContext) {
    return branches.cherryPickTableBranch(this.scope, request);
  }


  // Transactions
  describeTransaction(transactionId: string, _call?: CallContext) {
    return transactions.describeTransaction(this.scope, transactionId);
  }
  alterTransaction(transactionId: string, request: M.AlterTransactionRequest, _call?: CallContext) {
    return transactions.alterTransaction(this.scope, transactionId, request);
  }

  // Materialized views and jobs
  createMaterializedView(request: WithId<M.CreateMaterializedViewRequest>, _call?: CallContext) {
    return materializedViews.createMaterializedView(this.scope, request);
  }
  refreshMaterializedView(request: WithId<M.RefreshMaterializedViewRequest>, _call?: CallContext) {
    return materializedViews.refreshMaterializedView(this.scope, request);
  }
  describeJob(request: M.DescribeJobRequest, _call?: CallContext) {
    return jobs.describeJob(this.scope, request);
  }
  listJobs(request: M.ListJobsRequest, _call?: CallContext) {
    return jobs.listJobs(this.scope, request);
  }
  cancelJob(request: M.CancelJobRequest, _call?: CallContext) {
    return jobs.cancelJob(this.scope, request);
  }
  queryJobEvents(request: M.QueryJobEventsRequest, _call?: CallContext) {
    return jobs.queryJobEvents(this.scope, request);
  }
  alterTableBackfillColumns(request: WithId<M.AlterTableBackfillColumnsRequest>, _call?: CallContext) {
    return backfill.alterTableBackfillColumns(this.scope, request);
  }
  createTableIndexJob(request: WithId<M.CreateTableIndexRequest>, _call?: CallContext) {
    return indexJobs.createTableIndexJob(this.scope, request);
  }
  dropTableIndexJob(request: WithId<M.DropTableIndexRequest> & { index_name: string }, _call?: CallContext) {
    return indexJobs.dropTableIndexJob(this.scope, request);
  }
}
