/**
 * @module A materialized view refreshes with its owner's privileges: a refresh reads the source
 * only while the view's owner (the subject holding OWNERSHIP of it) may select from the source.
 * An owner that is a credential is judged as that credential would be now (a revoked one reads
 * nothing); an external token's subject by its grants alone (its roles and groups come with its
 * tokens, which a background job does not have). A view with no recorded owner (made without
 * authentication) and an owner that is a group or a role are not judged: whoever may grant on the
 * view's namespace answers for it.
 */
import type { OwnerMayRead } from "../model/authz/owner-may-read.js";
import type { AccessDirectory } from "./access-directory.js";
import type { AuthStore } from "./auth-store.js";
import { type Principal, scopedPrincipal } from "./principal.js";
import { isCredentialRole } from "./roles.js";
import { type AuthzObject, type TableObject, formatObject, hasObjectText } from "../model/authz/objects.js";

export function viewOwnerReads(store: AuthStore, directory: AccessDirectory): OwnerMayRead {
  return async (database, view, source) => {
    const viewTable = tableObject(database, view);
    const sourceTable = tableObject(database, source);
    if (!hasObjectText(viewTable) || !hasObjectText(sourceTable)) return true;
    const owners = [];
    for (const object of [viewTable, { ...viewTable, kind: "view" } as AuthzObject]) {
      const granted = await store.listGrants({ object: formatObject(object) }, undefined, 100);
      owners.push(...granted.filter((grant) => grant.privilege === "OWNERSHIP").map((grant) => grant.subject));
    }
    const owner = owners.find((subject) => subject.startsWith("p:"));
    if (owner === undefined) return true;
    const principal = await principalOf(store, owner.slice(2));
    if (!principal) return false;
    const { grants } = await directory.accessOf(principal);
    return grants.allows("SELECT", sourceTable) || grants.allows("SELECT", { ...sourceTable, kind: "view" });
  };
}

function tableObject(database: string, id: readonly string[]): TableObject {
  return { kind: "table", database, namespace: id.slice(0, -1), name: id[id.length - 1] ?? "" };
}

/** The principal a `p:` id names as it stands now; undefined for a credential gone or revoked. */
async function principalOf(store: AuthStore, id: string): Promise<Principal | undefined> {
  const colon = id.indexOf(":");
  const kind = id.slice(0, colon);
  const name = id.slice(colon + 1);
  if (kind === "external-token") return { kind: "external-token", subject: id, grants: new Map() };
  if (kind !== "api-key" && kind !== "oauth-client") return undefined;
  const credential = await store.findCredential(kind, name);
  if (!credential || credential.revokedAt !== null || !isCredentialRole(credential.role)) return undefined;
  return scopedPrincipal(kind, id, credential.database, credential.role);
}
