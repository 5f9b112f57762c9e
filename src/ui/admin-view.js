/**
 * The admin page (Quiver's admin API, docs/auth.md): the databases the key may see, with forms
 * creating and dropping one, and a database's API keys, with forms creating one (its secret shown
 * once, right after) and revoking one, and a link to each database's Access page (its grants). A
 * key without the admin role sees the refusal, code 15.
 */
import { api, connection } from "./api.js";
import { auditLog } from "./audit-log.js";
import { actionError, dataTable, formatTime, h, labelled, loadInto, replaceChildren, stackForm } from "./dom.js";
import { databaseAccessHref } from "./routes.js";

/** A key's role on its database; `none` holds only what its Access grants give it. */
const ROLES = ["read", "write", "admin", "none"];

/** The new key, shown once: the server keeps only its hash. */
function newKeyBox(created) {
  const key = h("code", { class: "secret" }, created.api_key);
  const copy = h("button", { type: "button", class: "secondary small" }, "Copy");
  copy.addEventListener("click", async () => {
    await navigator.clipboard.writeText(created.api_key);
    copy.textContent = "Copied";
  });
  return h(
    "div",
    { class: "new-key", role: "status" },
    h("strong", {}, `New ${created.role} key for ${created.database ?? "every database"}`),
    h("p", {}, key, " ", copy),
    h("p", { class: "muted" }, "Copy it now: it is shown only this once."),
  );
}

function apiKeys(database) {
  const list = h("div");
  const created = h("div");
  const show = () =>
    loadInto(list, `Listing the API keys of ${database}`, async () => {
      const { api_keys: keys } = await api.listApiKeys(database);
      const rows = keys.map((key) => {
        const revoke = h("button", { type: "button", class: "danger small", "aria-label": `Revoke key ${key.key_id}`, disabled: key.revoked_at !== null }, "Revoke");
        revoke.addEventListener("click", async () => {
          if (!confirm(`Revoke key ${key.key_id} (${key.role}, ${key.description || "no description"})? Clients using it are refused at once.`)) return;
          try {
            await api.revokeApiKey(database, key.key_id);
            show();
          } catch (error) {
            list.append(actionError(error, "Revoking the key"));
          }
        });
        return [h("code", {}, key.key_id), key.role, key.description || "–", formatTime(key.created_at), key.revoked_at ? formatTime(key.revoked_at) : "–", revoke];
      });
      return dataTable(`API keys of ${database}`, ["Key id", "Role", "Description", "Created", "Revoked", "Action"], rows, { empty: "none", labelledBy: "keys-heading" });
    });
  const role = h("select", { id: "new-key-role" }, ROLES.map((name) => h("option", { value: name }, name)));
  const description = h("input", { id: "new-key-description", autocomplete: "off", maxlength: 500 });
  const form = stackForm([labelled("Role", role), labelled("Description", description)], "Create API key");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      replaceChildren(created, newKeyBox(await api.createApiKey(database, role.value, description.value.trim())));
      description.value = "";
      show();
    } catch (error) {
      replaceChildren(created, actionError(error, "Creating the API key"));
    }
  });
  show();
  return h("section", { "aria-labelledby": "keys-heading" }, h("h3", { id: "keys-heading" }, `API keys of database ${database}`), list, created, form);
}

function databases(context, chooseDatabase) {
  const list = h("div");
  const result = h("div");
  const show = () =>
    loadInto(list, "Listing databases", async () => {
      const { databases: found } = await api.listDatabases();
      const rows = found.map((database) => {
        const keys = h("button", { type: "button", class: "secondary small", "aria-label": `API keys of ${database.name}` }, "API keys");
        keys.addEventListener("click", () => chooseDatabase(database.name));
        const drop = h("button", { type: "button", class: "danger small", "aria-label": `Drop database ${database.name}` }, "Drop");
        drop.addEventListener("click", async () => {
          if (!confirm(`Drop database ${database.name} with all its tables, data and credentials?`)) return;
          try {
            await api.dropDatabase(database.name, true);
            context.announce(`Database ${database.name} dropped.`);
            show();
          } catch (error) {
            replaceChildren(result, actionError(error, `Dropping database ${database.name}`));
          }
        });
        const access = h("a", { href: databaseAccessHref(database.name), "aria-label": `Access to ${database.name}` }, "Access");
        return [database.name, h("code", {}, database.location), database.managed_versioning ? "on" : "off", h("span", { class: "row" }, keys, access, drop)];
      });
      return dataTable("Databases", ["Name", "Location", "Managed versioning", "Actions"], rows, { empty: "none visible to this key", labelledBy: "databases-heading" });
    });
  const name = h("input", { id: "new-database-name", required: true, pattern: "[A-Za-z0-9_\\-]+", autocomplete: "off" });
  const form = stackForm([labelled("New database name", name)], "Create database");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api.createDatabase(name.value.trim());
      context.announce(`Database ${name.value.trim()} created.`);
      name.value = "";
      replaceChildren(result);
      show();
    } catch (error) {
      replaceChildren(result, actionError(error, "Creating the database"));
    }
  });
  show();
  return h("section", { "aria-labelledby": "databases-heading" }, h("h3", { id: "databases-heading" }, "Databases"), list, result, form);
}

export function renderAdmin(main, context) {
  const keys = h("div");
  const audit = h("div");
  const chooseDatabase = (name) => {
    replaceChildren(keys, apiKeys(name));
    replaceChildren(audit, auditLog(name));
  };
  replaceChildren(
    main,
    h("h2", { tabindex: -1, class: "view-title" }, "Admin"),
    h("p", { class: "muted" }, "Databases, API keys and the audit log; these need a key with the admin role (a deployment-wide one for databases)."),
    databases(context, chooseDatabase),
    keys,
    audit,
  );
  chooseDatabase(connection.database || "default");
}
