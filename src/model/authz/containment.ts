/**
 * @module Where an object sits: the chain of objects that contain it, innermost first. A check
 * walks this chain to find privileges granted above an object (a table privilege granted on a
 * namespace or a database covers every table below it, ownership covers everything below) and
 * to find the containers whose USAGE is needed to reach it.
 *
 * As in LanceDB, the root namespace (`public`) holds root-level tables and views only: top-level
 * namespaces sit directly in their database, beside it.
 */
import { type AuthzObject, type ContainerObject, type NamespaceObject, systemObject } from "./objects.js";

/** The objects containing `object`, innermost first, ending with `system` (empty for `system`). */
export function containment(object: AuthzObject): AuthzObject[] {
  if (object.kind === "system") return [];
  if (object.kind === "database") return [systemObject];
  const database = { kind: "database", database: object.database } as const;
  const namespaces = object.kind === "namespace" ? enclosingNamespaces(object) : namespacesOf(object.database, object.namespace);
  return [...namespaces, database, systemObject];
}

/** The containers whose USAGE reaching `object` needs: its namespaces and its database, innermost first. */
export function containersAbove(object: AuthzObject): ContainerObject[] {
  return containment(object).filter((above): above is ContainerObject => above.kind === "database" || above.kind === "namespace");
}

/** A namespace's enclosing namespaces, innermost first; the root and top-level namespaces have none. */
function enclosingNamespaces(object: NamespaceObject): NamespaceObject[] {
  return object.namespace.length <= 1 ? [] : namespacesOf(object.database, object.namespace.slice(0, -1));
}

/** `namespace` and each namespace enclosing it, innermost first (`[]`: the root namespace alone). */
function namespacesOf(database: string, namespace: readonly string[]): NamespaceObject[] {
  if (namespace.length === 0) return [{ kind: "namespace", database, namespace: [] }];
  return namespace.map((_, index) => ({ kind: "namespace" as const, database, namespace: namespace.slice(0, namespace.length - index) }));
}
