/**
 * @module Row types of the job and materialized-view tables (migration 0004). They join the
 * shared `Database` interface through declaration merging, so `schema.ts` stays untouched by
 * this area. Status values: queued | running | succeeded | failed | cancelled.
 */
import type { Generated, Insertable, Selectable, Updateable } from "kysely";

export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";
export type JobItemStatus = "pending" | "running" | "done";

export interface JobsTable {
  id: string;
  database: string;
  /** What the job does, e.g. `refresh_materialized_view`. */
  kind: string;
  /** Immutable id of the table the job works on. */
  target: string;
  /** The target's name when the job was created, for listings. */
  target_name: string;
  /** The worker pool (`cluster`) allowed to run it. */
  pool: string;
  /** JSON: what the job was asked to do. Never changes. */
  params: string;
  /** JSON: what the handler recorded so a resumed run can continue (e.g. start version). */
  state: string;
  status: JobStatus;
  cancel_requested: number;
  attempts: number;
  max_attempts: number;
  /** Not claimable before this time (epoch ms); pushed back after a failed attempt. */
  run_at: number;
  locked_by: string | null;
  locked_until: number | null;
  heartbeat_at: number | null;
  items_total: number;
  items_done: number;
  rows_written: number;
  result: string | null;
  last_error: string | null;
  error_phase: string | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface JobItemsTable {
  job_id: string;
  seq: number;
  /** JSON: the slice of work, e.g. a source row-id range. */
  params: string;
  status: JobItemStatus;
  locked_by: string | null;
  locked_until: number | null;
  attempts: number;
  rows_written: number;
  updated_at: number;
}

export interface JobEventsTable {
  id: Generated<number>;
  job_id: string;
  at: number;
  /** queued, running, claim, claim_complete, succeeded, failed, cancelled, retry, ... */
  state: string;
  emitted_by: string;
  claim_entity: string | null;
  rows_processed: number | null;
  message: string | null;
}

export interface MaterializedViewsTable {
  table_id: string;
  database: string;
  kind: string;
  /** The client's `source_query`, verbatim. */
  source_query: string;
  /** JSON of the parsed, normalized definition Quiver runs. */
  definition: string;
  definition_sha: string;
  output_schema: string;
  udtf_spec: string | null;
  auto_refresh: number;
  /** Where the last successful refresh read from, to decide incremental vs rebuild. */
  refreshed_source_table: string | null;
  refreshed_source_version: number | null;
  refreshed_definition_sha: string | null;
  refreshed_view_version: number | null;
  created_at: number;
  updated_at: number;
}

declare module "./schema.js" {
  interface Database {
    jobs: JobsTable;
    job_items: JobItemsTable;
    job_events: JobEventsTable;
    materialized_views: MaterializedViewsTable;
  }
}

/**
 * Who holds a running job: the worker, and the attempt its claim began. A job claimed again
 * after its lease expired is a new attempt, so writes of an earlier run are refused even when
 * they come from the same worker.
 */
export interface JobLease {
  workerId: string;
  attempt: number;
}

/** A JSON object a job or work item carries; what it holds is the job kind's business. */
export type JobJson = Record<string, unknown>;

/** The JSON columns of a job's row as the objects they hold (the row functions encode and decode them). */
interface JobJsonColumns {
  params: JobJson;
  state: JobJson;
  result: JobJson | null;
}

export type JobRow = Omit<Selectable<JobsTable>, keyof JobJsonColumns> & JobJsonColumns;
export type NewJobRow = Omit<Insertable<JobsTable>, keyof JobJsonColumns> & JobJsonColumns;
export type JobRowUpdate = Updateable<JobsTable>;
export type JobItemRow = Omit<Selectable<JobItemsTable>, "params"> & { params: JobJson };
export type NewJobItemRow = Insertable<JobItemsTable>;
export type JobEventRow = Selectable<JobEventsTable>;
export type NewJobEventRow = Insertable<JobEventsTable>;
/** The JSON columns of a view's row as the objects they hold (the row functions encode and decode them). */
interface ViewJsonColumns {
  definition: JobJson;
  udtf_spec: JobJson | null;
}

export type MaterializedViewRow = Omit<Selectable<MaterializedViewsTable>, keyof ViewJsonColumns> & ViewJsonColumns;
export type NewMaterializedViewRow = Omit<Insertable<MaterializedViewsTable>, keyof ViewJsonColumns> & ViewJsonColumns;
/** What a view update may change; its definition is set once, at creation. */
export type MaterializedViewRowUpdate = Omit<Updateable<MaterializedViewsTable>, keyof ViewJsonColumns>;
