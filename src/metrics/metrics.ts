/**
 * @module Every Prometheus metric Quiver exports, declared once on one registry. Labels take
 * only values from small fixed sets (operation ids, method names, job kinds, states, status
 * codes), never table or namespace names, so the number of series stays bounded however many
 * tables a deployment holds. Database names label only the throttling counter: databases are few
 * and made by admins.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: "quiver_" });

/** Request latencies: 1 ms to 60 s; queries and index builds sit at the top. */
const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Jobs run from under a second to hours. */
const jobBuckets = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 14_400];

export const httpRequests = new Counter({
  name: "quiver_http_requests_total",
  help: "HTTP requests answered, by operation id (the OpenAPI operationId, or the service route) and status code",
  labelNames: ["operation", "status"] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: "quiver_http_request_duration_seconds",
  help: "Time from receiving a request to finishing its answer, by operation id and status code",
  labelNames: ["operation", "status"] as const,
  buckets: latencyBuckets,
  registers: [metricsRegistry],
});

export const httpRequestBytes = new Counter({
  name: "quiver_http_request_bytes_total",
  help: "Request body bytes received, by operation id",
  labelNames: ["operation"] as const,
  registers: [metricsRegistry],
});

export const httpResponseBytes = new Counter({
  name: "quiver_http_response_bytes_total",
  help: "Response body bytes sent, by operation id",
  labelNames: ["operation"] as const,
  registers: [metricsRegistry],
});

export const engineCallDuration = new Histogram({
  name: "quiver_engine_call_duration_seconds",
  help: "Latency of calls into the Lance engine, by engine method and outcome (ok or error)",
  labelNames: ["call", "outcome"] as const,
  buckets: latencyBuckets,
  registers: [metricsRegistry],
});

export const storeCallDuration = new Histogram({
  name: "quiver_store_call_duration_seconds",
  help: "Latency of metadata-store calls, by store function (transaction for a whole transaction) and outcome",
  labelNames: ["call", "outcome"] as const,
  buckets: latencyBuckets,
  registers: [metricsRegistry],
});

export const commits = new Counter({
  name: "quiver_commits_total",
  help: "Table versions committed: by writes Quiver runs (write) or by clients committing through the catalog (managed)",
  labelNames: ["kind"] as const,
  registers: [metricsRegistry],
});

export const commitConflicts = new Counter({
  name: "quiver_commit_conflicts_total",
  help: "Commits that met a concurrent writer: retried against the newest version, or refused with 409 code 14",
  labelNames: ["kind", "outcome"] as const,
  registers: [metricsRegistry],
});

export const orphanedFoldersRemoved = new Counter({
  name: "quiver_orphaned_folders_removed_total",
  help: "Table folders no catalog row referred to (left by a create or drop that crashed half-way), removed by the orphan sweep",
  registers: [metricsRegistry],
});

export const jobsQueued = new Counter({
  name: "quiver_jobs_queued_total",
  help: "Jobs queued, by job kind",
  labelNames: ["kind"] as const,
  registers: [metricsRegistry],
});

export const jobsFinished = new Counter({
  name: "quiver_jobs_finished_total",
  help: "Job attempts this process ended, by job kind and outcome (succeeded, failed, cancelled, retry, released)",
  labelNames: ["kind", "state"] as const,
  registers: [metricsRegistry],
});

export const jobDuration = new Histogram({
  name: "quiver_job_duration_seconds",
  help: "Run time of job attempts in this process, by job kind and outcome",
  labelNames: ["kind", "state"] as const,
  buckets: jobBuckets,
  registers: [metricsRegistry],
});

export const jobs = new Gauge({
  name: "quiver_jobs",
  help: "Jobs in the metadata store by state, across all databases and replicas (read when scraped)",
  labelNames: ["state"] as const,
  registers: [metricsRegistry],
});

export const jobItemsCompleted = new Counter({
  name: "quiver_job_items_completed_total",
  help: "Work items (slices of a job) completed in this process, by job kind",
  labelNames: ["kind"] as const,
  registers: [metricsRegistry],
});

export const credentialsVended = new Counter({
  name: "quiver_credentials_vended_total",
  help: "Storage options handed to clients with a table's location, by vending mode, access, storage backend and outcome",
  labelNames: ["mode", "access", "backend", "outcome"] as const,
  registers: [metricsRegistry],
});

export const maintenanceRuns = new Counter({
  name: "quiver_table_maintenance_total",
  help: "Table maintenance tasks run (compact, cleanup, optimize_indexes), by task and outcome",
  labelNames: ["task", "outcome"] as const,
  registers: [metricsRegistry],
});

export const throttledRequests = new Counter({
  name: "quiver_throttled_requests_total",
  help: "Requests refused with 429 code 21 by a rate limit, by database and by the limit that refused them (caller or database)",
  labelNames: ["database", "limit"] as const,
  registers: [metricsRegistry],
});

export const changeEventsLost = new Counter({
  name: "quiver_change_events_lost_total",
  help: "Change events that could not be written after a change the engine had already committed (see docs/change-events.md)",
  registers: [metricsRegistry],
});

export const eventDeliveries = new Counter({
  name: "quiver_event_deliveries_total",
  help: "Webhook deliveries of change-event batches, by outcome (ok, failed)",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});

export const eventDeliveryLag = new Gauge({
  name: "quiver_event_delivery_lag_seconds",
  help: "Age of the oldest change event no webhook target has acknowledged yet (0 when every target is caught up), as seen by the replica delivering",
  registers: [metricsRegistry],
});

export const eventsPurged = new Counter({
  name: "quiver_change_events_purged_total",
  help: "Change events deleted after their retention",
  registers: [metricsRegistry],
});
