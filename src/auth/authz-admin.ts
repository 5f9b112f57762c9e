/**
 * @module The operations of LanceDB's authorization API (`/admin/authz/*`): grants (ACL entries)
 * and role bindings, listed, added and deleted, and what a principal or group holds. Who may do
 * what is LanceDB's rule: granting and revoking on an object takes OWNERSHIP of it (held on it or
 * above), listing an object's grants USAGE on it (`system` without an object), role bindings and
 * identity lookups USAGE on `system`, changing bindings OPERATE on `system`.
 *
 * Subjects are stored canonical: `p:<principal id>` (Quiver's principal ids are the audit
 * subjects `api-key:<key id>`, `oauth-client:<client id>`, `external-token:<sub>`), `g:<group>`
 * from an identity provider's groups claim, and `r:<role>`. An `a:<API key>` subject is resolved
 * to its key's principal and never stored, logged or repeated; `P:` and `G:` names need a
 * directory Quiver does not have (501).
 */
import { CatalogError, invalidInput } from "../model/catalog-error.js";
import { type AuthzObject, formatObject, parseObject } from "../model/authz/objects.js";
import { parseGrantablePrivilege } from "../model/authz/privileges.js";
import { type Subject, type SubjectKind, describeSubject, formatSubject, parseSubject } from "../model/authz/subjects.js";
import { validateName } from "../model/names.js";
import type { AccessDirectory } from "./access-directory.js";
import type { AuthStore, StoredGrant, StoredRoleBinding } from "./auth-store.js";
import { verifyApiKey } from "./credentials.js";
import type { Principal } from "./principal.js";
import { roles as builtInRoles } from "./roles.js";

/** Most entries of one page, and the default. */
export const maxPageSize = 100;

/** Whether an object exists in the catalog (a view: a materialized view; a table: any table). */
export type ObjectExists = (object: AuthzObject) => Promise<boolean>;

export interface AclEntry {
  subject_id: string;
  object: string;
  privilege: string;
}

export interface RoleBindingEntry {
  subject_id: string;
  role: string;
}

export class AuthzAdmin {
  constructor(
    private readonly store: AuthStore,
    private readonly directory: AccessDirectory,
    private readonly objectExists: ObjectExists,
  ) {}

  async listAcls(caller: Principal, body: { object?: string; subject?: string; continuation_token?: string; max_results?: number }) {
    const object = body.object === undefined ? undefined : parseObject(body.object);
    if (object) await this.#requireObjectPrivilege(caller, "USAGE", object);
    else await this.#requireSystem(caller, "USAGE");
    const subject = body.subject === undefined ? undefined : await this.#canonical(parseSubject(body.subject), false);
    const limit = pageSize(body.max_results);
    const after = body.continuation_token === undefined ? undefined : grantKeyOf(body.continuation_token);
    const filter = { ...(object ? { object: formatObject(object) } : {}), ...(subject ? { subject } : {}) };
    const rows = await this.store.listGrants(filter, after, limit + 1);
    const page = rows.slice(0, limit);
    const entries: AclEntry[] = page.map((grant) => ({ subject_id: grant.subject, object: grant.object, privilege: grant.privilege }));
    return rows.length > limit ? { entries, continuation_token: tokenOf(page[page.length - 1]!) } : { entries };
  }

  async addAcl(caller: Principal, body: { subject: string; object: string; privilege: string }): Promise<void> {
    const grant = await this.#grantOf(caller, body);
    const added = await this.store.addGrant(grant, grant.privilege === "OWNERSHIP", { by: caller.subject, database: databaseOfObject(grant.object) });
    if (!added) throw invalidInput(`${grant.subject} already holds ${grant.privilege} on ${grant.object}`, { status: 409 });
  }

  async deleteAcl(caller: Principal, body: { subject: string; object: string; privilege: string }): Promise<void> {
    const grant = await this.#grantOf(caller, body);
    if (grant.privilege === "OWNERSHIP") throw invalidInput(`OWNERSHIP cannot be revoked: grant it to another subject to transfer it`);
    const deleted = await this.store.deleteGrant(grant, { by: caller.subject, database: databaseOfObject(grant.object) });
    if (!deleted) throw invalidInput(`${grant.subject} holds no grant of ${grant.privilege} on ${grant.object}`, { status: 404 });
  }

