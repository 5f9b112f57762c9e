/**
 * @module What each caller holds, from its roles on databases and the grants and role bindings
 * in the store. Every process keeps all grants and bindings in memory, indexed by subject, so a
 * check reads no store; a change in any process (a store notice) drops the index, and the next
 * request loads it again. Notices can be missed while a connection is replaced (then `*` is
 * heard) but never silently, and the index also expires after `maxIndexAgeMs` in any case.
 *
 * A principal holds: the grants standing for its roles (role-grants.ts), the grants to
 * `p:<its subject>`, to `g:<each of its groups>`, and to `r:<each role bound to any of those>`.
 */
import { EffectiveGrants } from "../model/authz/effective-grants.js";
import { type AuthzObject, parseObject } from "../model/authz/objects.js";
import { isPrivilege } from "../model/authz/privileges.js";
import { type Grant, roleGrants } from "../model/authz/role-grants.js";
import type { AuthStore, StoredGrant, StoredRoleBinding } from "./auth-store.js";
import type { Principal } from "./principal.js";

/** Longest an index is used without a reload, in case a notice was missed unnoticed. */
const maxIndexAgeMs = 30_000;

/** What a principal holds, and the canonical subjects it holds it as. */
export interface PrincipalAccess {
  grants: EffectiveGrants;
  /** Roles bound to the principal or its groups. */
  roles: readonly string[];
}

/** The canonical subject of a principal in grants. */
export function principalSubject(principal: Principal): string {
  return `p:${principal.subject}`;
}

/** The subjects a principal holds grants and roles as, before its roles: itself and its groups. */
function identitySubjects(principal: Principal): string[] {
  return [principalSubject(principal), ...(principal.groups ?? []).map((group) => `g:${group}`)];
}

/** Grants and bindings of one load, by subject. */
class AuthzIndex {
  readonly grantsBySubject = new Map<string, Grant[]>();
  readonly rolesBySubject = new Map<string, string[]>();
  /** Each principal's access, made once per index: the index is replaced when anything changes. */
  readonly accessByKey = new Map<string, PrincipalAccess>();

  constructor(
    grants: readonly StoredGrant[],
    bindings: readonly StoredRoleBinding[],
    readonly loadedAt: number,
  ) {
    for (const { subject, object, privilege } of grants) {
      const parsed = parsedGrant(object, privilege);
      if (!parsed) continue;
      const held = this.grantsBySubject.get(subject);
      if (held) held.push(parsed);
      else this.grantsBySubject.set(subject, [parsed]);
    }
    for (const { subject, role } of bindings) {
      const held = this.rolesBySubject.get(subject);
      if (held) held.push(role);
      else this.rolesBySubject.set(subject, [role]);
    }
  }
}

/** A stored grant as the model holds it; a grant this build cannot read holds nothing. */
function parsedGrant(object: string, privilege: string): Grant | undefined {
  if (!isPrivilege(privilege)) return undefined;
  let parsed: AuthzObject;
  try {
    parsed = parseObject(object);
  } catch {
    return undefined;
  }
  return { privilege, object: parsed };
}

export class AccessDirectory {
  #index: AuthzIndex | undefined;
  #loading: Promise<AuthzIndex> | undefined;
  /** Bumped by every notice, so a load that began before one is not kept. */
  #generation = 0;
  readonly #unsubscribe: () => void;

  constructor(private readonly store: AuthStore) {
    this.#unsubscribe = store.onAuthzChange(() => {
      this.#generation += 1;
      this.#index = undefined;
      this.#loading = undefined;
    });
  }

  /** What `principal` holds now. */
  async accessOf(principal: Principal): Promise<PrincipalAccess> {
    const index = await this.#current();
    const key = `${principal.subject}\n${(principal.groups ?? []).join("\n")}\n${[...principal.grants].join(";")}\n${principal.everyDatabase ?? ""}`;
    let access = index.accessByKey.get(key);
    if (!access) index.accessByKey.set(key, (access = accessIn(index, principal)));
    return access;
  }

  close(): void {
    this.#unsubscribe();
  }

  async #current(): Promise<AuthzIndex> {
    const index = this.#index;
    if (index && Date.now() - index.loadedAt < maxIndexAgeMs) return index;
    if (!this.#loading) {
      const generation = this.#generation;
      const loading = this.store.loadAuthz().then(({ grants, bindings }) => {
        const loaded = new AuthzIndex(grants, bindings, Date.now());
        if (this.#generation === generation) this.#index = loaded;
        return loaded;
      });
      this.#loading = loading;
      loading.then(
        () => {
          if (this.#loading === loading) this.#loading = undefined;
        },
        () => {
          if (this.#loading === loading) this.#loading = undefined;
        },
      );
    }
    return this.#loading;
  }
}

function accessIn(index: AuthzIndex, principal: Principal): PrincipalAccess {
  const identities = identitySubjects(principal);
  const roles = [...new Set(identities.flatMap((subject) => index.rolesBySubject.get(subject) ?? []))];
  const subjects = [...identities, ...roles.map((role) => `r:${role}`)];
  const held: Grant[] = subjects.flatMap((subject) => index.grantsBySubject.get(subject) ?? []);
  if (principal.everyDatabase !== undefined) held.push(...roleGrants(null, principal.everyDatabase));
  for (const [database, role] of principal.grants) held.push(...roleGrants(database, role));
  return { grants: new EffectiveGrants(held), roles };
}
