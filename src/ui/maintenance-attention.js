/**
 * A namespace's "Needs attention" list (ListTablesNeedingMaintenance): the tables of its tree
 * whose maintenance is due (small fragments, deleted or unindexed rows, versions past the
 * retention) or whose last automatic run failed, each linking to its table, with whether
 * automatic maintenance looks after it and what says so. The server reads twenty tables' state
 * a page; "Look at more tables" reads the next twenty.
 */
import { api } from "./api.js";
import { dataTable, errorBox, formatCount, h, replaceChildren } from "./dom.js";
import { statusBadge } from "./job-progress.js";
import { tableHref } from "./routes.js";

const HEADERS = ["Table", "Fragments", "Due", "Automatic maintenance", "Last automatic run"];

function dueCell(due) {
  const reasons = Object.entries(due).map(([task, reason]) => h("li", {}, `${task}: ${reason}`));
  return reasons.length === 0 ? "–" : h("ul", { class: "plain-list" }, reasons);
}

function policyCell(entry) {
  return h("span", {}, entry.auto_maintenance, h("span", { class: "muted" }, ` (${entry.source})`));
}

function lastRunCell(run) {
  if (!run) return "none";
  return h("span", {}, statusBadge(run.status), run.error ? h("span", { class: "muted block" }, run.error) : null);
}

function row(entry) {
  return [h("a", { href: tableHref(entry.id) }, entry.id.join(".")), formatCount(entry.fragments ?? undefined), dueCell(entry.due), policyCell(entry), lastRunCell(entry.last_run)];
}

/** The section, filled as its pages arrive. */
export function attentionSection(parts) {
  const body = h("div", {}, h("p", { class: "muted" }, "Looking at the tables…"));
  const entries = [];
  let examined = 0;
  const load = async (token) => {
    let page;
    try {
      page = await api.listTablesNeedingMaintenance(parts, token);
    } catch (error) {
      replaceChildren(body, error.status === 403 ? h("p", { class: "muted" }, "Needs a writer's access.") : errorBox(error, "Looking for tables needing attention"));
      return;
    }
    entries.push(...page.tables);
    examined += page.examined;
    const more = page.page_token ? h("button", { type: "button", class: "secondary" }, "Look at more tables") : null;
    more?.addEventListener("click", () => {
      more.disabled = true;
      void load(page.page_token);
    });
    replaceChildren(
      body,
      dataTable("Tables needing attention", HEADERS, entries.map(row), { empty: "no table needs attention", labelledBy: "attention-heading" }),
      h("p", { class: "muted" }, `${formatCount(examined)} tables looked at${page.page_token ? " so far" : ""}.`),
      more,
    );
  };
  void load(undefined);
  return h("section", { "aria-labelledby": "attention-heading" }, h("h3", { id: "attention-heading" }, "Needs attention"), body);
}