  async listRoleBindings(caller: Principal, body: { subject?: string; role?: string; continuation_token?: string; max_results?: number }) {
    await this.#requireSystem(caller, "USAGE");
    const subject = body.subject === undefined ? undefined : await this.#canonical(parseSubject(body.subject, memberKinds), false);
    if (body.role !== undefined) validateName(body.role, "role");
    const limit = pageSize(body.max_results);
    const after = body.continuation_token === undefined ? undefined : bindingKeyOf(body.continuation_token);
    const filter = { ...(subject ? { subject } : {}), ...(body.role !== undefined ? { role: body.role } : {}) };
    const rows = await this.store.listRoleBindings(filter, after, limit + 1);
    const page = rows.slice(0, limit);
    const bindings: RoleBindingEntry[] = page.map((binding) => ({ subject_id: binding.subject, role: binding.role }));
    return rows.length > limit ? { bindings, continuation_token: tokenOf(page[page.length - 1]!) } : { bindings };
  }

  /** Binds `role` to `subject`; binding again changes nothing. */
  async addRoleBinding(caller: Principal, body: { subject: string; role: string }): Promise<void> {
    const binding = await this.#bindingOf(caller, body);
    await this.store.addRoleBinding(binding, { by: caller.subject, database: "" });
  }

  /** Unbinds `role` from `subject`; unbinding what is not bound changes nothing. */
  async deleteRoleBinding(caller: Principal, body: { subject: string; role: string }): Promise<void> {
    const binding = await this.#bindingOf(caller, body);
    await this.store.deleteRoleBinding(binding, { by: caller.subject, database: "" });
  }

  async principal(caller: Principal, body: { principal: string }) {
    await this.#requireSystem(caller, "USAGE");
    const subject = await this.#canonical(parseSubject(body.principal, ["principal_id", "principal_name", "principal_api_key"]), true);
    const id = subject.slice(2);
    const roles = await this.#rolesOf([subject]);
    return { principal_id: id, principal_name: id, groups: [], roles };
  }

  async group(caller: Principal, body: { group: string }) {
    await this.#requireSystem(caller, "USAGE");
    const subject = await this.#canonical(parseSubject(body.group, ["group_id", "group_name"]), false);
    const roles = (await this.store.listRoleBindings({ subject }, undefined, 1000)).map((binding) => binding.role);
    return { group_id: subject.slice(2), group_name: subject.slice(2), principals: [], roles };
  }

