/**
 * @module Whether an object of the authorization grammar names something in the catalog: grants
 * are only given on what exists. A view object names a table that a materialized view fills;
 * Quiver's grants on a view and on a table of the same name are checked alike.
 */
import type { AuthzObject } from "../model/authz/objects.js";
import type { Store } from "../store/store.js";
import { namespaceKey } from "./identifiers.js";
import { hasNamespace } from "./namespace-lookup.js";

export async function authzObjectExists(store: Store, object: AuthzObject): Promise<boolean> {
  if (object.kind === "system") return true;
  if (!(await store.rows.findDatabase(object.database))) return false;
  switch (object.kind) {
    case "database":
      return true;
    case "namespace":
      return hasNamespace(store.rows, object.database, object.namespace);
    case "table":
    case "view":
      return (await store.rows.findTableByName(object.database, namespaceKey(object.namespace), object.name)) !== undefined;
  }
}
