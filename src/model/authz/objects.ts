/**
 * @module The objects privileges are held on, in the grammar of LanceDB's authorization API:
 * `system`, `database:DB`, `namespace:DB:NS1$NS2`, `table:DB:NS…$TABLE`, `view:DB:NS…$VIEW`.
 * `:` separates fields and `$` namespace parts; Quiver's name rules (`model/names.ts`) admit
 * neither, so no escaping is needed and every name is checked as Quiver checks it elsewhere.
 *
 * Namespaces are held as Quiver's namespace ids. LanceDB names the home of root-level tables
 * `public` and gives it no children, so the root namespace `[]` is written `public`
 * (`table:DB:public$events` is the table `events` at the root), and a path that starts with
 * `public` and goes on is refused. A top-level namespace really named `public` therefore has no
 * object of its own: `formatObject` refuses it rather than let it alias the root.
 */
import { invalidInput } from "../catalog-error.js";
import { validateIdentifierLength, validateName } from "../names.js";

export const objectKinds = ["system", "database", "namespace", "table", "view"] as const;
export type ObjectKind = (typeof objectKinds)[number];

/** How LanceDB's clients name the root namespace, the home of root-level tables. */
export const rootNamespaceName = "public";

export type SystemObject = { kind: "system" };
export type DatabaseObject = { kind: "database"; database: string };
/** `namespace: []` is the root namespace, written `public`. */
export type NamespaceObject = { kind: "namespace"; database: string; namespace: readonly string[] };
export type TableObject = { kind: "table"; database: string; namespace: readonly string[]; name: string };
export type ViewObject = { kind: "view"; database: string; namespace: readonly string[]; name: string };
export type AuthzObject = SystemObject | DatabaseObject | NamespaceObject | TableObject | ViewObject;
/** Objects that hold other objects: reaching what is inside needs USAGE on each. */
export type ContainerObject = DatabaseObject | NamespaceObject;

export const systemObject: SystemObject = { kind: "system" };

/** The text of an object, for grants and messages; throws 13 for names Quiver would refuse. */
export function formatObject(object: AuthzObject): string {
  switch (object.kind) {
    case "system":
      return "system";
    case "database":
      return `database:${databaseText(object.database)}`;
    case "namespace":
      return `namespace:${databaseText(object.database)}:${namespaceText(object.namespace)}`;
    case "table":
    case "view":
      validateName(object.name, object.kind);
      return `${object.kind}:${databaseText(object.database)}:${namespaceText(object.namespace)}$${object.name}`;
  }
}

/** Whether `object` has a text: false for a name Quiver would refuse or a top-level `public` namespace. */
export function hasObjectText(object: AuthzObject): boolean {
  try {
    formatObject(object);
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses an object's text; throws 13 with the reason for an unknown kind, a missing field, an
 * empty namespace part or a name Quiver would refuse. The text is Quiver's own names only, never
 * a secret, so the reason may repeat it.
 */
export function parseObject(text: string): AuthzObject {
  if (text === "system") return systemObject;
  const colon = text.indexOf(":");
  const kind = colon < 0 ? text : text.slice(0, colon);
  if (!isObjectKind(kind) || kind === "system") {
    throw invalidInput(`object ${quoted(text)} is not known: it must be system, database:DB, namespace:DB:NS, table:DB:NS$TABLE or view:DB:NS$VIEW`);
  }
  if (colon < 0) throw invalidInput(`object ${quoted(text)} names no ${kind}: it must be ${formOf(kind)}`);
  const body = text.slice(colon + 1);
  if (kind === "database") {
    databaseText(body);
    return { kind, database: body };
  }
  const fieldColon = body.indexOf(":");
  if (fieldColon < 0) throw invalidInput(`object ${quoted(text)} names no namespace: it must be ${formOf(kind)}`);
  const database = body.slice(0, fieldColon);
  databaseText(database);
  const path = body.slice(fieldColon + 1).split("$");
  if (kind === "namespace") return { kind, database, namespace: namespaceOfPath(path, text) };
  if (path.length < 2) throw invalidInput(`object ${quoted(text)} names no namespace: it must be ${formOf(kind)} (${rootNamespaceName} for the root)`);
  const name = path.pop() as string;
  validateName(name, kind);
  return { kind, database, namespace: namespaceOfPath(path, text), name };
}

export function isObjectKind(value: string): value is ObjectKind {
  return (objectKinds as readonly string[]).includes(value);
}

function databaseText(database: string): string {
  validateName(database, "database");
  return database;
}

/** A Quiver namespace id as its `$`-joined path, the root as `public`. */
function namespaceText(namespace: readonly string[]): string {
  if (namespace.length === 0) return rootNamespaceName;
  if (namespace[0] === rootNamespaceName) {
    throw invalidInput(`a top-level namespace named '${rootNamespaceName}' has no authorization object: '${rootNamespaceName}' stands for the root namespace`);
  }
  validateIdentifierLength(namespace);
  for (const part of namespace) validateName(part, "namespace");
  return namespace.join("$");
}

/** The Quiver namespace id of a `$`-split path: `public` alone is the root. */
function namespaceOfPath(path: string[], text: string): string[] {
  if (path.some((part) => part === "")) throw invalidInput(`object ${quoted(text)} has an empty namespace part`);
  if (path[0] === rootNamespaceName) {
    if (path.length > 1) throw invalidInput(`object ${quoted(text)}: the namespace '${rootNamespaceName}' is the root's and has no children`);
    return [];
  }
  validateIdentifierLength(path);
  for (const part of path) validateName(part, "namespace");
  return path;
}

function formOf(kind: Exclude<ObjectKind, "system">): string {
  return { database: "database:DB", namespace: "namespace:DB:NS", table: "table:DB:NS$TABLE", view: "view:DB:NS$VIEW" }[kind];
}

/** An object's text in a message: JSON-quoted, cut short when long. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 128 ? `${text.slice(0, 128)}…` : text);
}
