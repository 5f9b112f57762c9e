/**
 * @module Operation entries of materialized views, column backfill and jobs (spec/endpoints.md
 * §6.5, §10; spec/clients.md §2.3). Refreshes and backfills answer 202 with a `job_id`; a
 * server's workers run the job (a `dir` client queues it for the next server started on the
 * same folder). The job routes are left to HTTP.
 */
import * as M from "../index.js";
import { json, operation } from "./operation-entry.js";

export const viewJobOperations = {
  /**
   * CreateMaterializedView: a view of kind `query`, `chunker` or `udtf` over a source table,
   * answering the creating `version` and, with `with_no_data: false`, the first refresh's
   * `job_id`. Throws 1, 4, 5, 13.
   */
  createMaterializedView: operation({
    operationId: "CreateMaterializedView",
    summary: "Create a materialized view (a table kept up to date from a source table)",
    tag: "MaterializedView",
    access: "write",
    privilege: { needs: "CREATE_MATERIALIZED_VIEW", on: "parent" },
    methods: ["POST"],
    path: "/v1/materialized_view/{id}/create",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.CreateMaterializedViewRequest,
    response: json(M.CreateMaterializedViewResponse),
    successStatus: 201,
  }),

  /**
   * RefreshMaterializedView: queues a refresh job and answers its `job_id`; `output_limit` is for
   * chunker views only (13 otherwise). Throws 1, 4, 13.
   */
  refreshMaterializedView: operation({
    operationId: "RefreshMaterializedView",
    summary: "Start an asynchronous refresh job of a materialized view",
    tag: "MaterializedView",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/materialized_view/{id}/refresh",
    aliases: ["/v1/table/{id}/refresh"],
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.RefreshMaterializedViewRequest,
    response: json(M.RefreshMaterializedViewResponse),
    successStatus: 202,
  }),

  /** AlterTableBackfillColumns: queues a job filling a computed column; answers its `job_id`. Throws 1, 4, 12, 13. */
  alterTableBackfillColumns: operation({
    operationId: "AlterTableBackfillColumns",
    summary: "Start an asynchronous job filling a computed column",
    tag: "Schema",
    access: "write",
    privilege: { needs: "UPDATE", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/backfill_column",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.AlterTableBackfillColumnsRequest,
    response: json(M.AlterTableBackfillColumnsResponse),
    successStatus: 202,
  }),

  /** GetJob: a job's record by the id in the path. Throws 10. */
  getJob: operation({
    operationId: "GetJob",
    summary: "A job's record: status, progress, spec, result or failure",
    tag: "Job",
    access: "read",
    privilege: { needs: "SELECT", on: "database" },
    methods: ["GET"],
    path: "/v1/jobs/{job_id}",
    target: "none",
    client: false,
    body: "none",
    request: M.DescribeJobRequest,
    response: json(M.JobDescription),
  }),

  /** DescribeJob: a job's record (the LanceDB client's openJob / Job.status). Throws 10. */
  describeJob: operation({
    operationId: "DescribeJob",
    summary: "A job's record (the LanceDB client's openJob / Job.status)",
    tag: "Job",
    access: "read",
    privilege: { needs: "SELECT", on: "database" },
    methods: ["POST"],
    path: "/v1/jobs/describe",
    target: "none",
    client: false,
    body: "json",
    request: M.DescribeJobRequest,
    response: json(M.JobDescription),
  }),

  /** ListJobs: the database's jobs, newest first. */
  listJobs: operation({
    operationId: "ListJobs",
    summary: "The database's jobs, newest first",
    tag: "Job",
    access: "read",
    privilege: { needs: "SELECT", on: "database" },
    methods: ["POST"],
    path: "/v1/jobs/list",
    target: "none",
    client: false,
    body: "json",
    request: M.ListJobsRequest,
    response: json(M.ListJobsResponse),
  }),

  /** CancelJob: cancels a job; a running one stops and undoes its partial work. Throws 10. */
  cancelJob: operation({
    operationId: "CancelJob",
    summary: "Cancel a job; a running one stops and undoes its partial work",
    tag: "Job",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "database" },
    methods: ["POST"],
    path: "/v1/jobs/cancel",
    target: "none",
    client: false,
    body: "json",
    request: M.CancelJobRequest,
    response: json(M.CancelJobResponse),
  }),

  /** QueryJobEvents: job lifecycle and work-item events as an Arrow IPC stream. */
  queryJobEvents: operation({
    operationId: "QueryJobEvents",
    summary: "Job lifecycle and work-item events as an Arrow IPC stream",
    tag: "Job",
    access: "read",
    privilege: { needs: "SELECT", on: "database" },
    methods: ["POST"],
    path: "/v1/jobs/query_events",
    target: "none",
    client: false,
    body: "json",
    request: M.QueryJobEventsRequest,
    response: { kind: "arrow-stream" },
  }),
};
