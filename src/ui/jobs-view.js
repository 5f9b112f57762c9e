/**
 * The jobs page: the database's jobs, newest first (`POST /v1/jobs/list`), each with its status
 * and progress read from its record (`GET /v1/jobs/{id}`), twenty at a time.
 */
import { api } from "./api.js";
import { dataTable, errorBox, formatTime, h, loadInto, replaceChildren } from "./dom.js";
import { tableHref } from "./routes.js";

const HEADERS = ["Job", "Type", "Table", "Status", "Progress", "Attempts", "Created", "Finished"];

function progressCell(job) {
  const { items_done: done, items_total: total, rows_written: rows } = job.progress;
  const label = `${done} of ${total} items, ${rows} rows written`;
  if (total === 0) return h("span", {}, job.status === "succeeded" ? "done" : "not started");
  return h("span", { class: "progress" }, h("progress", { max: total, value: done, "aria-label": label }), h("span", { class: "muted" }, label));
}

function statusCell(entry, job) {
  const status = job?.status ?? entry.status;
  const failure = job?.failure?.message;
  return h("span", {}, h("span", { class: `badge status-${status}` }, status), job?.cancel_requested && status === "running" ? " (cancelling)" : null, failure ? h("span", { class: "muted block" }, failure) : null);
}

/** A row per job; a job whose record cannot be read still shows what the list said. */
async function jobRows(entries) {
  const records = await Promise.all(entries.map((entry) => api.getJob(entry.job_id).catch(() => null)));
  return entries.map((entry, i) => {
    const job = records[i];
    return [
      // The first block of the id tells jobs apart; the whole id is one hover or copy away.
      h("code", { title: entry.job_id }, entry.job_id.split("-")[0]),
      entry.job_type,
      h("a", { href: tableHref(entry.table_id) }, entry.table_id.join(".")),
      statusCell(entry, job),
      job ? progressCell(job) : "–",
      job ? `${job.attempts} of ${job.max_attempts}` : "–",
      formatTime(entry.created_at_millis),
      formatTime(job?.finished_at_ms ?? undefined),
    ];
  });
}

export function renderJobs(main) {
  const list = h("div");
  const refresh = h("button", { type: "button", class: "secondary" }, "Refresh");
  const rows = [];
  const show = async (token) => {
    const page = await api.listJobs(token);
    rows.push(...(await jobRows(page.jobs)));
    const more = page.page_token ? h("button", { type: "button", class: "secondary" }, "More jobs") : null;
    more?.addEventListener("click", async () => {
      more.disabled = true;
      try {
        replaceChildren(list, await show(page.page_token));
      } catch (error) {
        list.append(errorBox(error, "Listing jobs"));
      }
    });
    return h("div", {}, dataTable("Jobs, newest first", HEADERS, rows, { empty: "no jobs yet" }), more);
  };
  refresh.addEventListener("click", () => {
    rows.length = 0;
    loadInto(list, "Listing jobs", () => show(undefined));
  });
  replaceChildren(
    main,
    h("h2", { tabindex: -1, class: "view-title" }, "Jobs"),
    h("p", { class: "muted" }, "Materialized-view refreshes, column backfills and index builds of this database."),
    h("div", { class: "toolbar" }, refresh),
    list,
  );
  loadInto(list, "Listing jobs", () => show(undefined));
}
