/**
 * @module The catalog of one database: one method per spec operation, named after it, taking
 * and returning the spec's models. Its type derives from the operation table
 * (`catalog-operations.ts`) and its methods from `operationFunctions`, the map of each operation
 * to the area function that does the work. It knows nothing of HTTP; the server and the `dir`
 * client both call it. Every method throws `CatalogError` with a spec code.
 */
import type * as M from "../model/index.js";
import type { TableAccess } from "../model/table-access.js";
import { isUri } from "../storage/locations.js";
import type { CatalogOperations, OperationFunctions } from "./catalog-operations.js";
import type { CatalogScope, WithId } from "./catalog-scope.js";
import { outageError } from "./failures.js";
import { alterTableBackfillColumns } from "./jobs/backfill-columns.js";
import { cancelJob, describeJob, listJobs, queryJobEvents } from "./jobs/job-operations.js";
import { describeTableMaintenanceSchedule, queueTableMaintenance, setTableMaintenanceSchedule } from "./maintenance/maintenance-jobs.js";
import { listTablesNeedingMaintenance } from "./maintenance/tables-needing-maintenance.js";
import { type MaintenanceTask, cleanupTableVersions, compactTable, optimizeTableIndices } from "./maintenance/table-maintenance.js";
import { listAllTables, listTables } from "./namespaces/list-tables.js";
import { createNamespace, describeNamespace, dropNamespace, listNamespaces, namespaceExists } from "./namespaces/namespace-lifecycle.js";
import { fetchTableBlobs, getTableBlobBytes, getTableLsmStats, getTableLsmWriteSpec } from "./queries/table-blobs.js";
import { analyzeTableQueryPlan, countTableRows, explainTableQueryPlan, getTableStats, queryTable } from "./queries/table-reads.js";
import { abortMultipartWrite, completeMultipartWrite, createMultipartWrite, expireMultipartWrites, stagedMultipartBytes } from "./rows/multipart-writes.js";
import { deleteFromTable, insertIntoTable, mergeInsertIntoTable, updateTable } from "./rows/row-writes.js";
import { createTableIndexJob, dropTableIndexJob } from "./schema-indexes/queue-index-jobs.js";
import { alterTableAddColumns, alterTableAlterColumns, alterTableDropColumns, updateFieldMetadata, updateTableSchemaMetadata } from "./schema-indexes/schema-changes.js";
import {
  createTableIndex,
  describeTableIndexStats,
  dropTableIndex,
  listTableIndices,
  prewarmTableIndex,
  prewarmTablePageCache,
} from "./schema-indexes/table-indexes.js";
import { storageOptionsForClient, storageOptionsForTableAt } from "./tables/client-storage-options.js";
import { cloneTable } from "./tables/clone-table.js";
import { describeTable, tableExists } from "./tables/describe-table.js";
import { listDroppedTables, undropTable } from "./tables/dropped-tables.js";
import { createTable, declareTable, registerTable } from "./tables/table-creation.js";
import { deregisterTable, dropTable, renameTable, restoreTable } from "./tables/table-lifecycle.js";
import { cherryPickTableBranch, createTableBranch, deleteTableBranch, diffTableBranch, listTableBranches } from "./tags-branches/table-branches.js";
import { createTableTag, deleteTableTag, getTableTagVersion, listTableTags, updateTableTag } from "./tags-branches/table-tags.js";
import { batchDeleteTableVersions, createTableVersion, describeTableVersion, listTableVersions } from "./versions/table-versions.js";
import { alterTransaction, describeTransaction } from "./versions/transactions.js";
import { batchCommitTables, batchCreateTableVersions } from "./versions/version-batches.js";
import { createMaterializedView, refreshMaterializedView } from "./views/materialized-views.js";

