/**
 * @module Roles per database (docs/auth.md). Each role includes the ones below it:
 * read < write < admin. An operation declares the least role that may call it.
 */
import { invalidInput } from "../model/catalog-error.js";
import { type Access, accessAllows, accessLevels } from "../model/operations/operation-entry.js";

/** The roles are the operation table's access levels: a role may call what asks for it or less. */
export const roles = accessLevels;
export type Role = Access;

/** Whether `held` is at least `needed`. */
export const roleAllows: (held: Role | undefined, needed: Role) => boolean = accessAllows;

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (roles as readonly string[]).includes(value);
}

/**
 * A credential's role: one of the roles, or `none`, which holds nothing on its database until
 * privileges are granted to it (docs/auth.md, "Authorization").
 */
export const credentialRoles = [...roles, "none"] as const;
export type CredentialRole = (typeof credentialRoles)[number];

export function isCredentialRole(value: unknown): value is CredentialRole {
  return typeof value === "string" && (credentialRoles as readonly string[]).includes(value);
}

/** Parses a credential's role given by an operator or an admin; throws 13 for anything else. */
export function parseCredentialRole(value: unknown): CredentialRole {
  const text = typeof value === "string" ? value.trim().toLowerCase() : value;
  if (!isCredentialRole(text)) throw invalidInput(`role must be one of ${credentialRoles.join(", ")}; got ${JSON.stringify(value)}`);
  return text;
}
