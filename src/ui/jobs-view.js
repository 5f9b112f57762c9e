/**
 * The jobs page: the database's jobs, newest first (`POST /v1/jobs/list`), each with its status
 * and progress read from its record (`GET /v1/jobs/{id}`), twenty at a time, a Cancel button on
 * those still queued or running, and plots of how long the finished ones ran and how fast they
 * wrote rows.
 */
import { api } from "./api.js";
import { barChart } from "./charts.js";
import { actionError, actionSucceeded, dataTable, errorBox, formatCount, formatTime, h, loadInto, replaceChildren } from "./dom.js";
import { FINISHED, jobWhat, kindWords, progressView, statusBadge } from "./job-progress.js";
import { tableHref } from "./routes.js";

const HEADERS = ["Job", "What", "Table", "Status", "Progress", "Attempts", "Created", "Finished", "Action"];

function statusCell(entry, job) {
  const status = job?.status ?? entry.status;
  const failure = job?.failure?.message;
  return h("span", {}, statusBadge(status), job?.cancel_requested && status === "running" ? " (cancelling)" : null, failure ? h("span", { class: "muted block" }, failure) : null);
}

function cancelButton(entry, job, refresh) {
  if (FINISHED.has(job?.status ?? entry.status)) return "–";
  const button = h("button", { type: "button", class: "danger small", "aria-label": `Cancel job ${entry.job_id}` }, "Cancel");
  button.addEventListener("click", async () => {
    if (!confirm(`Cancel this ${kindWords(entry.job_type)} job? A running one undoes its partial work.`)) return;
    button.disabled = true;
    try {
      await api.cancelJob(entry.job_id);
      actionSucceeded();
      refresh();
    } catch (error) {
      button.replaceWith(actionError(error, "Cancelling the job"));
    }
  });
  return button;
}

/** A row per job; a job whose record cannot be read still shows what the list said. */
function jobRow(entry, job, refresh) {
  return [
    // The first block of the id tells jobs apart; the whole id is one hover or copy away.
    h("code", { title: entry.job_id }, entry.job_id.split("-")[0]),
    h("span", { title: entry.job_type }, job ? jobWhat(job) : kindWords(entry.job_type)),
    h("a", { href: tableHref(entry.table_id) }, entry.table_id.join(".")),
    statusCell(entry, job),
    job ? progressView(job) : "–",
    job ? `${formatCount(job.attempts)} of ${formatCount(job.max_attempts)}` : "–",
    formatTime(entry.created_at_millis),
    formatTime(job?.finished_at_ms ?? undefined),
    cancelButton(entry, job, refresh),
  ];
}

/** Run time and rows written per second of the finished jobs, oldest first. */
function throughput(records) {
  const finished = records
    .filter((job) => job && job.started_at_ms !== null && job.finished_at_ms !== null)
    .sort((a, b) => a.finished_at_ms - b.finished_at_ms)
    .map((job) => ({ job, seconds: Math.max(0.001, (job.finished_at_ms - job.started_at_ms) / 1000) }));
  if (finished.length === 0) return null;
  const key = (job) => job.job_id.split("-")[0];
  const writers = finished.filter(({ job }) => job.progress.rows_written > 0);
  return h(
    "div",
    { class: "charts" },
    barChart("Run time of finished jobs (seconds)", finished.map(({ job, seconds }) => ({ key: key(job), value: seconds, label: `${job.job_type} ${key(job)}: ${seconds.toFixed(2)} s` })), { xLabel: "job" }),
    writers.length > 0
      ? barChart("Rows written per second", writers.map(({ job, seconds }) => ({ key: key(job), value: job.progress.rows_written / seconds, label: `${job.job_type} ${key(job)}: ${formatCount(Math.round(job.progress.rows_written / seconds))} rows/s` })), { xLabel: "job" })
      : null,
  );
}

export function renderJobs(main) {
  const list = h("div");
  const refresh = h("button", { type: "button", class: "secondary" }, "Refresh");
  const entries = [];
  const records = [];
  const load = () => {
    entries.length = 0;
    records.length = 0;
    loadInto(list, "Listing jobs", () => show(undefined));
  };
  const show = async (token) => {
    const page = await api.listJobs(token);
    entries.push(...page.jobs);
    records.push(...(await Promise.all(page.jobs.map((entry) => api.getJob(entry.job_id).catch(() => null)))));
    const more = page.page_token ? h("button", { type: "button", class: "secondary" }, "More jobs") : null;
    more?.addEventListener("click", async () => {
      more.disabled = true;
      try {
        replaceChildren(list, await show(page.page_token));
      } catch (error) {
        list.append(errorBox(error, "Listing jobs"));
      }
    });
    const rows = entries.map((entry, i) => jobRow(entry, records[i], load));
    return h("div", {}, dataTable("Jobs, newest first", HEADERS, rows, { empty: "no jobs yet", labelledBy: "jobs-heading" }), more, throughput(records));
  };
  refresh.addEventListener("click", load);
  replaceChildren(
    main,
    h("h2", { tabindex: -1, class: "view-title", id: "jobs-heading" }, "Jobs"),
    h("p", { class: "muted" }, "Index builds and drops, materialized-view refreshes, column backfills, and maintenance (compaction, version cleanup, index optimisation) of this database, run now or on a schedule, newest first."),
    h("div", { class: "toolbar" }, refresh),
    list,
  );
  load();
}
