/**
 * @module Names and identifiers (service description: "Namespace paths and names"; spec/concepts.md §1).
 * A list identifier is namespace parts followed by an object name; the store keys namespaces by
 * their parts joined with "/", which no valid name contains.
 */
import { invalidInput } from "../model/catalog-error.js";

const namePattern = /^[A-Za-z0-9_.-]+$/;
/** Longest name of one part of an identifier (a namespace, a table, a database). */
export const maxNameLength = 256;
/**
 * Longest identifier, its parts joined by their delimiter. Deep namespaces of short names fit
 * (over a thousand levels), and a path carrying it stays far inside the 16 KiB request head.
 */
export const maxIdentifierLength = 4096;

/** Refuses a name that is empty, too long, has other characters, or is `.`/`..`. */
export function validateName(name: string, what: string): void {
  if (name.length === 0) throw invalidInput(`${what} name must not be empty`);
  if (name.length > maxNameLength) throw invalidInput(`${what} name is longer than ${maxNameLength} characters`);
  if (!namePattern.test(name)) {
    throw invalidInput(`${what} name '${name}' may contain only letters, digits, '_', '-' and '.'`);
  }
  if (name === "." || name === "..") throw invalidInput(`${what} name '${name}' is reserved`);
}

/** Refuses an identifier whose parts, joined, are longer than `maxIdentifierLength`. */
export function validateIdentifierLength(id: readonly string[]): void {
  const length = id.reduce((sum, part) => sum + part.length, Math.max(id.length - 1, 0));
  if (length > maxIdentifierLength) throw invalidInput(`identifier is ${length} characters long; at most ${maxIdentifierLength} are allowed`);
}

/** Validates every part of a namespace id; `[]` is the root. */
export function validateNamespaceId(id: readonly string[]): void {
  validateIdentifierLength(id);
  for (const part of id) validateName(part, "namespace");
}

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
