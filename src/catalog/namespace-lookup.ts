/**
 * @module Namespace lookups that many operations share: a namespace that must exist, and a
 * namespace name that must be free of tables (namespaces and tables share one name space).
 */
import type { StoreTx } from "../store/store.js";
import { CatalogError } from "../model/catalog-error.js";
import { namespaceLabel, namespaceKey } from "./identifiers.js";

export async function hasNamespace(tx: StoreTx, database: string, id: readonly string[]): Promise<boolean> {
  return id.length === 0 || (await tx.findNamespace(database, namespaceKey(id))) !== undefined;
}

/** Throws NamespaceNotFound (1) unless the namespace exists; the root always does. */
export async function requireNamespace(tx: StoreTx, database: string, id: readonly string[]): Promise<void> {
  if (!(await hasNamespace(tx, database, id))) {
    throw CatalogError.of("NamespaceNotFound", `${namespaceLabel(id)} does not exist`);
  }
}

/** Throws when a table of that name already sits beside the would-be namespace. */
export async function requireNoTableNamed(tx: StoreTx, database: string, namespace: readonly string[], name: string): Promise<void> {
  if (await tx.findTableByName(database, namespaceKey(namespace), name)) {
    throw CatalogError.of("NamespaceAlreadyExists", `a table named '${name}' already exists in ${namespaceLabel(namespace)}`);
  }
}
