/**
 * @module Roles per database (docs/auth.md). Each role includes the ones below it:
 * read < write < admin. An operation declares the least role that may call it.
 */
import { invalidInput } from "../model/catalog-error.js";

export const roles = ["read", "write", "admin"] as const;
export type Role = (typeof roles)[number];

const rank: Record<Role, number> = { read: 1, write: 2, admin: 3 };

/** Whether `held` is at least `needed`. */
export function roleAllows(held: Role | undefined, needed: Role): boolean {
  return held !== undefined && rank[held] >= rank[needed];
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (roles as readonly string[]).includes(value);
}

/** Parses a role given by an operator or an admin; throws 13 for anything else. */
export function parseRole(value: unknown): Role {
  const text = typeof value === "string" ? value.trim().toLowerCase() : value;
  if (!isRole(text)) throw invalidInput(`role must be one of ${roles.join(", ")}; got ${JSON.stringify(value)}`);
  return text;
}
