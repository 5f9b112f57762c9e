/**
 * @module Job routes: the ones the LanceDB client calls (spec/clients.md §2.3: describe, list,
 * cancel, query_events, all POST with JSON) and `GET /v1/jobs/{id}`; and AlterTableBackfillColumns
 * (spec/endpoints.md §6.5), which answers 202 with the job it queued.
 */
import type { FastifyInstance } from "fastify";
import { Type } from "@sinclair/typebox";
import * as M from "../../model/index.js";
import { defineOperation } from "../route-kit.js";
import type { ServerServices } from "../services.js";

const tag = "Job";

export function jobRoutes(app: FastifyInstance, services: ServerServices): void {
  defineOperation(
    app,
    services,
    {
      operationId: "GetJob",
      summary: "A job's record: status, progress, spec, result or failure",
      tag,
      methods: ["GET"],
      url: "/v1/jobs/:job_id",
      body: { kind: "none" },
      response: { kind: "json", schema: M.JobDescription },
      access: "read",
    },
    ({ catalog, request, call }) => catalog.describeJob({ job_id: (request.params as { job_id: string }).job_id }, call),
  );

  defineOperation<M.DescribeJobRequest>(
    app,
    services,
    {
      operationId: "DescribeJob",
      summary: "A job's record (the LanceDB client's openJob / Job.status)",
      tag,
      methods: ["POST"],
      url: "/v1/jobs/describe",
      body: { kind: "json", schema: M.DescribeJobRequest },
      response: { kind: "json", schema: M.JobDescription },
      access: "read",
    },
    ({ catalog, body, call }) => catalog.describeJob(body, call),
  );

  defineOperation<M.ListJobsRequest>(
    app,
    services,
    {
      operationId: "ListJobs",
      summary: "The database's jobs, newest first",
      tag,
      methods: ["POST"],
      url: "/v1/jobs/list",
      body: { kind: "json", schema: M.ListJobsRequest },
      response: { kind: "json", schema: M.ListJobsResponse },
      access: "read",
    },
    ({ catalog, body, call }) => catalog.listJobs(body, call),
  );

  defineOperation<M.CancelJobRequest>(
    app,
    services,
    {
      operationId: "CancelJob",
      summary: "Cancel a job; a running one stops and undoes its partial work",
      tag,
      methods: ["POST"],
      url: "/v1/jobs/cancel",
      body: { kind: "json", schema: M.CancelJobRequest },
      response: { kind: "json", schema: M.CancelJobResponse },
      access: "write",
    },
    ({ catalog, body, call }) => catalog.cancelJob(body, call),
  );

  defineOperation<M.QueryJobEventsRequest>(
    app,
    services,
    {
      operationId: "QueryJobEvents",
      summary: "Job lifecycle and work-item events as an Arrow IPC stream",
      tag,
      methods: ["POST"],
      url: "/v1/jobs/query_events",
      body: { kind: "json", schema: M.QueryJobEventsRequest },
      response: { kind: "arrow-stream" },
      access: "read",
    },
    async ({ catalog, body, call, reply }) => {
      const stream = await catalog.queryJobEvents(body, call);
      return reply.status(200).type("application/vnd.apache.arrow.stream").send(Buffer.from(stream));
    },
  );

  defineOperation<M.AlterTableBackfillColumnsRequest>(
    app,
    services,
    {
      operationId: "AlterTableBackfillColumns",
      summary: "Start an asynchronous job filling a computed column",
      tag: "Schema",
      methods: ["POST"],
      url: "/v1/table/:id/backfill_column",
      body: { kind: "json", schema: M.AlterTableBackfillColumnsRequest },
      querystring: Type.Object({ delimiter: Type.Optional(Type.String({ minLength: 1 })) }),
      response: { kind: "json", schema: M.AlterTableBackfillColumnsResponse },
      successStatus: 202,
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.alterTableBackfillColumns({ ...body, id }, call),
  );
}
