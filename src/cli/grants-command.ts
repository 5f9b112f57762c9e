/**
 * @module `quiver grants add|delete|list` and `quiver roles bind|unbind|list`: the authorization
 * API's grants and role bindings (docs/auth.md, "Authorization"), from the shell. They act on the
 * store as its operator, who may grant on every object; subjects, objects and privileges are
 * checked and refused exactly as the API refuses them, and every replica applies a change within
 * a second. Lines are tab-separated: subject, object, privilege (or subject, role).
 */
import { AccessDirectory } from "../auth/access-directory.js";
import { AuthzAdmin } from "../auth/authz-admin.js";
import { anonymousPrincipal } from "../auth/principal.js";
import { authzObjectExists } from "../catalog/authz-objects.js";
import { parseAdminArgs, withStore } from "./admin-store.js";
import { authStoreOf } from "./auth-store-adapter.js";

const options = { subject: { type: "string" }, object: { type: "string" }, privilege: { type: "string" }, role: { type: "string" } } as const;

export const grantsUsage = `Usage: quiver grants <add|delete|list> [options]

  quiver grants add --subject SUBJECT --object OBJECT --privilege PRIVILEGE [--root DIR | --store URL]
  quiver grants delete --subject SUBJECT --object OBJECT --privilege PRIVILEGE [--root DIR | --store URL]
  quiver grants list [--object OBJECT] [--subject SUBJECT] [--root DIR | --store URL]

SUBJECT is p:api-key:<key id>, p:oauth-client:<client id>, p:external-token:<sub>, g:<group>,
r:<role> or a:<API key>; OBJECT is system, database:DB, namespace:DB:NS, table:DB:NS$TABLE or
view:DB:NS$VIEW (the root namespace is public); PRIVILEGE is OWNERSHIP, USAGE, SELECT, INSERT,
UPDATE, DELETE, CREATE_DATABASE, CREATE_NAMESPACE, CREATE_TABLE, CREATE_MATERIALIZED_VIEW,
CREATE_VIEW or OPERATE. See docs/auth.md.`;

export const rolesUsage = `Usage: quiver roles <bind|unbind|list> [options]

  quiver roles bind --subject SUBJECT --role ROLE [--root DIR | --store URL]
  quiver roles unbind --subject SUBJECT --role ROLE [--root DIR | --store URL]
  quiver roles list [--subject SUBJECT] [--role ROLE] [--root DIR | --store URL]

SUBJECT is a principal (p:...), a group (g:...) or a:<API key>; grants to r:ROLE then reach it.`;

type Values = ReturnType<typeof parseAdminArgs>["values"];

function required(values: Values, name: keyof typeof options, usage: string): string {
  const value = values[name];
  if (typeof value !== "string") throw new Error(`--${name} is required\n\n${usage}`);
  return value;
}

/** The flags of `names` that were given: a listing's filter. */
function givenFlags<Name extends keyof typeof options>(values: Values, names: readonly Name[]): Partial<Record<Name, string>> {
  return Object.fromEntries(names.filter((name) => typeof values[name] === "string").map((name) => [name, values[name] as string])) as Partial<Record<Name, string>>;
}

/** Runs `fn` with the authorization API over the store of `--root`/`--store`, as its operator. */
async function withAuthz(values: Values, fn: (admin: AuthzAdmin) => Promise<void>): Promise<void> {
  await withStore(values, async (store) => {
    const authStore = authStoreOf(store);
    const directory = new AccessDirectory(authStore);
    try {
      await fn(new AuthzAdmin(authStore, directory, (object) => authzObjectExists(store, object)));
    } finally {
      directory.close();
    }
  });
}

/** Every page of a listing, one after the other. */
async function* pages<T>(list: (token: string | undefined) => Promise<{ items: T[]; token: string | undefined }>): AsyncGenerator<T> {
  let token: string | undefined;
  do {
    const page = await list(token);
    yield* page.items;
    token = page.token;
  } while (token);
}

/** `quiver grants add|delete|list`. */
export async function grantsCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseAdminArgs(argv, options);
  const [action] = positionals;
  if (values.help || !action) return void console.log(grantsUsage);
  const operator = anonymousPrincipal;
  await withAuthz(values, async (admin) => {
    if (action === "add" || action === "delete") {
      const grant = { subject: required(values, "subject", grantsUsage), object: required(values, "object", grantsUsage), privilege: required(values, "privilege", grantsUsage) };
      await (action === "add" ? admin.addAcl(operator, grant) : admin.deleteAcl(operator, grant));
      console.error(`${action === "add" ? "granted" : "revoked"} ${grant.privilege} on ${grant.object}`);
    } else if (action === "list") {
      const filter = givenFlags(values, ["object", "subject"]);
      const entries = pages(async (token) => {
        const page = await admin.listAcls(operator, { ...filter, ...(token ? { continuation_token: token } : {}) });
        return { items: page.entries, token: page.continuation_token };
      });
      for await (const entry of entries) console.log([entry.subject_id, entry.object, entry.privilege].join("\t"));
    } else {
      throw new Error(`unknown action '${action}'\n\n${grantsUsage}`);
    }
  });
}

/** `quiver roles bind|unbind|list`. */
export async function rolesCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseAdminArgs(argv, options);
  const [action] = positionals;
  if (values.help || !action) return void console.log(rolesUsage);
  const operator = anonymousPrincipal;
  await withAuthz(values, async (admin) => {
    if (action === "bind" || action === "unbind") {
      const binding = { subject: required(values, "subject", rolesUsage), role: required(values, "role", rolesUsage) };
      await (action === "bind" ? admin.addRoleBinding(operator, binding) : admin.deleteRoleBinding(operator, binding));
      console.error(`${action === "bind" ? "bound" : "unbound"} role ${binding.role}`);
    } else if (action === "list") {
      const filter = givenFlags(values, ["subject", "role"]);
      const bindings = pages(async (token) => {
        const page = await admin.listRoleBindings(operator, { ...filter, ...(token ? { continuation_token: token } : {}) });
        return { items: page.bindings, token: page.continuation_token };
      });
      for await (const binding of bindings) console.log([binding.subject_id, binding.role].join("\t"));
    } else {
      throw new Error(`unknown action '${action}'\n\n${rolesUsage}`);
    }
  });
}
