/**
 * @module Names and identifiers (service description: "Namespace paths and names"; spec/concepts.md §1).
 * A list identifier is namespace parts followed by an object name; the store keys namespaces by
 * their parts joined with "/", which no valid name contains. The name rules themselves are in
 * `model/names.ts`, which the authorization model shares.
 */
import { invalidInput } from "../model/catalog-error.js";
import { maxNameLength, namePattern, validateIdentifierLength, validateName, validateNamespaceId } from "../model/names.js";

export { maxIdentifierLength, maxNameLength, validateIdentifierLength, validateName, validateNamespaceId } from "../model/names.js";

/** Splits a table id into its namespace and name, validating both. */
export function splitTableId(id: readonly string[]): { namespace: string[]; name: string } {
  if (id.length === 0) throw invalidInput("a table identifier needs at least a table name");
  const namespace = id.slice(0, -1);
  const name = id[id.length - 1] as string;
  validateIdentifierLength(id);
  validateNamespaceId(namespace);
  validateName(name, "table");
  return { namespace, name };
}

/** Store key of a namespace: parts joined with "/"; the root is "". */
export function namespaceKey(id: readonly string[]): string {
  return id.join("/");
}

export function namespaceIdOfKey(key: string): string[] {
  return key === "" ? [] : key.split("/");
}

/** How a namespace is named in messages. */
export function namespaceLabel(id: readonly string[]): string {
  return id.length === 0 ? "the root namespace" : `namespace '${id.join("$")}'`;
}

/** How a table is named in messages. */
export function tableLabel(id: readonly string[]): string {
  return `table '${id.join("$")}'`;
}

/** The rules a name follows, for documents that describe them (the capability document). */
export const nameRules = { maxLength: maxNameLength, pattern: namePattern.source } as const;
