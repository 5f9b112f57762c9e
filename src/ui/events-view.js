/**
 * The change-events page: the newest change events the connection may see (`GET /v1/events`,
 * docs/change-events.md), newest first, kept live with the feed's long poll while the page is
 * open. The first read asks for the newest ones alone (`tail`), then the page follows on from the
 * cursor that answer gives.
 */
import { ApiError, call } from "./api.js";
import { dataTable, errorBox, formatCount, h, replaceChildren } from "./dom.js";

/** How many events the page keeps and shows. */
const SHOWN = 200;
/** Seconds one long poll waits for an event. */
const WAIT = 25;

const HEADERS = ["Time", "Type", "Subject", "Data"];

/** One field of an event's data as text: its counts (`num_inserted_rows`, …) as every count is written. */
function dataText(key, value) {
  if (typeof value === "object") return JSON.stringify(value);
  return key.startsWith("num_") && typeof value === "number" ? formatCount(value) : String(value);
}

function row(event) {
  const type = String(event.type ?? "").replace(/^io\.quiver\./, "");
  const { database: _database, id: _id, ...data } = event.data ?? {};
  const summary = Object.entries(data)
    .map(([key, value]) => `${key}: ${dataText(key, value)}`)
    .join(", ");
  return [new Date(event.time).toLocaleString(), h("code", { title: event.type }, type), h("code", {}, event.subject ?? ""), h("span", { class: "muted" }, summary)];
}

export function renderEvents(main) {
  const status = h("p", { class: "muted", role: "status" }, "Reading events…");
  const list = h("div");
  const live = h("input", { type: "checkbox", id: "events-live", checked: true });
  replaceChildren(
    main,
    h("h2", { class: "view-title", tabindex: -1, id: "events-heading" }, "Change events"),
    h("p", { class: "muted" }, "Every committed change of the databases this connection may read, newest first, as its role may see it: key administration for admins, table locations for writers and admins."),
    h("p", {}, h("label", { for: "events-live" }, live, " Follow new events")),
    status,
    list,
  );
  const events = [];
  let cursor = "";
  const show = () => replaceChildren(list, dataTable("Change events", HEADERS, events.slice().reverse().map(row), { empty: "none yet", labelledBy: "events-heading" }));
  // The page is left once its list is no longer in the document: its polling stops then.
  const open = () => list.isConnected;
  const read = async (wait) => {
    const query = cursor === "" ? { tail: SHOWN } : { after: cursor, limit: 1000, wait: wait || undefined };
    const page = await call("GET", "/v1/events", { query });
    cursor = page.next;
    events.push(...page.events);
    events.splice(0, Math.max(0, events.length - SHOWN));
    return page.events.length;
  };
  (async () => {
    try {
      await read(0);
      show();
      status.textContent = `${formatCount(events.length)} most recent event(s).`;
      while (open()) {
        if (!live.checked) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          continue;
        }
        if ((await read(WAIT)) > 0 && open()) {
          show();
          status.textContent = `${formatCount(events.length)} most recent event(s); the newest at ${new Date().toLocaleTimeString()}.`;
        }
      }
    } catch (error) {
      if (open()) replaceChildren(list, errorBox(error instanceof ApiError ? error : new ApiError(0, null, String(error)), "Reading change events"));
    }
  })();
}
