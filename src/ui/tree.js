/**
 * The namespace tree in the side bar: each namespace expands on demand into its child
 * namespaces and tables (ListNamespaces / ListTables), one page at a time with "more" buttons.
 * Toggles are buttons with `aria-expanded`, names are links, so it works from the keyboard.
 */
import { api } from "./api.js";
import { errorBox, h, replaceChildren } from "./dom.js";
import { namespaceHref, tableHref } from "./routes.js";

/**
 * Lists the first page of `list` into `into`, adding a "more" button while a page token
 * remains; answers false when that first page failed (its error is shown in its place).
 */
async function pageInto(into, label, list, render) {
  const load = async (token, button) => {
    try {
      const page = await list(token);
      button?.remove();
      for (const item of page.items) into.append(render(item));
      if (page.next) {
        const more = h("button", { type: "button", class: "link more" }, `More ${label}…`);
        more.addEventListener("click", () => load(page.next, more));
        into.append(h("li", {}, more));
      }
      return true;
    } catch (error) {
      into.append(h("li", {}, errorBox(error, `Listing ${label}`)));
      return false;
    }
  };
  return load(undefined, undefined);
}

function tableItem(parent, name) {
  return h("li", { class: "leaf" }, h("a", { href: tableHref([...parent, name]), class: "table-link" }, h("span", { class: "icon", "aria-hidden": "true" }, "▦"), name));
}

/** One namespace: a toggle, its link, and (once expanded) a group of its children. */
function namespaceItem(parts, { expanded = false } = {}) {
  const name = parts.length === 0 ? "Root namespace" : parts[parts.length - 1];
  const group = h("ul", { role: "group", hidden: true });
  const toggle = h("button", { type: "button", class: "toggle", "aria-expanded": "false", "aria-label": `Expand ${name}` }, "▸");
  let loading = null;
  const load = async () => {
    group.setAttribute("aria-busy", "true");
    const listed = await pageInto(group, "namespaces", async (token) => {
      const page = await api.listNamespaces(parts, token);
      return { items: page.namespaces, next: page.page_token };
    }, (child) => namespaceItem([...parts, child]));
    // A namespace that could not be listed would only repeat the same error for its tables.
    if (listed) {
      await pageInto(group, "tables", async (token) => {
        const page = await api.listTables(parts, token);
        return { items: page.tables, next: page.page_token };
      }, (table) => tableItem(parts, table));
    }
    if (group.children.length === 0) group.append(h("li", { class: "muted empty" }, "empty"));
    group.removeAttribute("aria-busy");
  };
  /** Opens or closes the namespace; opening answers once its children are listed. */
  const setOpen = (open) => {
    toggle.setAttribute("aria-expanded", String(open));
    toggle.setAttribute("aria-label", `${open ? "Collapse" : "Expand"} ${name}`);
    toggle.textContent = open ? "▾" : "▸";
    group.hidden = !open;
    if (open) loading ??= load();
    return open ? loading : Promise.resolve();
  };
  toggle.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
  const item = h("li", { class: "branch", "data-namespace": parts.join("$") }, toggle, h("a", { href: namespaceHref(parts) }, name), group);
  item.open = () => setOpen(true);
  if (expanded) setOpen(true);
  return item;
}

/** Renders a fresh tree with the root expanded (after a create or drop, too). */
export function renderTree(container) {
  replaceChildren(
    container,
    h("h2", { class: "sidebar-title" }, "Namespaces"),
    h("ul", { class: "tree" }, namespaceItem([], { expanded: true })),
  );
}

/** The tree item of namespace `parts` among the children of `list`, if it is listed. */
function childBranch(list, parts) {
  const key = parts.join("$");
  return [...list.children].find((item) => item.classList.contains("branch") && item.dataset.namespace === key);
}

/**
 * Opens the tree down to what the page shows (a namespace, or a table with `table`) and marks its
 * link as the current page; `null` only clears the mark. A later call supersedes an earlier one
 * still waiting for a listing.
 */
export async function revealInTree(container, parts, { table = false } = {}) {
  const call = (container.revealCall ?? 0) + 1;
  container.revealCall = call;
  for (const link of container.querySelectorAll("[aria-current]")) link.removeAttribute("aria-current");
  if (parts === null) return;
  const namespaces = table ? parts.slice(0, -1) : parts;
  const root = container.querySelector("ul.tree");
  let item = root ? childBranch(root, []) : undefined;
  // Each ancestor is opened (listed) before its child can be found in it.
  for (let depth = 0; item && depth < namespaces.length; depth++) {
    await item.open();
    if (container.revealCall !== call) return;
    item = childBranch(item.querySelector(":scope > ul"), namespaces.slice(0, depth + 1));
  }
  if (item && table) {
    await item.open();
    if (container.revealCall !== call) return;
  }
  if (!item) return;
  const href = table ? tableHref(parts) : namespaceHref(parts);
  const link = table ? item.querySelector(`:scope > ul > li > a[href="${CSS.escape(href)}"]`) : item.querySelector(":scope > a");
  if (!link) return;
  link.setAttribute("aria-current", "page");
  link.scrollIntoView({ block: "nearest" });
}