  async #grantOf(caller: Principal, body: { subject: string; object: string; privilege: string }): Promise<StoredGrant> {
    const object = parseObject(body.object);
    const privilege = parseGrantablePrivilege(body.privilege, object.kind);
    const subject = await this.#canonical(parseSubject(body.subject), true);
    await this.#requireObjectPrivilege(caller, "OWNERSHIP", object);
    return { subject, object: formatObject(object), privilege };
  }

  async #bindingOf(caller: Principal, body: { subject: string; role: string }): Promise<StoredRoleBinding> {
    const subject = await this.#canonical(parseSubject(body.subject, memberKinds), true);
    const role = customRole(body.role);
    await this.#requireSystem(caller, "OPERATE");
    return { subject, role };
  }

  /** Roles bound to `subjects`, in name order. */
  async #rolesOf(subjects: string[]): Promise<string[]> {
    const held = new Set<string>();
    for (const subject of subjects) for (const binding of await this.store.listRoleBindings({ subject }, undefined, 1000)) held.add(binding.role);
    return [...held].sort();
  }

  /**
   * The canonical text of a subject: `a:` resolved to its key's principal, a role checked; with
   * `mustExist`, a principal of Quiver's own credentials must name one that exists.
   */
  async #canonical(subject: Subject, mustExist: boolean): Promise<string> {
    switch (subject.kind) {
      case "principal_api_key": {
        const key = await verifyApiKey(this.store, subject.value);
        if (!key) throw invalidInput("the API key subject names no live API key", { status: 404 });
        return `p:api-key:${key.id}`;
      }
      case "principal_name":
      case "group_name":
        throw CatalogError.of("Unsupported", `${describeSubject(subject)}: Quiver resolves no names; use the canonical id (p:, g:)`, { status: 501 });
      case "principal_id":
        if (mustExist) await this.#requirePrincipal(subject.value);
        return formatSubject(subject);
      case "role":
        customRole(subject.value);
        return formatSubject(subject);
      default:
        return formatSubject(subject);
    }
  }

  async #requirePrincipal(id: string): Promise<void> {
    const [kind, name] = [id.slice(0, id.indexOf(":")), id.slice(id.indexOf(":") + 1)];
    if (kind === "external-token" && name.length > 0) return;
    if (kind === "api-key" || kind === "oauth-client") {
      const found = await this.store.findCredential(kind, name);
      if (found) return;
      throw invalidInput(`principal 'p:${id}' does not exist`, { status: 404 });
    }
    throw invalidInput(`principal ids are api-key:<key id>, oauth-client:<client id> or external-token:<subject>`);
  }

  /** Throws unless `caller` holds `privilege` on `object`; an object it may not see, or that does not exist, is 404. */
  async #requireObjectPrivilege(caller: Principal, privilege: "USAGE" | "OWNERSHIP", object: AuthzObject): Promise<void> {
    const { grants } = await this.directory.accessOf(caller);
    const text = formatObject(object);
    if (object.kind !== "system" && (!grants.visible(object) || !(await this.objectExists(object)))) {
      throw invalidInput(`object '${text}' does not exist`, { status: 404 });
    }
    const held = privilege === "USAGE" && object.kind !== "system" ? grants.visible(object) : grants.holds(privilege, object);
    if (!held) throw CatalogError.of("PermissionDenied", `this needs ${privilege} on ${text}`);
  }

  async #requireSystem(caller: Principal, privilege: "USAGE" | "OPERATE"): Promise<void> {
    const { grants } = await this.directory.accessOf(caller);
    if (!grants.holds(privilege, { kind: "system" })) throw CatalogError.of("PermissionDenied", `this needs ${privilege} on system (a deployment-wide credential)`);
  }
}

/** Role-binding members: principals and groups, never roles. */
const memberKinds: readonly SubjectKind[] = ["principal_id", "principal_name", "group_id", "group_name", "principal_api_key"];

/** A role grants and bindings may name: the per-database key roles are not bound or granted to. */
function customRole(role: string): string {
  validateName(role, "role");
  if ((builtInRoles as readonly string[]).includes(role)) {
    throw invalidInput(`'${role}' is a credential role held per database; bind and grant to roles of your own naming`);
  }
  return role;
}

/** The database whose change events record a grant on `object`; `""` for `system`. */
function databaseOfObject(object: string): string {
  const parsed = parseObject(object);
  return parsed.kind === "system" ? "" : parsed.database;
}

function pageSize(requested: number | undefined): number {
  if (requested === undefined) return maxPageSize;
  if (!Number.isInteger(requested) || requested < 1 || requested > maxPageSize) throw invalidInput(`max_results must be an integer from 1 to ${maxPageSize}`);
  return requested;
}

function tokenOf(key: object): string {
  return Buffer.from(JSON.stringify(key)).toString("base64url");
}

function decodedToken(token: string): Record<string, unknown> {
  try {
    const value = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as unknown;
    if (typeof value === "object" && value !== null) return value as Record<string, unknown>;
  } catch {
    // Refused below.
  }
  throw invalidInput("continuation_token is not one this server issued");
}

function grantKeyOf(token: string): StoredGrant {
  const { subject, object, privilege } = decodedToken(token);
  if (typeof subject !== "string" || typeof object !== "string" || typeof privilege !== "string") throw invalidInput("continuation_token is not one this server issued");
  return { subject, object, privilege };
}

function bindingKeyOf(token: string): StoredRoleBinding {
  const { subject, role } = decodedToken(token);
  if (typeof subject !== "string" || typeof role !== "string") throw invalidInput("continuation_token is not one this server issued");
  return { subject, role };
}
