/**
 * @module The rules a name of one part of an identifier follows (a database, a namespace part, a
 * table, a view). They sit in `model` so that every layer checks names alike: the catalog for
 * its identifiers (`catalog/identifiers.ts`), the authorization model for the names inside an
 * object (`model/authz/objects.ts`).
 */
import { invalidInput } from "./catalog-error.js";

export const namePattern = /^[A-Za-z0-9_.-]+$/;
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
