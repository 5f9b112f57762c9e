/**
 * @module Who is calling, once credentials are checked: a subject for logs, audit and grants, the
 * role it holds on each database, and the groups its identity provider names.
 */
import type { CredentialRole, Role } from "./roles.js";

export type PrincipalKind = "anonymous" | "api-key" | "oauth-client" | "external-token";

export interface Principal {
  kind: PrincipalKind;
  /**
   * Stable, non-secret name for audit records, e.g. `api-key:qk_1f2e...`; also the principal's id
   * in grants (`p:api-key:qk_1f2e...`).
   */
  subject: string;
  /** Role per database name. */
  grants: ReadonlyMap<string, Role>;
  /** Role on every database (deployment-wide credentials and auth mode `none`). */
  everyDatabase?: Role;
  /** The database of a credential that holds no role on it (role `none`): where its requests go. */
  home?: string;
  /** Groups the identity provider puts the caller in (an external token's groups claim). */
  groups?: readonly string[];
}

/** The role `principal` holds on `database`, if any. */
export function roleOn(principal: Principal, database: string): Role | undefined {
  return principal.grants.get(database) ?? principal.everyDatabase;
}

/** The one database a principal is confined to, used when a request names none. */
export function homeDatabase(principal: Principal): string | undefined {
  if (principal.home !== undefined) return principal.home;
  if (principal.everyDatabase !== undefined || principal.grants.size !== 1) return undefined;
  return [...principal.grants.keys()][0];
}

/** A principal scoped to one database, or to all with `database === null`. */
export function scopedPrincipal(kind: PrincipalKind, subject: string, database: string | null, role: CredentialRole): Principal {
  if (role === "none") return database === null ? { kind, subject, grants: new Map() } : { kind, subject, grants: new Map(), home: database };
  if (database === null) return { kind, subject, grants: new Map(), everyDatabase: role };
  return { kind, subject, grants: new Map([[database, role]]) };
}

/** Auth mode `none`: every caller is admin of every database. */
export const anonymousPrincipal: Principal = { kind: "anonymous", subject: "anonymous", grants: new Map(), everyDatabase: "admin" };
