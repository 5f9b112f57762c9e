/**
 * @module The grants that stand for today's roles (docs/auth.md, "Roles"), so that a role keeps
 * exactly its meaning once privileges are checked. A role on one database becomes grants on
 * that database, which hold on everything inside it; a deployment-wide role becomes the same
 * grants on `system`, which hold on every database.
 *
 * - read: USAGE (reach every database, namespace and table) and SELECT (read every table and view).
 * - write: read's, plus the row writes and the creations inside a database. Creating databases
 *   stays with the deployment-wide admin, as today.
 * - admin: OWNERSHIP of the database, which holds every privilege on it and on all it contains;
 *   deployment-wide, OWNERSHIP and OPERATE on `system`.
 */
import type { Access } from "../operations/operation-entry.js";
import { type AuthzObject, systemObject } from "./objects.js";
import type { Privilege } from "./privileges.js";

/** A privilege on an object, held by whoever the grant is for. */
export interface Grant {
  privilege: Privilege;
  object: AuthzObject;
}

const readPrivileges: readonly Privilege[] = ["USAGE", "SELECT"];
const writePrivileges: readonly Privilege[] = [
  ...readPrivileges,
  "INSERT",
  "UPDATE",
  "DELETE",
  "CREATE_NAMESPACE",
  "CREATE_TABLE",
  "CREATE_VIEW",
  "CREATE_MATERIALIZED_VIEW",
];

/** The privileges each role holds on the object it is given on (a database, or `system` when deployment-wide). */
const rolePrivileges: Readonly<Record<Access, { database: readonly Privilege[]; deployment: readonly Privilege[] }>> = {
  read: { database: readPrivileges, deployment: readPrivileges },
  write: { database: writePrivileges, deployment: writePrivileges },
  admin: { database: ["OWNERSHIP"], deployment: ["OWNERSHIP", "OPERATE"] },
};

/** The grants of `role` on `database`, or on every database when `database` is `null`. */
export function roleGrants(database: string | null, role: Access): Grant[] {
  const object: AuthzObject = database === null ? systemObject : { kind: "database", database };
  const held = database === null ? rolePrivileges[role].deployment : rolePrivileges[role].database;
  return held.map((privilege) => ({ privilege, object }));
}
