/**
 * @module The catalog of one database: one method per spec operation, named after it, taking
 * and returning the spec's models. It knows nothing of HTTP; the server and the `dir` client
 * both call it. Every method throws `CatalogError` with a spec code.
 */
import type * as M from "../model/index.js";
import type { CallContext, CatalogScope } from "./catalog-scope.js";
import * as namespaces from "./namespaces.js";
import * as tableCreate from "./table-create.js";
import * as tableDescribe from "./table-describe.js";
import * as tableLifecycle from "./table-lifecycle.js";
import * as tableListing from "./table-listing.js";
import type { ArrowStreamBody } from "./table-create.js";
import * as materializedViews from "./materialized-views.js";
import * as jobs from "./jobs.js";
import * as backfill from "./backfill.js";

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
}
