/**
 * A namespace's page: its properties (DescribeNamespace), its child namespaces and tables
 * (ListNamespaces / ListTables, paged), forms creating a table from a file and a child namespace
 * (CreateNamespace), the tables of its tree needing maintenance (maintenance-attention.js) and,
 * except for the root, a button dropping it (DropNamespace; refused with
 * code 3 while it has contents); a link to its Access page (its grants).
 */
import { api } from "./api.js";
import { createTableForm } from "./create-table-form.js";
import { attentionSection } from "./maintenance-attention.js";
import { actionError, errorBox, h, labelled, loadInto, propertiesTable, replaceChildren, stackForm } from "./dom.js";
import { namespaceAccessHref, namespaceHref, tableHref } from "./routes.js";

const NAME_PATTERN = "[A-Za-z0-9_.\\-]+";

export function breadcrumbs(parts, { lastIsTable = false } = {}) {
  const crumbs = [h("li", {}, h("a", { href: namespaceHref([]) }, "Root"))];
  parts.forEach((part, i) => {
    const href = lastIsTable && i === parts.length - 1 ? tableHref(parts) : namespaceHref(parts.slice(0, i + 1));
    const current = i === parts.length - 1 ? "page" : undefined;
    crumbs.push(h("li", {}, h("a", { href, "aria-current": current }, part)));
  });
  return h("nav", { "aria-label": "Breadcrumb", class: "breadcrumbs" }, h("ol", {}, crumbs));
}

/** Every page of a listing, with a "More" button while the server hands out page tokens. */
function pagedList(label, list, render) {
  const items = h("ul", { class: "plain-list" });
  const wrapper = h("div", {}, items);
  const load = async (token) => {
    const page = await list(token);
    for (const item of page.items) items.append(h("li", {}, render(item)));
    if (items.children.length === 0) items.append(h("li", { class: "muted" }, `No ${label}.`));
    if (page.next) {
      const more = h("button", { type: "button", class: "secondary" }, `More ${label}`);
      more.addEventListener("click", async () => {
        more.remove();
        try {
          await load(page.next);
        } catch (error) {
          wrapper.append(errorBox(error, `Listing ${label}`));
        }
      });
      wrapper.append(more);
    }
    return wrapper;
  };
  return load;
}

function parseProperties(text) {
  const properties = {};
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const at = line.indexOf("=");
    if (at <= 0) throw new Error(`"${line.trim()}" is not a key=value line`);
    properties[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return properties;
}

function createForm(parts, context) {
  const result = h("div", { class: "form-result" });
  const name = h("input", { id: "new-namespace-name", name: "name", required: true, pattern: NAME_PATTERN, autocomplete: "off", "aria-describedby": "new-namespace-hint" });
  const properties = h("textarea", { id: "new-namespace-properties", name: "properties", rows: 3, placeholder: "owner=data-team" });
  const hint = h("p", { id: "new-namespace-hint", class: "muted" }, "Letters, digits, '_', '-' and '.'.");
  const form = stackForm([labelled("Name", name), hint, labelled("Properties (one key=value a line, optional)", properties)], "Create namespace", result);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const child = [...parts, name.value.trim()];
    try {
      await api.createNamespace(child, parseProperties(properties.value));
      context.announce(`Namespace ${child.join(".")} created.`, { navigating: true });
      context.refreshTree();
      location.hash = namespaceHref(child);
    } catch (error) {
      replaceChildren(result, actionError(error, "Creating the namespace"));
    }
  });
  return h("section", { "aria-labelledby": "create-heading" }, h("h3", { id: "create-heading" }, "Create a child namespace"), form);
}

function dropSection(parts, context) {
  const result = h("div", { class: "form-result" });
  const button = h("button", { type: "button", class: "danger" }, "Drop namespace");
  button.addEventListener("click", async () => {
    if (!confirm(`Drop namespace ${parts.join(".")}? It must be empty.`)) return;
    try {
      await api.dropNamespace(parts);
      context.announce(`Namespace ${parts.join(".")} dropped.`, { navigating: true });
      context.refreshTree();
      location.hash = namespaceHref(parts.slice(0, -1));
    } catch (error) {
      replaceChildren(result, actionError(error, "Dropping the namespace"));
    }
  });
  return h(
    "section",
    { "aria-labelledby": "drop-heading" },
    h("h3", { id: "drop-heading" }, "Drop this namespace"),
    h("p", { class: "muted" }, "Only an empty namespace can be dropped (tables and child namespaces first)."),
    button,
    result,
  );
}

export function renderNamespace(main, parts, context) {
  const title = parts.length === 0 ? "Root namespace" : `Namespace ${parts.join(".")}`;
  const properties = h("div");
  const namespaces = h("div");
  const tables = h("div");
  replaceChildren(
    main,
    breadcrumbs(parts),
    h("h2", { tabindex: -1, class: "view-title" }, title),
    h("p", { class: "toolbar" }, h("a", { href: namespaceAccessHref(parts) }, "Access"), h("span", { class: "muted" }, ": who may do what in this namespace")),
    h("section", { "aria-labelledby": "properties-heading" }, h("h3", { id: "properties-heading" }, "Properties"), properties),
    h(
      "div",
      { class: "columns" },
      h("section", { "aria-labelledby": "children-heading" }, h("h3", { id: "children-heading" }, "Child namespaces"), namespaces),
      h("section", { "aria-labelledby": "tables-heading" }, h("h3", { id: "tables-heading" }, "Tables"), tables),
    ),
    attentionSection(parts),
    createTableForm(parts, context),
    createForm(parts, context),
    parts.length > 0 ? dropSection(parts, context) : null,
  );
  loadInto(properties, "Describing the namespace", async () => propertiesTable("Namespace properties", (await api.describeNamespace(parts)).properties, { labelledBy: "properties-heading" }));
  const listNamespaces = pagedList("namespaces", async (token) => {
    const page = await api.listNamespaces(parts, token);
    return { items: page.namespaces, next: page.page_token };
  }, (child) => h("a", { href: namespaceHref([...parts, child]) }, child));
  loadInto(namespaces, "Listing namespaces", () => listNamespaces(undefined));
  const listTables = pagedList("tables", async (token) => {
    const page = await api.listTables(parts, token);
    return { items: page.tables, next: page.page_token };
  }, (table) => h("a", { href: tableHref([...parts, table]) }, table));
  loadInto(tables, "Listing tables", () => listTables(undefined));
}
