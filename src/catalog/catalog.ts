/**
 * @module The catalog of one database: one method per spec operation, named after it, taking
 * and returning the spec's models. It knows nothing of HTTP; the server and the `dir` client
 * both call it. Every method throws `CatalogError` with a spec code.
 */
import type * as M from "../model/index.js";
import type { TableAccess } from "../model/table-access.js";
import type { CatalogScope, WithId } from "./catalog-scope.js";
import { outageError } from "./failures.js";
import { isUri } from "../storage/locations.js";
import * as backfillColumns from "./jobs/backfill-columns.js";
import * as jobOperations from "./jobs/job-operations.js";
import * as maintenanceJobs from "./maintenance/maintenance-jobs.js";
import { type MaintenanceTask, runTableMaintenance } from "./maintenance/table-maintenance.js";
import * as tableListing from "./namespaces/list-tables.js";
import * as namespaceLifecycle from "./namespaces/namespace-lifecycle.js";
import * as tableReads from "./queries/table-reads.js";
import * as multipartWrites from "./rows/multipart-writes.js";
import * as rowWrites from "./rows/row-writes.js";
import * as queueIndexJobs from "./schema-indexes/queue-index-jobs.js";
import * as schemaChanges from "./schema-indexes/schema-changes.js";
import * as tableIndexes from "./schema-indexes/table-indexes.js";
import * as tableClone from "./tables/clone-table.js";
import * as clientOptions from "./tables/client-storage-options.js";
import * as tableDescribe from "./tables/describe-table.js";
import type { ArrowStreamBody } from "./tables/table-creation.js";
import * as tableCreation from "./tables/table-creation.js";
import * as droppedTables from "./tables/dropped-tables.js";
import * as tableLifecycle from "./tables/table-lifecycle.js";
import * as branches from "./tags-branches/table-branches.js";
import * as tags from "./tags-branches/table-tags.js";
import * as tableVersions from "./versions/table-versions.js";
import * as transactions from "./versions/transactions.js";
import * as versionBatches from "./versions/version-batches.js";
import * as materializedViews from "./views/materialized-views.js";

export class Catalog {
  constructor(readonly scope: CatalogScope) {}

  get database() {
    return this.scope.database;
  }

  /** Whether the database's tables live on an object store, a store that can be down or hang. */
  get onObjectStore(): boolean {
    return isUri(this.scope.database.storageRoot);
  }

  // Namespaces
  createNamespace(request: WithId<M.CreateNamespaceRequest>) {
    return namespaceLifecycle.createNamespace(this.scope, request);
  }
  listNamespaces(request: WithId<M.ListNamespacesRequest>) {
    return namespaceLifecycle.listNamespaces(this.scope, request);
  }
  describeNamespace(request: WithId<M.DescribeNamespaceRequest>) {
    return namespaceLifecycle.describeNamespace(this.scope, request);
  }
  dropNamespace(request: WithId<M.DropNamespaceRequest>) {
    return namespaceLifecycle.dropNamespace(this.scope, request);
  }
  namespaceExists(request: WithId<M.NamespaceExistsRequest>) {
    return namespaceLifecycle.namespaceExists(this.scope, request);
  }
  listTables(request: WithId<M.ListTablesRequest>) {
    return tableListing.listTables(this.scope, request);
  }
  listAllTables(request: M.ListTablesRequest & { delimiter?: string }) {
    return tableListing.listAllTables(this.scope, request);
  }

