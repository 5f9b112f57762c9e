/**
 * The console's locations, kept in the URL fragment so reloads, bookmarks and the back button
 * work: `#/ns/a/b` (a namespace), `#/table/a/b/t` (a table), `#/jobs`, `#/events`, `#/admin`, and
 * the Access pages `#/access/database/sales` and `#/access/ns/a/b` (a table's is its Access tab).
 */

function pathOf(parts) {
  return parts.map(encodeURIComponent).join("/");
}

export function namespaceHref(parts) {
  return `#/ns/${pathOf(parts)}`;
}

export function tableHref(parts, tab) {
  return `#/table/${pathOf(parts)}${tab ? `?tab=${encodeURIComponent(tab)}` : ""}`;
}

/** The Access page of a namespace of the connection's database; `[]` is the root namespace. */
export function namespaceAccessHref(parts) {
  return `#/access/ns/${pathOf(parts)}`;
}

export function databaseAccessHref(name) {
  return `#/access/database/${encodeURIComponent(name)}`;
}

export const jobsHref = "#/jobs";
export const adminHref = "#/admin";
export const homeHref = "#/home";
export const eventsHref = "#/events";

/** The view a fragment names, or null for fragments that are not routes (e.g. `#main`). */
export function parseRoute(hash) {
  if (hash === "" || hash === "#" || hash === "#/") return { view: "namespace", parts: [] };
  if (!hash.startsWith("#/")) return null;
  const [path, search = ""] = hash.slice(2).split("?", 2);
  const [view, ...rest] = path.split("/");
  let parts;
  try {
    parts = rest.filter((part) => part !== "").map(decodeURIComponent);
  } catch {
    return { view: "namespace", parts: [] };
  }
  switch (view) {
    case "ns":
      return { view: "namespace", parts };
    case "table":
      return parts.length > 0 ? { view: "table", parts, tab: new URLSearchParams(search).get("tab") } : { view: "namespace", parts: [] };
    case "access":
      return accessRoute(parts);
    case "jobs":
      return { view: "jobs" };
    case "admin":
      return { view: "admin" };
    case "home":
      return { view: "home" };
    case "events":
      return { view: "events" };
    default:
      return { view: "namespace", parts: [] };
  }
}

/** `database/NAME` or `ns/…` after `#/access/`; anything else opens the root. */
function accessRoute([scope, ...names]) {
  if (scope === "database" && names.length === 1) return { view: "access", kind: "database", database: names[0] };
  if (scope === "ns") return { view: "access", kind: "namespace", parts: names };
  return { view: "namespace", parts: [] };
}
