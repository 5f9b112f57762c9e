/**
 * Who may do what on one database, namespace or table (LanceDB's authorization API, docs/auth.md
 * "Authorization"): the grants on the object itself (ListAcls, 100 a page, "More grants" while a
 * continuation token comes back), a form granting a privilege valid on its kind (AddAcl), and a
 * Revoke button on each grant but OWNERSHIP's (DeleteAcl), which moves only by being granted to
 * another subject. An API key typed as an `a:` subject leaves the form as soon as it is sent and
 * is never written into the page: the list shows the key's principal, `p:api-key:<key id>`.
 */
import { api } from "./api.js";
import { PRIVILEGES, PRIVILEGE_MEANINGS, isApiKeySubject, objectText, subjectKind } from "./access-objects.js";
import { actionError, dataTable, errorBox, formatCount, h, labelled, replaceChildren, stackForm } from "./dom.js";
import { databaseAccessHref, namespaceAccessHref } from "./routes.js";

/** The grants on `object`, read page by page; `reload()` reads them again from the first. */
function grantsList(object, context) {
  const entries = [];
  let next;
  const list = h("div");
  const result = h("div", { class: "form-result" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "More grants");

  const revokeButton = (entry) => {
    const button = h("button", { type: "button", class: "danger small", "aria-label": `Revoke ${entry.privilege} from ${entry.subject_id}` }, "Revoke");
    button.addEventListener("click", async () => {
      if (!confirm(`Revoke ${entry.privilege} on ${object} from ${entry.subject_id}? Its requests are refused at once.`)) return;
      try {
        await api.deleteAcl(entry.subject_id, object, entry.privilege);
        context.announce(`Revoked ${entry.privilege} on ${object} from ${entry.subject_id}.`);
        await reload();
      } catch (error) {
        replaceChildren(result, actionError(error, `Revoking ${entry.privilege}`));
      }
    });
    return button;
  };
  const actionOf = (entry) => (entry.privilege === "OWNERSHIP" ? h("span", { class: "muted" }, "transferred by granting, not revoked") : revokeButton(entry));

  const show = () => {
    replaceChildren(
      list,
      h("p", { class: "muted", role: "status" }, `${formatCount(entries.length)} ${entries.length === 1 ? "grant" : "grants"} read${next ? " (more follow)" : ""}.`),
      dataTable(
        `Grants on ${object}`,
        ["Subject", "Kind", "Privilege", "Action"],
        entries.map((entry) => [h("code", {}, entry.subject_id), subjectKind(entry.subject_id), entry.privilege, actionOf(entry)]),
        { empty: "no grants on it", labelledBy: "grants-heading" },
      ),
    );
    more.hidden = !next;
  };
  const read = async () => {
    more.disabled = true;
    try {
      const page = await api.listAcls(object, next);
      entries.push(...page.entries);
      next = page.continuation_token;
      show();
    } catch (error) {
      replaceChildren(result, errorBox(error, "Listing the grants"));
    } finally {
      more.disabled = false;
    }
  };
  const reload = () => {
    entries.length = 0;
    next = undefined;
    return read();
  };
  more.addEventListener("click", read);
  return { element: h("div", {}, list, more, result), reload };
}

/** The form granting a privilege on `object`, an object of `kind`; `granted()` follows a success. */
function grantForm(object, kind, context, granted) {
  const result = h("div", { class: "form-result" });
  const subject = h("input", { id: "grant-subject", required: true, autocomplete: "off", spellcheck: "false", placeholder: "p:api-key:0123456789abcdef", "aria-describedby": "grant-subject-hint" });
  const hint = h(
    "p",
    { id: "grant-subject-hint", class: "muted" },
    "p:api-key:<key id>, p:oauth-client:<client id> or p:external-token:<subject>; g:<group>; r:<role>; or a:<API key> for that key's principal (the key is sent once, then cleared, and never shown).",
  );
  // Chosen at first: the first privilege short of OWNERSHIP, whose grant would transfer the object.
  const initial = PRIVILEGES[kind].find((name) => name !== "OWNERSHIP");
  const privilege = h(
    "select",
    { id: "grant-privilege" },
    PRIVILEGES[kind].map((name) => h("option", { value: name, selected: name === initial }, `${name}: ${PRIVILEGE_MEANINGS[name]}`)),
  );
  const form = stackForm([labelled("Subject", subject), hint, labelled("Privilege", privilege)], "Grant", result);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const typed = subject.value.trim();
    const isKey = isApiKeySubject(typed);
    // The key is a secret: it leaves the page with this submission, whatever the answer.
    if (isKey) subject.value = "";
    const who = isKey ? "the API key's principal" : typed;
    const chosen = privilege.value;
    if (chosen === "OWNERSHIP" && !confirm(`Grant OWNERSHIP of ${object} to ${who}? Ownership is transferred: the current owner loses it.`)) return;
    try {
      await api.addAcl(typed, object, chosen);
      subject.value = "";
      replaceChildren(result);
      context.announce(`Granted ${chosen} on ${object} to ${who}.`);
      await granted();
    } catch (error) {
      replaceChildren(result, actionError(error, `Granting ${chosen}`));
    }
  });
  return h(
    "section",
    { class: "action", "aria-labelledby": "grant-heading" },
    h("h3", { id: "grant-heading" }, "Grant a privilege"),
    h(
      "p",
      { class: "muted" },
      "Granting needs OWNERSHIP of this object or of what holds it. OWNERSHIP is never revoked: granting it to another subject transfers it.",
    ),
    form,
  );
}

/** Links to the Access pages of what holds the object, whose grants apply to it too. */
function containerLinks(kind, database, parts) {
  if (kind === "database") return [];
  // A table's namespace holds it, a namespace's parent holds it; the root namespace holds
  // root-level tables but no namespaces (as in LanceDB), so a top-level namespace has its database.
  const namespace = parts.slice(0, -1);
  const links = [];
  if (kind === "table" && namespace.length === 0) links.push(h("a", { href: namespaceAccessHref([]) }, "the root namespace"));
  for (let depth = namespace.length; depth >= 1; depth -= 1) {
    const prefix = namespace.slice(0, depth);
    links.push(h("a", { href: namespaceAccessHref(prefix) }, `namespace ${prefix.join(".")}`));
  }
  links.push(h("a", { href: databaseAccessHref(database) }, `database ${database}`));
  return links;
}

/**
 * The Access panel of a database (`parts` unused), namespace or table (`kind`) of `database`:
 * its grants and the form granting one.
 */
export async function accessPanel(kind, database, parts, context) {
  const object = objectText(kind, database, parts);
  if (object === null) {
    return h("p", { class: "muted" }, `A top-level namespace named public has no object of its own in the authorization API (public names the root namespace there): grants on database ${database} cover it.`);
  }
  const grants = grantsList(object, context);
  const containers = containerLinks(kind, database, parts);
  await grants.reload();
  return h(
    "div",
    {},
    h(
      "section",
      { "aria-labelledby": "grants-heading" },
      h("h3", { id: "grants-heading" }, "Grants on ", h("code", {}, object)),
      containers.length === 0
        ? null
        : h("p", { class: "muted" }, "Privileges granted on what holds it apply too: see ", containers.flatMap((link, i) => (i === 0 ? [link] : [", ", link])), "."),
      grants.element,
    ),
    grantForm(object, kind, context, grants.reload),
  );
}
