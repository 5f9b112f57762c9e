/**
 * The console's names in the authorization API's grammar (docs/auth.md, "Authorization"): a
 * database, namespace or table as the object text grants are held on, the privileges that may be
 * granted on each kind, and what kind of subject a grant names.
 */

/** How the API names the root namespace, the home of root-level tables. */
const ROOT_NAMESPACE = "public";

/**
 * The privileges grantable on each kind of object: its own, then those of what it may hold, which
 * a grant on it extends to everything below (the server's `grantableOn`, kept equal by a test).
 */
const CONTAINER = ["OWNERSHIP", "USAGE", "CREATE_NAMESPACE", "CREATE_TABLE", "CREATE_MATERIALIZED_VIEW", "CREATE_VIEW", "SELECT", "INSERT", "UPDATE", "DELETE"];
export const PRIVILEGES = {
  database: CONTAINER,
  namespace: CONTAINER,
  table: ["OWNERSHIP", "SELECT", "INSERT", "UPDATE", "DELETE"],
};

/** What each privilege allows, for the grant form's choices. */
export const PRIVILEGE_MEANINGS = {
  OWNERSHIP: "every privilege, and granting; granting it transfers it",
  USAGE: "reach it: list and describe what it holds",
  CREATE_NAMESPACE: "create namespaces",
  CREATE_TABLE: "create, declare and register tables",
  CREATE_MATERIALIZED_VIEW: "create materialized views",
  CREATE_VIEW: "create views",
  SELECT: "read rows: queries, counts, stats",
  INSERT: "add rows",
  UPDATE: "change rows",
  DELETE: "delete rows",
};

/**
 * The object text of a database (`parts` unused), a namespace (`parts` its id; `[]` the root,
 * written `public`) or a table (`parts` its namespace then its name) of `database`; null for one
 * inside a top-level namespace named `public`, which the API cannot tell from the root and so
 * gives no object of its own.
 */
export function objectText(kind, database, parts) {
  if (kind === "database") return `database:${database}`;
  const namespace = kind === "table" ? parts.slice(0, -1) : parts;
  if (namespace[0] === ROOT_NAMESPACE) return null;
  const path = namespace.length === 0 ? ROOT_NAMESPACE : namespace.join("$");
  return kind === "table" ? `table:${database}:${path}$${parts[parts.length - 1]}` : `namespace:${database}:${path}`;
}

/** The kind of subject a grant names, in words. */
export function subjectKind(subject) {
  const kinds = [
    ["p:api-key:", "API key"],
    ["p:oauth-client:", "OAuth client"],
    ["p:external-token:", "external token"],
    ["g:", "group"],
    ["r:", "role"],
  ];
  return kinds.find(([prefix]) => subject.startsWith(prefix))?.[1] ?? "principal";
}

/** Whether a typed subject is an API key itself (`a:`), a secret the page must not keep. */
export function isApiKeySubject(subject) {
  return subject.trim().startsWith("a:");
}
