/**
 * @module The privileges of LanceDB's authorization API, and on which objects each may be
 * granted. The names are the wire's, case-sensitive.
 *
 * `validOn` is LanceDB's table of privileges per object kind. Quiver adds one rule (as Apache
 * Polaris does): a privilege granted on a container also holds on everything below it of a kind
 * it is valid on, so `grantableOn` a container is its own privileges plus those of every kind
 * beneath it (SELECT on a namespace covers its tables and views; CREATE_TABLE on a database
 * covers its namespaces). OWNERSHIP of `system` is never granted: only the deployment-wide
 * admin role holds it (`role-grants.ts`).
 */
import { echoed, invalidInput } from "../catalog-error.js";
import type { ObjectKind } from "./objects.js";

export const privileges = [
  "OWNERSHIP",
  "USAGE",
  "SELECT",
  "INSERT",
  "UPDATE",
  "DELETE",
  "CREATE_DATABASE",
  "CREATE_NAMESPACE",
  "CREATE_TABLE",
  "CREATE_MATERIALIZED_VIEW",
  "CREATE_VIEW",
  "OPERATE",
] as const;
export type Privilege = (typeof privileges)[number];

/** The privileges that mean something on an object of each kind itself (LanceDB's table). */
export const validOn: Readonly<Record<ObjectKind, readonly Privilege[]>> = {
  system: ["OPERATE", "CREATE_DATABASE", "USAGE"],
  database: ["OWNERSHIP", "USAGE", "CREATE_NAMESPACE"],
  namespace: ["OWNERSHIP", "USAGE", "CREATE_NAMESPACE", "CREATE_TABLE", "CREATE_MATERIALIZED_VIEW", "CREATE_VIEW"],
  table: ["OWNERSHIP", "SELECT", "INSERT", "UPDATE", "DELETE"],
  view: ["OWNERSHIP", "SELECT"],
};

/** The kinds an object of each kind may contain, at any depth. */
const kindsBelow: Readonly<Record<ObjectKind, readonly ObjectKind[]>> = {
  system: ["database", "namespace", "table", "view"],
  database: ["namespace", "table", "view"],
  namespace: ["namespace", "table", "view"],
  table: [],
  view: [],
};

/** The privileges that may be granted on an object of each kind: its own and those of the kinds below it. */
export const grantableOn: Readonly<Record<ObjectKind, readonly Privilege[]>> = {
  system: grantable("system"),
  database: grantable("database"),
  namespace: grantable("namespace"),
  table: grantable("table"),
  view: grantable("view"),
};

function grantable(kind: ObjectKind): Privilege[] {
  const held = new Set([...validOn[kind], ...kindsBelow[kind].flatMap((inner) => validOn[inner])]);
  if (kind === "system") held.delete("OWNERSHIP");
  return privileges.filter((privilege) => held.has(privilege));
}

export function isPrivilege(value: unknown): value is Privilege {
  return typeof value === "string" && (privileges as readonly string[]).includes(value);
}

/** Parses a privilege's name; throws 13 for anything but one of the twelve, spelled exactly. */
export function parsePrivilege(text: string): Privilege {
  if (isPrivilege(text)) return text;
  throw invalidInput(`privilege ${echoed(text)} is not known: it must be one of ${privileges.join(", ")} (upper case)`);
}

/** Parses a privilege to grant on an object of `kind`; throws 13 when unknown or not grantable there. */
export function parseGrantablePrivilege(text: string, kind: ObjectKind): Privilege {
  const privilege = parsePrivilege(text);
  if (!grantableOn[kind].includes(privilege)) {
    const why = kind === "system" && privilege === "OWNERSHIP" ? "system has no owner to grant" : `it may be granted on ${kind} objects: ${grantableOn[kind].join(", ")}`;
    throw invalidInput(`privilege ${privilege} cannot be granted on ${article(kind)} ${kind}: ${why}`);
  }
  return privilege;
}

function article(kind: ObjectKind): string {
  return kind === "system" ? "the" : "a";
}