  // Table metadata
  declareTable(request: WithId<M.DeclareTableRequest>) {
    return tableCreation.declareTable(this.scope, request);
  }
  createTable(request: WithId<M.CreateTableRequest>, body: ArrowStreamBody) {
    return tableCreation.createTable(this.scope, request, body);
  }
  registerTable(request: WithId<M.RegisterTableRequest>) {
    return tableCreation.registerTable(this.scope, request);
  }
  cloneTable(request: WithId<M.CloneTableRequest>) {
    return tableClone.cloneTable(this.scope, request);
  }
  describeTable(request: WithId<M.DescribeTableRequest>) {
    return tableDescribe.describeTable(this.scope, request);
  }
  /** `answer`'s storage options completed with what a caller with `access` needs to open the table itself. */
  storageOptionsForClient(answer: { location?: string; storage_options?: Record<string, string> }, access: TableAccess, vendCredentials?: boolean | null) {
    return clientOptions.storageOptionsForClient(this.scope, answer, access, vendCredentials);
  }
  tableExists(request: WithId<M.TableExistsRequest>) {
    return tableDescribe.tableExists(this.scope, request);
  }
  deregisterTable(request: WithId<M.DeregisterTableRequest>) {
    return tableLifecycle.deregisterTable(this.scope, request);
  }
  dropTable(request: WithId<M.DropTableRequest> & { dropped_by?: string }) {
    return tableLifecycle.dropTable(this.scope, request);
  }
  listDroppedTables(request: WithId<M.ListDroppedTablesRequest>) {
    return droppedTables.listDroppedTables(this.scope, request);
  }
  undropTable(request: WithId<M.UndropTableRequest>) {
    return droppedTables.undropTable(this.scope, request);
  }
  renameTable(request: WithId<M.RenameTableRequest>) {
    return tableLifecycle.renameTable(this.scope, request);
  }
  restoreTable(request: WithId<M.RestoreTableRequest>) {
    return tableLifecycle.restoreTable(this.scope, request);
  }

  // Rows and queries
  insertIntoTable(request: WithId<M.InsertIntoTableRequest>, body: ArrowStreamBody) {
    return rowWrites.insertIntoTable(this.scope, request, body);
  }
  createMultipartWrite(request: WithId<M.CreateMultipartWriteRequest>) {
    return multipartWrites.createMultipartWrite(this.scope, request);
  }
  completeMultipartWrite(request: WithId<M.CompleteMultipartWriteRequest>) {
    return multipartWrites.completeMultipartWrite(this.scope, request);
  }
  abortMultipartWrite(request: WithId<M.AbortMultipartWriteRequest>) {
    return multipartWrites.abortMultipartWrite(this.scope, request);
  }
  /** The bytes the staged parts of an upload take: what completing it holds in memory. */
  stagedMultipartBytes(uploadId: string | null | undefined) {
    return multipartWrites.stagedMultipartBytes(this.scope, uploadId);
  }
  /** Aborts the multipart writes whose time ran out; answers how many went. */
  expireMultipartWrites() {
    return multipartWrites.expireMultipartWrites(this.scope);
  }
  mergeInsertIntoTable(request: WithId<M.MergeInsertIntoTableRequest>, body: ArrowStreamBody) {
    return rowWrites.mergeInsertIntoTable(this.scope, request, body);
  }
  updateTable(request: WithId<M.UpdateTableRequest>) {
    return rowWrites.updateTable(this.scope, request);
  }
  deleteFromTable(request: WithId<M.DeleteFromTableRequest>) {
    return rowWrites.deleteFromTable(this.scope, request);
  }
  queryTable(request: WithId<M.QueryTableRequest>) {
    return tableReads.queryTable(this.scope, request);
  }
  countTableRows(request: WithId<M.CountTableRowsRequest>) {
    return tableReads.countTableRows(this.scope, request);
  }
  explainTableQueryPlan(request: WithId<M.ExplainTableQueryPlanRequest>) {
    return tableReads.explainTableQueryPlan(this.scope, request);
  }
  analyzeTableQueryPlan(request: WithId<M.AnalyzeTableQueryPlanRequest>) {
    return tableReads.analyzeTableQueryPlan(this.scope, request);
  }
  getTableStats(request: WithId<M.GetTableStatsRequest>) {
    return tableReads.getTableStats(this.scope, request);
  }

