/**
 * @module Job operations (spec/clients.md §2.3: the LanceDB client's `/v1/jobs/*` routes, plus
 * `GET /v1/jobs/{id}`): describe, list, cancel, and the event log. Jobs belong to a database;
 * one database never sees another's. An unknown job id is 404 with code 10: jobs, like
 * transactions, are asynchronous operations tracked by id, and the client keys on the status.
 */
import { encodeIpcStream } from "../../engine/arrow-ipc.js";
import type {
  CancelJobRequest,
  CancelJobResponse,
  DescribeJobRequest,
  JobDescription,
  ListJobsRequest,
  ListJobsResponse,
  QueryJobEventsRequest,
} from "../../model/job.js";
import type { JobRow } from "../../store/job-schema.js";
import type { JobCursor } from "../../store/rows/jobs/list-jobs.js";
import type { StoreTx } from "../../store/store.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { namespaceIdOfKey } from "../identifiers.js";
import { requireTable } from "../table-lookup.js";

const clientStates: Record<JobRow["status"], string> = {
  queued: "IN_PROGRESS",
  running: "IN_PROGRESS",
  succeeded: "DONE",
  failed: "FAILED",
  cancelled: "CANCELLED",
};

/** DescribeJob: the job's record in the client's shape plus Quiver's detail. Throws 10. */
export async function describeJob(scope: CatalogScope, request: DescribeJobRequest): Promise<JobDescription> {
  return translating(`job '${request.job_id}'`, async () => {
    const row = await requireJob(scope.store.rows, scope.database.name, request.job_id);
    return toDescription(row, await targetId(scope.store.rows, row));
  });
}

/**
 * ListJobs: the database's jobs, newest first, `limit` per page (default 100, at most 1000),
 * optionally only those on one table (`table`, 1 or 4 when it does not exist) or in one status.
 */
export async function listJobs(scope: CatalogScope, request: ListJobsRequest): Promise<ListJobsResponse> {
  const limit = request.limit ?? 100;
  const after = request.page_token ? decodeCursor(request.page_token) : undefined;
  return translating("jobs", async () => {
    const rows = scope.store.rows;
    const target = request.table ? (await requireTable(rows, scope.database.name, request.table)).id : undefined;
    const jobs = await rows.listJobs(scope.database.name, after, limit + 1, { target, status: request.status ?? undefined });
    const page = jobs.slice(0, limit);
    const entries = await Promise.all(
      page.map(async (row) => ({
        job_id: row.id,
        table: row.target_name,
        table_id: await targetId(rows, row),
        job_type: row.kind,
        job_state: clientStates[row.status],
        state: clientStates[row.status],
        status: row.status,
        created_at_millis: row.created_at,
      })),
    );
    const last = page[page.length - 1];
    return jobs.length > limit && last ? { jobs: entries, page_token: encodeCursor({ createdAt: last.created_at, id: last.id }) } : { jobs: entries };
  });
}

/**
 * CancelJob: a queued job is cancelled at once; a running one stops at its next checkpoint
 * and undoes its partial work (a refresh leaves the view at its version before the job).
 * Cancelling a finished job changes nothing. Throws 10.
 */
export async function cancelJob(scope: CatalogScope, request: CancelJobRequest): Promise<CancelJobResponse> {
  return translating(`job '${request.job_id}'`, async () => {
    const status = await scope.store.rows.requestJobCancel(scope.database.name, request.job_id, Date.now());
    if (!status) throw jobNotFound(request.job_id);
    if (status === "cancelled") {
      await scope.store.rows.insertJobEvent({ job_id: request.job_id, at: Date.now(), state: "cancel_requested", emitted_by: "catalog", claim_entity: null, rows_processed: null, message: null });
    }
    return { job_id: request.job_id, status };
  });
}

const eventColumns = ["job_id", "event_id", "state", "updated_by", "emitted_from", "emitted_by", "claim_entity", "rows_processed", "message", "timestamp_ms"] as const;
const filterableColumns = new Set(["state", "updated_by", "emitted_from", "emitted_by", "claim_entity"]);

/**
 * QueryJobEvents: the event log (of one job, or of every job of the database) as an Arrow IPC
 * stream, oldest first; `limit` defaults to 1000, at most 10000. `filter` accepts conjunctions
 * of `column = 'value'` over state, updated_by, emitted_from, emitted_by and claim_entity.
 * Throws 10, 13.
 */
