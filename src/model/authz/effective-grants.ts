/**
 * @module What a caller may do, given every grant it holds (its own, its groups' and its roles',
 * already gathered). A privilege P on an object O is held when P or OWNERSHIP is granted on O or
 * on any object containing O: a privilege granted on a container holds on everything below it,
 * and an owner holds every privilege on what it owns. O is reachable when USAGE is held on each
 * database and namespace containing it.
 *
 * Grants are indexed by their object's text, so a check costs one map lookup per object on the
 * way up from O (a table three namespaces deep: six), whatever the number of grants.
 */
import { containersAbove, containment } from "./containment.js";
import { type AuthzObject, formatObject } from "./objects.js";
import { type Privilege, validOn } from "./privileges.js";
import type { Grant } from "./role-grants.js";

export class EffectiveGrants {
  readonly #byObject = new Map<string, Set<Privilege>>();

  constructor(grants: Iterable<Grant>) {
    for (const { privilege, object } of grants) {
      const key = formatObject(object);
      const held = this.#byObject.get(key);
      if (held) held.add(privilege);
      else this.#byObject.set(key, new Set([privilege]));
    }
  }

  /** Whether `privilege` on `object` is held: on it or above it, directly or through OWNERSHIP. */
  holds(privilege: Privilege, object: AuthzObject): boolean {
    return this.#heldAtOrAbove(object, (held) => held.has(privilege) || held.has("OWNERSHIP"));
  }

  /** Whether USAGE is held on every database and namespace containing `object`. */
  reachable(object: AuthzObject): boolean {
    return containersAbove(object).every((container) => this.holds("USAGE", container));
  }

  /**
   * Whether the caller may know `object` exists: it can be reached and, for a table or view, some
   * privilege of its own is held on it (USAGE on its namespace alone shows it to no one); for a
   * database or namespace, USAGE on it.
   */
  visible(object: AuthzObject): boolean {
    if (!this.reachable(object)) return false;
    if (object.kind === "table" || object.kind === "view") return validOn[object.kind].some((privilege) => this.holds(privilege, object));
    return object.kind === "system" || this.holds("USAGE", object);
  }

  /** Whether `privilege` on `object` is held and `object` can be reached: what an operation needs. */
  allows(privilege: Privilege, object: AuthzObject): boolean {
    return this.holds(privilege, object) && this.reachable(object);
  }

  #heldAtOrAbove(object: AuthzObject, test: (held: ReadonlySet<Privilege>) => boolean): boolean {
    for (const each of [object, ...containment(object)]) {
      const held = this.#byObject.get(formatObject(each));
      if (held && test(held)) return true;
    }
    return false;
  }
}