  // Schema evolution
  alterTableAddColumns(request: WithId<M.AlterTableAddColumnsRequest>) {
    return schemaChanges.alterTableAddColumns(this.scope, request);
  }
  alterTableAlterColumns(request: WithId<M.AlterTableAlterColumnsRequest>) {
    return schemaChanges.alterTableAlterColumns(this.scope, request);
  }
  alterTableDropColumns(request: WithId<M.AlterTableDropColumnsRequest>) {
    return schemaChanges.alterTableDropColumns(this.scope, request);
  }
  updateFieldMetadata(request: WithId<M.UpdateFieldMetadataRequest>) {
    return schemaChanges.updateFieldMetadata(this.scope, request);
  }
  updateTableSchemaMetadata(request: WithId<M.UpdateTableSchemaMetadataRequest>) {
    return schemaChanges.updateTableSchemaMetadata(this.scope, request);
  }

  // Indexes
  createTableIndex(request: WithId<M.CreateTableIndexRequest>) {
    return tableIndexes.createTableIndex(this.scope, request);
  }
  createTableScalarIndex(request: WithId<M.CreateTableIndexRequest>) {
    return tableIndexes.createTableIndex(this.scope, request);
  }
  listTableIndices(request: WithId<M.ListTableIndicesRequest>) {
    return tableIndexes.listTableIndices(this.scope, request);
  }
  describeTableIndexStats(request: WithId<M.DescribeTableIndexStatsRequest> & { index_name: string }) {
    return tableIndexes.describeTableIndexStats(this.scope, request);
  }
  dropTableIndex(request: WithId<M.DropTableIndexRequest> & { index_name: string }) {
    return tableIndexes.dropTableIndex(this.scope, request);
  }
  prewarmTableIndex(request: WithId<M.PrewarmTableIndexRequest> & { index_name: string }) {
    return tableIndexes.prewarmTableIndex(this.scope, request);
  }
  prewarmTablePageCache(request: WithId<M.PrewarmTablePageCacheRequest>) {
    return tableIndexes.prewarmTablePageCache(this.scope, request);
  }


  // Versions
  listTableVersions(request: WithId<M.ListTableVersionsRequest>) {
    return tableVersions.listTableVersions(this.scope, request);
  }
  createTableVersion(request: WithId<M.CreateTableVersionRequest>) {
    return tableVersions.createTableVersion(this.scope, request);
  }
  describeTableVersion(request: WithId<M.DescribeTableVersionRequest>) {
    return tableVersions.describeTableVersion(this.scope, request);
  }
  batchDeleteTableVersions(request: WithId<M.BatchDeleteTableVersionsRequest>) {
    return tableVersions.batchDeleteTableVersions(this.scope, request);
  }
  batchCreateTableVersions(request: M.BatchCreateTableVersionsRequest) {
    return versionBatches.batchCreateTableVersions(this.scope, request);
  }
  batchCommitTables(request: M.BatchCommitTablesRequest) {
    return versionBatches.batchCommitTables(this.scope, request);
  }

  // Tags
  listTableTags(request: WithId<M.ListTableTagsRequest>) {
    return tags.listTableTags(this.scope, request);
  }
  getTableTagVersion(request: WithId<M.GetTableTagVersionRequest>) {
    return tags.getTableTagVersion(this.scope, request);
  }
  createTableTag(request: WithId<M.CreateTableTagRequest>) {
    return tags.createTableTag(this.scope, request);
  }
  updateTableTag(request: WithId<M.UpdateTableTagRequest>) {
    return tags.updateTableTag(this.scope, request);
  }
  deleteTableTag(request: WithId<M.DeleteTableTagRequest>) {
    return tags.deleteTableTag(this.scope, request);
  }

  // Branches
  listTableBranches(request: WithId<M.ListTableBranchesRequest>) {
    return branches.listTableBranches(this.scope, request);
  }
  createTableBranch(request: WithId<M.CreateTableBranchRequest>) {
    return branches.createTableBranch(this.scope, request);
  }
  deleteTableBranch(request: WithId<M.DeleteTableBranchRequest>) {
    return branches.deleteTableBranch(this.scope, request);
  }
  diffTableBranch(request: WithId<M.DiffTableBranchRequest>) {
    return branches.diffTableBranch(this.scope, request);
  }
  cherryPickTableBranch(request: WithId<M.CherryPickTableBranchRequest>) {
    return branches.cherryPickTableBranch(this.scope, request);
  }


