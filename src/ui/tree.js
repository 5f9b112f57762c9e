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
  let loaded = false;
  const setOpen = async (open) => {
    toggle.setAttribute("aria-expanded", String(open));
    toggle.setAttribute("aria-label", `${open ? "Collapse" : "Expand"} ${name}`);
    toggle.textContent = open ? "▾" : "▸";
    group.hidden = !open;
    if (open && !loaded) {
      loaded = true;
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
    }
  };
  toggle.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
  const item = h("li", { class: "branch", "data-namespace": parts.join("$") }, toggle, h("a", { href: namespaceHref(parts) }, name), group);
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
