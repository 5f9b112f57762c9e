/**
 * A database's audit log (`GET /v1/admin/databases/{db}/audit`, newest first, admin role): who
 * did what to which target, when, and with what outcome. The API pages but does not filter, so
 * the filters (who, what, outcome, since) apply to the records read so far, and "More" reads on.
 */
import { api } from "./api.js";
import { dataTable, errorBox, formatCount, formatTime, h, replaceChildren } from "./dom.js";

const OUTCOMES = ["", "ok", "denied", "failed"];

function outcomeBadge(record) {
  const status = record.outcome === "ok" ? "succeeded" : "failed";
  const code = record.error_code === null || record.error_code === undefined ? "" : ` · code ${record.error_code}`;
  return h("span", { class: `badge status-${status}` }, `${record.outcome} · ${record.status}${code}`);
}

/** The filters' test for one record. */
function matcher({ who, what, outcome, since }) {
  const sinceMs = since ? new Date(since).getTime() : undefined;
  return (record) =>
    (!who || record.principal.toLowerCase().includes(who.toLowerCase())) &&
    (!what || `${record.operation} ${record.target}`.toLowerCase().includes(what.toLowerCase())) &&
    (!outcome || record.outcome === outcome) &&
    (sinceMs === undefined || Number.isNaN(sinceMs) || record.at >= sinceMs);
}

/** The audit section for database `name`. */
export function auditLog(name) {
  const records = [];
  let next;
  const list = h("div");
  const field = (id, label, control) => h("div", { class: "field" }, h("label", { for: id }, label), control);
  const who = h("input", { id: "audit-who", type: "search", autocomplete: "off", placeholder: "key id or subject" });
  const what = h("input", { id: "audit-what", type: "search", autocomplete: "off", placeholder: "CreateTable, sales$orders" });
  const outcome = h("select", { id: "audit-outcome" }, OUTCOMES.map((value) => h("option", { value }, value || "any")));
  const since = h("input", { id: "audit-since", type: "datetime-local" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "More records");
  const show = () => {
    const shown = records.filter(matcher({ who: who.value.trim(), what: what.value.trim(), outcome: outcome.value, since: since.value }));
    replaceChildren(
      list,
      h("p", { class: "muted", role: "status" }, `${formatCount(shown.length)} of ${formatCount(records.length)} records read${next ? " (more are older)" : ""}.`),
      dataTable(
        `Audit records of ${name}, newest first`,
        ["When", "Who", "Operation", "Target", "Outcome", "Request"],
        shown.map((record) => [formatTime(record.at), h("code", {}, record.principal), record.operation, h("code", {}, record.target), outcomeBadge(record), h("code", { title: record.request_id }, record.request_id.slice(0, 8))]),
        { empty: "no records match", labelledBy: "audit-heading" },
      ),
    );
    more.hidden = !next;
  };
  const read = async () => {
    more.disabled = true;
    try {
      const page = await api.listAudit(name, next);
      records.push(...page.records);
      next = page.page_token;
      show();
    } catch (error) {
      replaceChildren(list, errorBox(error, "Reading the audit log"));
    } finally {
      more.disabled = false;
    }
  };
  for (const control of [who, what, outcome, since]) control.addEventListener("input", show);
  more.addEventListener("click", read);
  read();
  return h(
    "section",
    { "aria-labelledby": "audit-heading" },
    h("h3", { id: "audit-heading" }, `Audit log of database ${name}`),
    h("div", { class: "inline audit-filters", role: "search", "aria-label": "Filter the audit log" }, field(who.id, "Who", who), field(what.id, "What", what), field(outcome.id, "Outcome", outcome), field(since.id, "Since", since)),
    h("div", { class: "audit-records" }, list),
    more,
  );
}
