/**
 * The Access page of a database or a namespace: who may do what on it (`access-panel.js`). A
 * namespace is one of the connection's database; a database may be any the deployment holds, as
 * grants are deployment-wide. A table's Access is a tab of its page.
 */
import { accessPanel } from "./access-panel.js";
import { connection } from "./api.js";
import { h, loadInto, replaceChildren } from "./dom.js";
import { breadcrumbs } from "./namespace-view.js";

/** `route`: `{ kind: "database", database }` or `{ kind: "namespace", parts }`. */
export function renderAccess(main, route, context) {
  const database = route.kind === "database" ? route.database : connection.database || "default";
  const parts = route.kind === "namespace" ? route.parts : [];
  const title =
    route.kind === "database" ? `Access to database ${database}` : parts.length === 0 ? "Access to the root namespace" : `Access to namespace ${parts.join(".")}`;
  const body = h("div");
  replaceChildren(
    main,
    route.kind === "namespace" ? breadcrumbs(parts) : null,
    h("h2", { tabindex: -1, class: "view-title" }, title),
    h("p", { class: "muted" }, "The privileges granted on it, to API keys, OAuth clients, external tokens, groups and roles (LanceDB's authorization API)."),
    body,
  );
  loadInto(body, "Listing the grants", () => accessPanel(route.kind, database, parts, context));
}