/** The area function of every operation; the `satisfies` clause checks each against the operation table. */
const operationFunctions = {
  // Namespaces
  createNamespace,
  listNamespaces,
  describeNamespace,
  dropNamespace,
  namespaceExists,
  listTables,
  listAllTables,
  // Table metadata
  declareTable,
  createTable,
  registerTable,
  cloneTable,
  describeTable,
  tableExists,
  deregisterTable,
  dropTable,
  listDroppedTables,
  undropTable,
  renameTable,
  restoreTable,
  // Rows and queries
  insertIntoTable,
  createMultipartWrite,
  completeMultipartWrite,
  abortMultipartWrite,
  mergeInsertIntoTable,
  updateTable,
  deleteFromTable,
  queryTable,
  countTableRows,
  explainTableQueryPlan,
  analyzeTableQueryPlan,
  getTableStats,
  fetchTableBlobs,
  getTableBlobBytes,
  getTableLsmWriteSpec,
  getTableLsmStats,
  // Schema evolution
  alterTableAddColumns,
  alterTableAlterColumns,
  alterTableDropColumns,
  updateFieldMetadata,
  updateTableSchemaMetadata,
  // Indexes: a scalar index is built as any other
  createTableIndex,
  createTableScalarIndex: createTableIndex,
  listTableIndices,
  describeTableIndexStats,
  dropTableIndex,
  prewarmTableIndex,
  prewarmTablePageCache,
  // Versions
  listTableVersions,
  createTableVersion,
  describeTableVersion,
  batchDeleteTableVersions,
  batchCreateTableVersions,
  batchCommitTables,
  // Tags and branches
  listTableTags,
  getTableTagVersion,
  createTableTag,
  updateTableTag,
  deleteTableTag,
  listTableBranches,
  createTableBranch,
  deleteTableBranch,
  diffTableBranch,
  cherryPickTableBranch,
  // Transactions
  describeTransaction,
  alterTransaction,
  // Materialized views and jobs
  createMaterializedView,
  refreshMaterializedView,
  alterTableBackfillColumns,
  describeJob,
  listJobs,
  cancelJob,
  queryJobEvents,
  // Maintenance (Quiver's extension)
  compactTable,
  cleanupTableVersions,
  optimizeTableIndices,
  setTableMaintenanceSchedule,
  describeTableMaintenanceSchedule,
  listTablesNeedingMaintenance,
} satisfies OperationFunctions;

/** The operation methods, typed from the operation table; the loop after the class installs them. */
export interface Catalog extends CatalogOperations {}

export class Catalog {
  constructor(readonly scope: CatalogScope) {}

  get database() {
    return this.scope.database;
  }

  /** Whether the database's tables live on an object store, a store that can be down or hang. */
  get onObjectStore(): boolean {
    return isUri(this.scope.database.storageRoot);
  }

  /** `answer`'s storage options completed with what a caller with `access` needs to open the table itself. */
  storageOptionsForClient(answer: { location?: string; storage_options?: Record<string, string> }, access: TableAccess, vendCredentials?: boolean | null) {
    return storageOptionsForClient(this.scope, answer, access, vendCredentials);
  }

  /** The storage options a caller with `access` gets now for the table at `location`; none when no table is there. */
  storageOptionsForTableAt(location: string, access: TableAccess, vendCredentials?: boolean | null) {
    return storageOptionsForTableAt(this.scope, location, access, vendCredentials);
  }

  /** The bytes the staged parts of an upload take: what completing it holds in memory. */
  stagedMultipartBytes(uploadId: string | null | undefined) {
    return stagedMultipartBytes(this.scope, uploadId);
  }

  /** Aborts the multipart writes whose time ran out; answers how many went. */
  expireMultipartWrites() {
    return expireMultipartWrites(this.scope);
  }

  /** Queues an index build as a job (the `wait: false` form of CreateTableIndex). */
  createTableIndexJob(request: WithId<M.CreateTableIndexRequest>) {
    return createTableIndexJob(this.scope, request);
  }

  /** Queues an index drop as a job (the `wait: false` form of DropTableIndex). */
  dropTableIndexJob(request: WithId<M.DropTableIndexRequest> & { index_name: string }) {
    return dropTableIndexJob(this.scope, request);
  }

  /** Queues one maintenance task as a job (the `wait: false` form of the three maintenance operations). */
  queueTableMaintenance(request: WithId<M.CleanupTableVersionsRequest>, task: MaintenanceTask) {
    return queueTableMaintenance(this.scope, request.id, task, { olderThanSeconds: request.older_than_seconds, deleteUnverified: request.delete_unverified });
  }
}

type AnyFunction = (...args: unknown[]) => unknown;

for (const [name, work] of Object.entries(operationFunctions) as [string, (scope: CatalogScope, ...args: unknown[]) => unknown][]) {
  // Non-enumerable like a declared method; named after the operation (spans and stack traces show it).
  const method = { [name](this: Catalog, ...args: unknown[]) { return work(this.scope, ...args); } }[name] as AnyFunction;
  Object.defineProperty(Catalog.prototype, name, { value: method, writable: true, configurable: true, enumerable: false });
}

/**
 * Every method answers an outage below the catalog (an object store or the metadata store that
 * cannot serve now) as 17, including failures of the paths that call storage or the store
 * without translating: one wrapper here rather than a catch in each operation.
 */
function answeringOutages(method: AnyFunction): AnyFunction {
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
  Object.defineProperty(Catalog.prototype, name, { ...descriptor, value: answeringOutages(descriptor.value as AnyFunction) });
}
