/**
 * A job followed live: its status and progress read from `GET /v1/jobs/{id}` every half second
 * until it succeeds, fails or is cancelled, with a Cancel button while it can still stop.
 */
import { api } from "./api.js";
import { errorBox, h, replaceChildren } from "./dom.js";

const POLL_MS = 500;
export const FINISHED = new Set(["succeeded", "failed", "cancelled"]);

export function statusBadge(status) {
  return h("span", { class: `badge status-${status}` }, status);
}

/** A progress bar of a job's work items, with its counts as text. */
export function progressView(job) {
  const { items_done: done, items_total: total, rows_written: rows } = job.progress;
  const label = `${done} of ${total} items, ${rows} rows written`;
  if (total === 0) return h("span", {}, job.status === "succeeded" ? "done" : job.status === "running" ? "working" : "not started");
  return h("span", { class: "progress" }, h("progress", { max: total, value: done, "aria-label": label }), h("span", { class: "muted" }, label));
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