  // Transactions
  describeTransaction(request: M.DescribeTransactionRequest & { transaction_id: string }) {
    return transactions.describeTransaction(this.scope, request.transaction_id);
  }
  alterTransaction(request: M.AlterTransactionRequest & { transaction_id: string }) {
    return transactions.alterTransaction(this.scope, request.transaction_id, request);
  }

  // Materialized views and jobs
  createMaterializedView(request: WithId<M.CreateMaterializedViewRequest>) {
    return materializedViews.createMaterializedView(this.scope, request);
  }
  refreshMaterializedView(request: WithId<M.RefreshMaterializedViewRequest>) {
    return materializedViews.refreshMaterializedView(this.scope, request);
  }
  describeJob(request: M.DescribeJobRequest) {
    return jobOperations.describeJob(this.scope, request);
  }
  listJobs(request: M.ListJobsRequest) {
    return jobOperations.listJobs(this.scope, request);
  }
  cancelJob(request: M.CancelJobRequest) {
    return jobOperations.cancelJob(this.scope, request);
  }
  queryJobEvents(request: M.QueryJobEventsRequest) {
    return jobOperations.queryJobEvents(this.scope, request);
  }
  alterTableBackfillColumns(request: WithId<M.AlterTableBackfillColumnsRequest>) {
    return backfillColumns.alterTableBackfillColumns(this.scope, request);
  }
  createTableIndexJob(request: WithId<M.CreateTableIndexRequest>) {
    return queueIndexJobs.createTableIndexJob(this.scope, request);
  }
  dropTableIndexJob(request: WithId<M.DropTableIndexRequest> & { index_name: string }) {
    return queueIndexJobs.dropTableIndexJob(this.scope, request);
  }

  // Maintenance (Quiver's extension)

  compactTable(request: WithId<M.CompactTableRequest>) {
    return runTableMaintenance(this.scope, request.id, "compact");
  }
  cleanupTableVersions(request: WithId<M.CleanupTableVersionsRequest>) {
    return runTableMaintenance(this.scope, request.id, "cleanup", { olderThanSeconds: request.older_than_seconds, deleteUnverified: request.delete_unverified });
  }
  optimizeTableIndices(request: WithId<M.OptimizeTableIndicesRequest>) {
    return runTableMaintenance(this.scope, request.id, "optimize_indices");
  }
  /** Queues one maintenance task as a job (the `wait: false` form of the three above). */
  queueTableMaintenance(request: WithId<M.CleanupTableVersionsRequest>, task: MaintenanceTask) {
    return maintenanceJobs.queueTableMaintenance(this.scope, request.id, task, { olderThanSeconds: request.older_than_seconds, deleteUnverified: request.delete_unverified });
  }
  setTableMaintenanceSchedule(request: WithId<M.SetTableMaintenanceScheduleRequest>) {
    return maintenanceJobs.setTableMaintenanceSchedule(this.scope, request);
  }
  describeTableMaintenanceSchedule(request: WithId<M.DescribeTableMaintenanceScheduleRequest>) {
    return maintenanceJobs.describeTableMaintenanceSchedule(this.scope, request);
  }
}

/**
 * Every method answers an outage below the catalog (an object store or the metadata store that
 * cannot serve now) as 17, including failures of the paths that call storage or the store
 * without translating: one wrapper here rather than a catch in each operation.
 */
function answeringOutages(method: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  const rethrow = (error: unknown): never => {
    throw outageError(error) ?? error;
  };
  return function (this: Catalog, ...args: unknown[]) {
    try {
      const result = method.apply(this, args);
      return result instanceof Promise ? result.catch(rethrow) : result;
    } catch (error) {
      return rethrow(error);
    }
  };
}

for (const name of Object.getOwnPropertyNames(Catalog.prototype)) {
  const descriptor = Object.getOwnPropertyDescriptor(Catalog.prototype, name);
  if (name === "constructor" || typeof descriptor?.value !== "function") continue;
  Object.defineProperty(Catalog.prototype, name, { ...descriptor, value: answeringOutages(descriptor.value as (...args: unknown[]) => unknown) });
}
