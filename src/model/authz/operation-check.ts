/**
 * @module The one check of an operation against a caller's grants, from the operation's declared
 * need (`PrivilegeNeed` in the operation table) and the object its request names. An object the
 * caller may not see is answered exactly as a missing one: a namespace it cannot reach is
 * NamespaceNotFound (1), a table it holds nothing on TableNotFound (4), with the catalog's own
 * messages. One it may see but lacks the privilege on is PermissionDenied (15).
 */
import { CatalogError } from "../catalog-error.js";
import type { PrivilegeNeed, Target } from "../operations/operation-entry.js";
import type { EffectiveGrants } from "./effective-grants.js";
import type { AuthzObject, NamespaceObject, TableObject } from "./objects.js";
import { formatObject, hasObjectText } from "./objects.js";
import type { Privilege } from "./privileges.js";

/** Throws unless `grants` allow the operation on the object `id` names in `database`. */
export function checkOperation(grants: EffectiveGrants, need: PrivilegeNeed, target: Target, database: string, id: readonly string[]): void {
  const databaseObject: AuthzObject = { kind: "database", database };
  // An object named by the body, or a name with no object of its own, is judged on the database:
  // only what is granted on the whole database covers it. Seeing anything there takes SELECT.
  const onDatabase: PrivilegeNeed = need.needs === "visible" ? { ...need, needs: "SELECT" } : need;
  if (need.on === "database" || target === "none") return requirePrivileges(grants, onDatabase, databaseObject, `database '${database}'`);
  const named = target === "table" ? tableOf(database, id) : namespaceOf(database, id);
  if (named === undefined) return requirePrivileges(grants, onDatabase, databaseObject, `database '${database}'`);
  if (named.kind === "table") {
    requireVisibleNamespace(grants, { kind: "namespace", database, namespace: named.namespace });
    if (need.on === "parent") return requirePrivileges(grants, need, { kind: "namespace", database, namespace: named.namespace }, namespaceName(named.namespace));
    if (!tableVisible(grants, named)) throw CatalogError.of("TableNotFound", `table '${id.join("$")}' does not exist`);
    return requirePrivileges(grants, need, named, `table '${id.join("$")}'`, viewOf(named));
  }
  if (need.on === "parent" && named.namespace.length > 0) {
    const parent: NamespaceObject = { kind: "namespace", database, namespace: named.namespace.slice(0, -1) };
    requireVisibleNamespace(grants, parent);
    return requirePrivileges(grants, need, parent, namespaceName(parent.namespace));
  }
  requireVisibleNamespace(grants, named);
  return requirePrivileges(grants, need, named, namespaceName(named.namespace));
}

/** Whether the caller may know the table exists: as a table, or as a view of the same name. */
export function tableVisible(grants: EffectiveGrants, table: TableObject): boolean {
  return grants.visible(table) || grants.visible(viewOf(table));
}

function requireVisibleNamespace(grants: EffectiveGrants, namespace: NamespaceObject): void {
  // Namespaces are reached from the outside in: the outermost the caller cannot see is the one
  // a lookup would find missing.
  for (let depth = 1; depth <= namespace.namespace.length; depth += 1) {
    const outer: NamespaceObject = { ...namespace, namespace: namespace.namespace.slice(0, depth) };
    if (!grants.visible(outer)) throw CatalogError.of("NamespaceNotFound", `${namespaceName(outer.namespace)} does not exist`);
  }
  if (namespace.namespace.length === 0 && !grants.visible(namespace)) throw CatalogError.of("NamespaceNotFound", "the root namespace does not exist");
}

function requirePrivileges(grants: EffectiveGrants, need: PrivilegeNeed, object: AuthzObject, label: string, alias?: AuthzObject): void {
  const needed: readonly Privilege[] = need.needs === "visible" ? [] : typeof need.needs === "string" ? [need.needs] : need.needs;
  const missing = needed.filter((privilege) => !grants.allows(privilege, object) && !(alias && grants.allows(privilege, alias)));
  if (missing.length > 0) {
    throw CatalogError.of("PermissionDenied", `this operation needs ${missing.join(" and ")} on ${label} (${formatObject(object)})`);
  }
}

/** The table object `id` names, or undefined when it has no authorization object (see objects.ts). */
function tableOf(database: string, id: readonly string[]): TableObject | undefined {
  if (id.length === 0) return undefined;
  const table: TableObject = { kind: "table", database, namespace: id.slice(0, -1), name: id[id.length - 1] as string };
  return hasObjectText(table) ? table : undefined;
}

function namespaceOf(database: string, id: readonly string[]): NamespaceObject | undefined {
  const namespace: NamespaceObject = { kind: "namespace", database, namespace: [...id] };
  return hasObjectText(namespace) ? namespace : undefined;
}

function viewOf(table: TableObject): AuthzObject {
  return { ...table, kind: "view" };
}

function namespaceName(namespace: readonly string[]): string {
  return namespace.length === 0 ? "the root namespace" : `namespace '${namespace.join("$")}'`;
}