export async function queryJobEvents(scope: CatalogScope, request: QueryJobEventsRequest): Promise<Uint8Array> {
  const limit = Math.min(request.limit ?? 1000, 10_000);
  const equals = parseEventFilter(request.filter ?? null);
  return translating("job events", async () => {
    if (request.job_id) await requireJob(scope.store.rows, scope.database.name, request.job_id);
    if (equals.emitted_from && equals.emitted_from !== "quiver") return encodeEvents([]);
    const { updated_by, emitted_from: _ignored, ...rest } = equals;
    const match = { ...rest, ...(updated_by ? { emitted_by: updated_by } : {}) };
    const events = await scope.store.rows.listJobEvents(scope.database.name, { jobId: request.job_id ?? undefined, equals: match }, limit);
    return encodeEvents(events);
  });
}

function encodeEvents(events: Awaited<ReturnType<StoreTx["listJobEvents"]>>): Uint8Array {
  return encodeIpcStream(eventColumns, {
    strings: {
      job_id: events.map((e) => e.job_id),
      state: events.map((e) => e.state),
      updated_by: events.map((e) => e.emitted_by),
      emitted_from: events.map(() => "quiver"),
      emitted_by: events.map((e) => e.emitted_by),
      claim_entity: events.map((e) => e.claim_entity),
      message: events.map((e) => e.message),
    },
    integers: {
      event_id: events.map((e) => e.id),
      rows_processed: events.map((e) => (e.rows_processed === null ? null : Number(e.rows_processed))),
      timestamp_ms: events.map((e) => e.at),
    },
  });
}

function parseEventFilter(filter: string | null): Record<string, string> {
  if (!filter || filter.trim() === "") return {};
  const equals: Record<string, string> = {};
  for (const term of filter.split(/\s+AND\s+/i)) {
    const match = /^\s*\(?\s*([a-z_]+)\s*=\s*'((?:[^']|'')*)'\s*\)?\s*$/i.exec(term);
    if (!match || !filterableColumns.has((match[1] as string).toLowerCase())) {
      throw invalidInput(`unsupported event filter '${filter}': use column = 'value' terms joined by AND over ${[...filterableColumns].join(", ")}`);
    }
    equals[(match[1] as string).toLowerCase()] = (match[2] as string).replace(/''/g, "'");
  }
  return equals;
}

export function toDescription(row: JobRow, table: string[]): JobDescription {
  const failure =
    row.status === "failed" || (row.last_error && row.status !== "succeeded")
      ? { phase: row.error_phase ?? "run", message: row.last_error ?? "failed", retryable: row.status !== "failed" }
      : null;
  return {
    job_id: row.id,
    job_type: row.kind,
    job_state: clientStates[row.status],
    status: row.status,
    creation_ms: row.created_at,
    table,
    spec: row.params,
    result: row.result,
    failure,
    progress: { items_done: row.items_done, items_total: row.items_total, rows_written: Number(row.rows_written) },
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    cluster: row.pool,
    cancel_requested: row.cancel_requested === 1,
    run_at_ms: row.run_at,
    started_at_ms: row.started_at,
    finished_at_ms: row.finished_at,
    updated_at_ms: row.updated_at,
  };
}

async function requireJob(rows: StoreTx, database: string, id: string): Promise<JobRow> {
  const row = await rows.findJob(database, id);
  if (!row) throw jobNotFound(id);
  return row;
}

function jobNotFound(id: string): CatalogError {
  return CatalogError.of("TransactionNotFound", `job '${id}' does not exist`);
}

/** The target table's current identifier, or its name at job creation if it is gone. */
async function targetId(rows: StoreTx, row: JobRow): Promise<string[]> {
  const table = await rows.findTableById(row.target);
  return table ? [...namespaceIdOfKey(table.namespace_path), table.name] : [row.target_name];
}

function encodeCursor(cursor: JobCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString("base64url");
}

function decodeCursor(token: string): JobCursor {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as [number, string];
    if (typeof createdAt === "number" && typeof id === "string") return { createdAt, id };
  } catch {
    // fall through
  }
  throw invalidInput("page_token is not one this server issued");
}

