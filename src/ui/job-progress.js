/**
 * A job followed live: its status and progress read from `GET /v1/jobs/{id}` every half second
 * until it succeeds, fails or is cancelled, with a Cancel button while it can still stop.
 */
import { api } from "./api.js";
import { errorBox, formatCount, h, replaceChildren } from "./dom.js";

const POLL_MS = 500;
export const FINISHED = new Set(["succeeded", "failed", "cancelled"]);

export function statusBadge(status) {
  return h("span", { class: `badge status-${status}` }, status);
}

/** Job kinds in words. */
const KIND_WORDS = {
  create_index: "index build",
  drop_index: "index drop",
  refresh_materialized_view: "view refresh",
  backfill_column: "column backfill",
  table_maintenance: "maintenance",
  scheduled_maintenance: "scheduled maintenance",
};

const MAINTENANCE_TASKS = { compact: "compaction", cleanup: "version cleanup", optimize_indices: "index optimisation", optimize: "index optimisation" };

/** What a job does, in words: "IVF_PQ index on vector", "compaction", "scheduled maintenance every 1 h". */
export function jobWhat(job) {
  const spec = job?.spec ?? {};
  const request = spec.request ?? {};
  switch (job?.job_type) {
    case "create_index": {
      const type = request.index_type ?? request.type;
      return `${type ? `${type} ` : ""}index ${spec.index_name ?? ""}${request.column ? ` on ${request.column}` : ""}`.replace(/\s+/g, " ").trim();
    }
    case "drop_index":
      return `drop of index ${spec.index_name ?? ""}`.trim();
    case "table_maintenance":
      return MAINTENANCE_TASKS[spec.task] ?? spec.task ?? "maintenance";
    case "scheduled_maintenance":
      return `compaction, cleanup and index optimisation${spec.interval_seconds ? ` every ${duration(spec.interval_seconds * 1000)}` : ""}`;
    default:
      return KIND_WORDS[job?.job_type] ?? job?.job_type ?? "job";
  }
}

export function kindWords(kind) {
  return KIND_WORDS[kind] ?? kind;
}

/** A duration as "45 s", "12 min", "3 h", "2 d". */
export function duration(ms) {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} d`;
}

/** A queued job waiting for its time: when it runs next. */
export function nextRun(job, now = Date.now()) {
  if (!job || job.status !== "queued" || typeof job.run_at_ms !== "number") return null;
  if (job.run_at_ms <= now) return "due now";
  return `next run in ${duration(job.run_at_ms - now)} · ${new Date(job.run_at_ms).toLocaleString()}`;
}

/**
 * A job's progress in the words of its kind: items for jobs that count them, rows written only for
 * jobs that write rows (refreshes and backfills; an index build writes none), the next run of a
 * scheduled job, and what a finished maintenance job did.
 */
export function progressView(job) {
  const { items_done: done, items_total: total, rows_written: rows } = job.progress;
  const next = nextRun(job);
  if (next) return h("span", { class: "next-run" }, next);
  // An index build or drop is one step: its status says all there is.
  const indexWords = { create_index: ["waiting", "building", "built"], drop_index: ["waiting", "dropping", "dropped"] }[job.job_type];
  if (indexWords) {
    const [waiting, working, done] = indexWords;
    return h("span", {}, job.status === "queued" ? waiting : job.status === "running" ? working : job.status === "succeeded" ? done : "–");
  }
  const writesRows = job.job_type === "refresh_materialized_view" || job.job_type === "backfill_column" || rows > 0;
  const outcome = maintenanceOutcome(job);
  if (total === 0) return h("span", {}, outcome ?? (job.status === "succeeded" ? "done" : job.status === "running" ? "working" : "not started"));
  const label = `${formatCount(done)} of ${formatCount(total)} ${job.job_type === "create_index" ? "steps" : "items"}${writesRows ? `, ${formatCount(rows)} rows written` : ""}`;
  return h("span", { class: "progress" }, h("progress", { max: total, value: done, "aria-label": label }), h("span", { class: "muted" }, outcome ?? label));
}

/** What a finished maintenance job changed, from its result. */
function maintenanceOutcome(job) {
  const result = job.result;
  if (!result || !/maintenance/.test(job.job_type) || typeof result.fragments_before !== "number") return null;
  const removed = result.versions_removed > 0 ? `, ${formatCount(result.versions_removed)} versions removed` : "";
  return `${formatCount(result.fragments_before)} → ${formatCount(result.fragments_after)} fragments${removed}`;
}

/**
 * A live view of job `jobId` described as `what` ("Building index text_idx"). `onFinished(job)`
 * runs once when the job reaches a final status.
 */
export function watchJob(jobId, what, onFinished = () => {}) {
  const body = h("div", { class: "job-body" });
  const element = h("div", { class: "job-watch", role: "status", "aria-live": "polite", "data-job-id": jobId }, h("strong", {}, what), body);
  const cancel = h("button", { type: "button", class: "danger small" }, "Cancel job");
  cancel.addEventListener("click", async () => {
    cancel.disabled = true;
    try {
      await api.cancelJob(jobId);
    } catch (error) {
      element.append(errorBox(error, "Cancelling the job"));
    }
  });
  // Polling stops once the view, having been shown, has left the page.
  let shown = false;
  const poll = async () => {
    let job;
    try {
      job = await api.getJob(jobId);
    } catch (error) {
      replaceChildren(body, errorBox(error, "Reading the job"));
      return;
    }
    const finished = FINISHED.has(job.status);
    replaceChildren(
      body,
      statusBadge(job.status),
      " ",
      progressView(job),
      job.failure?.message ? h("p", { class: "muted" }, job.failure.message) : null,
      finished ? null : cancel,
    );
    shown ||= element.isConnected;
    if (finished) onFinished(job);
    else if (element.isConnected || !shown) setTimeout(poll, POLL_MS);
  };
  poll();
  return element;
}
