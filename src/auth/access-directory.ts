/**
 * @module What each caller holds, from its roles on databases and the grants and role bindings
 * in the store. Every process keeps all grants and bindings in memory, indexed by subject, so a
 * check reads no store. A change made by a server (a store notice) drops the index at once, and
 * the next request loads it again. A change no notice told of (`quiver grants` beside a SQLite
 * server, a notice lost with its connection) is found by the store's count of changes, which is
 * read at most every `versionCheckMs`, beside the requests rather than in their way.
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

/** Longest an index is used without asking the store whether grants changed. */
const versionCheckMs = 500;

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

  /** When the store's count of changes was last seen to equal `version`. */
  checkedAt: number;

  constructor(
    grants: readonly StoredGrant[],
    bindings: readonly StoredRoleBinding[],
    readonly version: number,
  ) {
    this.checkedAt = Date.now();
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
    if (!index) return this.#load();
    if (Date.now() - index.checkedAt >= versionCheckMs) {
      index.checkedAt = Date.now();
      void this.#checkVersion(index);
    }
    return index;
  }

  /** Drops `index` when the store counted changes it does not hold; a failed look waits for the next. */
  async #checkVersion(index: AuthzIndex): Promise<void> {
    try {
      if ((await this.store.authzVersion()) !== index.version && this.#index === index) {
        this.#index = undefined;
        this.#loading = undefined;
      }
    } catch {
      // The store is away: the grants held stay in force until it answers again.
    }
  }

  #load(): Promise<AuthzIndex> {
    if (!this.#loading) {
      const generation = this.#generation;
      const loading = this.store.loadAuthz().then(({ version, grants, bindings }) => {
        const loaded = new AuthzIndex(grants, bindings, version);
        if (this.#generation === generation) this.#index = loaded;
        return loaded;
      });
      this.#loading = loading;
      const settled = () => {
        if (this.#loading === loading) this.#loading = undefined;
      };
      loading.then(settled, settled);
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
