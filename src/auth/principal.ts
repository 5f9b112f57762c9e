/**
 * @module Who is calling, once credentials are checked: a subject for logs and audit, and the
 * role it holds on each database.
 */
import type { Role } from "./roles.js";

export type PrincipalKind = "anonymous" | "api-key" | "oauth-client" | "external-token";

export interface Principal {
  kind: PrincipalKind;
  /** Stable, non-secret name for audit records, e.g. `api-key:qk_1f2e...`. */
  subject: string;
  /** Role per database name. */
  grants: ReadonlyMap<string, Role>;
  /** Role on every database (deployment-wide credentials and auth mode `none`). */
  everyDatabase?: Role;
}

/** The role `principal` holds on `database`, if any. */
export function roleOn(principal: Principal, database: string): Role | undefined {
  return principal.grants.get(database) ?? principal.everyDatabase;
}

/** The one database a principal is confined to, used when a request names none. */
export function homeDatabase(principal: Principal): string | undefined {
  if (principal.everyDatabase !== undefined || principal.grants.size !== 1) return undefined;
  return [...principal.grants.keys()][0];
}

/** A principal scoped to one database, or to all with `database === null`. */
export function scopedPrincipal(kind: PrincipalKind, subject: string, database: string | null, role: Role): Principal {
  if (database === null) return { kind, subject, grants: new Map(), everyDatabase: role };
  return { kind, subject, grants: new Map([[database, role]]) };
}

/** Auth mode `none`: every caller is admin of every database. */
export const anonymousPrincipal: Principal = { kind: "anonymous", subject: "anonymous", grants: new Map(), everyDatabase: "admin" };
