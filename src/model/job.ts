/**
 * @module Job models: the routes the LanceDB client calls (`/v1/jobs/describe|list|cancel|
 * query_events`, spec/clients.md §2.3) plus `GET /v1/jobs/{id}`. The client reads `job_state`
 * as IN_PROGRESS | DONE | FAILED | CANCELLED; Quiver's own `status` is finer.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Nullable, ObjectId, PageResponse, PageToken, RequestModel, ResponseModel } from "./common.js";

export const JobStatuses = ["queued", "running", "succeeded", "failed", "cancelled"] as const;

export const JobFailureInfo = Type.Object(
  {
    phase: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
    retryable: Type.Optional(Type.Boolean()),
  },
  { title: "JobFailureInfo" },
);

export const JobProgress = Type.Object(
  {
    items_done: Type.Integer({ minimum: 0 }),
    items_total: Type.Integer({ minimum: 0 }),
    rows_written: Type.Integer({ minimum: 0 }),
  },
  { title: "JobProgress" },
);

export const JobDescription = ResponseModel("JobDescription", {
  job_id: Type.String(),
  job_type: Type.String(),
  job_state: Type.String({ description: "IN_PROGRESS | DONE | FAILED | CANCELLED" }),
  status: Type.String({ description: "queued | running | succeeded | failed | cancelled" }),
  creation_ms: Type.Integer(),
  table: ObjectId,
  spec: Type.Record(Type.String(), Type.Unknown()),
  result: Nullable(Type.Record(Type.String(), Type.Unknown())),
  failure: Nullable(JobFailureInfo),
  progress: JobProgress,
  attempts: Type.Integer({ minimum: 0 }),
  max_attempts: Type.Integer({ minimum: 1 }),
  cluster: Type.String(),
  cancel_requested: Type.Boolean(),
  run_at_ms: Type.Integer(),
  started_at_ms: Nullable(Type.Integer()),
  finished_at_ms: Nullable(Type.Integer()),
  updated_at_ms: Type.Integer(),
});
export type JobDescription = Static<typeof JobDescription>;

export const DescribeJobRequest = RequestModel("DescribeJobRequest", {
  job_id: Type.String({ minLength: 1 }),
});
export type DescribeJobRequest = Static<typeof DescribeJobRequest>;

export const ListJobsRequest = RequestModel("ListJobsRequest", {
  page_token: Type.Optional(PageToken),
  limit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1000 }))),
  table: Type.Optional(Nullable(ObjectId)),
  status: Type.Optional(Nullable(Type.String())),
});
export type ListJobsRequest = Static<typeof ListJobsRequest>;

export const JobListEntry = Type.Object(
  {
    job_id: Type.String(),
    table: Type.String({ description: "The target table's name, without namespace" }),
    table_id: ObjectId,
    job_type: Type.String(),
    job_state: Type.String({ description: "IN_PROGRESS | DONE | FAILED | CANCELLED, as in JobDescription" }),
    state: Type.String({ description: "The same as job_state: the LanceDB client's job listing reads this key" }),
    status: Type.String(),
    created_at_millis: Type.Integer(),
  },
  { title: "JobListEntry" },
);

export const ListJobsResponse = PageResponse("ListJobsResponse", {
  jobs: Type.Array(JobListEntry),
});
export type ListJobsResponse = Static<typeof ListJobsResponse>;

export const CancelJobRequest = RequestModel("CancelJobRequest", {
  job_id: Type.String({ minLength: 1 }),
});
export type CancelJobRequest = Static<typeof CancelJobRequest>;

export const CancelJobResponse = ResponseModel("CancelJobResponse", {
  job_id: Type.String(),
  status: Type.String(),
});
export type CancelJobResponse = Static<typeof CancelJobResponse>;

export const QueryJobEventsRequest = RequestModel("QueryJobEventsRequest", {
  job_id: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  limit: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  filter: Type.Optional(Nullable(Type.String())),
});
export type QueryJobEventsRequest = Static<typeof QueryJobEventsRequest>;
