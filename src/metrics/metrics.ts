/**
 * @module Every Prometheus metric Quiver exports, declared once on one registry. Labels take
 * only values from small fixed sets (operation ids, method names, job kinds, states, status
 * codes), never table or namespace names, so the number of series stays bounded however many
 * tables a deployment holds. Database names label only the throttling counter: databases are few
 * and made by admins.
 */
import { counter, gauge, histogram } from "./metric-families.js";

export { metricsRegistry } from "./metric-families.js";

/** Request latencies: 1 ms to 60 s; queries and index builds sit at the top. */
const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Jobs run from under a second to hours. */
const jobBuckets = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 14_400];

export const httpRequests = counter("quiver_http_requests_total", "HTTP requests answered, by operation id (the OpenAPI operationId, or the service route) and status code", ["operation", "status"]);
export const httpRequestDuration = histogram("quiver_http_request_duration_seconds", "Time from receiving a request to finishing its answer, by operation id and status code", ["operation", "status"], latencyBuckets);
export const httpRequestBytes = counter("quiver_http_request_bytes_total", "Request body bytes received, by operation id", ["operation"]);
export const httpResponseBytes = counter("quiver_http_response_bytes_total", "Response body bytes sent, by operation id", ["operation"]);
export const engineCallDuration = histogram("quiver_engine_call_duration_seconds", "Latency of calls into the Lance engine, by engine method and outcome (ok or error)", ["call", "outcome"], latencyBuckets);
export const storeCallDuration = histogram("quiver_store_call_duration_seconds", "Latency of metadata-store calls, by store function (transaction for a whole transaction) and outcome", ["call", "outcome"], latencyBuckets);
export const commits = counter("quiver_commits_total", "Table versions committed: by writes Quiver runs (write) or by clients committing through the catalog (managed)", ["kind"]);
export const commitConflicts = counter("quiver_commit_conflicts_total", "Commits that met a concurrent writer: retried against the newest version, or refused with 409 code 14", ["kind", "outcome"]);
export const orphanedFoldersRemoved = counter("quiver_orphaned_folders_removed_total", "Table folders no catalog row referred to (left by a create or drop that crashed half-way), removed by the orphan sweep");
export const jobsQueued = counter("quiver_jobs_queued_total", "Jobs queued, by job kind", ["kind"]);
export const jobsFinished = counter("quiver_jobs_finished_total", "Job attempts this process ended, by job kind and outcome (succeeded, failed, cancelled, retry, released)", ["kind", "state"]);
export const jobDuration = histogram("quiver_job_duration_seconds", "Run time of job attempts in this process, by job kind and outcome", ["kind", "state"], jobBuckets);
export const jobs = gauge("quiver_jobs", "Jobs in the metadata store by state, across all databases and replicas (read when scraped)", ["state"]);
export const jobItemsCompleted = counter("quiver_job_items_completed_total", "Work items (slices of a job) completed in this process, by job kind", ["kind"]);
export const credentialsVended = counter("quiver_credentials_vended_total", "Storage options handed to clients with a table's location, by vending mode, access, storage backend and outcome", ["mode", "access", "backend", "outcome"]);
export const autoMaintenanceRuns = counter("quiver_auto_maintenance_runs_total", "Automatic maintenance runs, by task they were queued for (compact, optimize_indices, cleanup) and outcome (ok, error, conflict)", ["task", "outcome"]);
export const maintenanceRuns = counter("quiver_table_maintenance_total", "Table maintenance tasks run (compact, cleanup, optimize_indexes), by task and outcome", ["task", "outcome"]);
export const throttledRequests = counter("quiver_throttled_requests_total", "Requests refused with 429 code 21 by a rate limit, by database and by the limit that refused them (caller or database)", ["database", "limit"]);
export const changeEventsLost = counter("quiver_change_events_lost_total", "Change events that could not be written after a change the engine had already committed (see docs/change-events.md)");
export const eventDeliveries = counter("quiver_event_deliveries_total", "Webhook deliveries of change-event batches, by outcome (ok, failed)", ["outcome"]);
export const eventDeliveryLag = gauge("quiver_event_delivery_lag_seconds", "Age of the oldest change event no webhook target has acknowledged yet (0 when every target is caught up), as seen by the replica delivering");
export const eventsPurged = counter("quiver_change_events_purged_total", "Change events deleted after their retention");
