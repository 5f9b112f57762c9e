/**
 * @module Table lookups that many operations share: a table that must exist (and, for data
 * operations, have data), a sibling name that must be free (namespaces and tables share one
 * name space), and a client-named location that must not overlap another table's.
 */
import { isInsideLocation, normalizeLocation, parentLocation } from "../storage/locations.js";
import type { StoreTx } from "../store/store.js";
import type { TableRow } from "../store/schema.js";
import { CatalogError, invalidInput } from "../model/catalog-error.js";
import type { CatalogScope } from "./catalog-scope.js";
import { namespaceLabel, tableLabel, namespaceKey, splitTableId } from "./identifiers.js";
import { requireNamespace } from "./namespace-lookup.js";

/** The table's row, or undefined; a missing parent namespace is NamespaceNotFound (1). */
export async function findTable(tx: StoreTx, database: string, id: readonly string[]): Promise<TableRow | undefined> {
  const { namespace, name } = splitTableId(id);
  const row = await tx.findTableByName(database, namespaceKey(namespace), name);
  if (!row) await requireNamespace(tx, database, namespace);
  return row;
}

/** The table's row; throws TableNotFound (4) or NamespaceNotFound (1). */
export async function requireTable(tx: StoreTx, database: string, id: readonly string[]): Promise<TableRow> {
  const row = await findTable(tx, database, id);
  if (!row) throw CatalogError.of("TableNotFound", `${tableLabel(id)} does not exist`);
  return row;
}

/** The table's row; throws 1 or 4. */
export function loadTable(scope: CatalogScope, id: readonly string[]): Promise<TableRow> {
  return requireTable(scope.store.rows, scope.database.name, id);
}

/** What an operation needing data answers for a declared-only table: InvalidTableState (19). */
export function declaredOnly(subject: string): CatalogError {
  return CatalogError.of("InvalidTableState", `${subject} is declared but has no data yet`);
}

/** The table's row when it has data; a declared-only table is InvalidTableState (19). */
export async function loadTableWithData(scope: CatalogScope, id: readonly string[]): Promise<TableRow> {
  const row = await loadTable(scope, id);
  if (!(await scope.engine.datasetExists(row.location))) throw declaredOnly(tableLabel(id));
  return row;
}

/** Throws when a namespace of that name already sits beside the would-be table. */
export async function requireNoNamespaceNamed(tx: StoreTx, database: string, namespace: readonly string[], name: string): Promise<void> {
  if (await tx.findNamespace(database, namespaceKey([...namespace, name]))) {
    throw CatalogError.of("TableAlreadyExists", `a namespace named '${name}' already exists in ${namespaceLabel(namespace)}`);
  }
}

/**
 * Refuses a client-named location that is, contains, or lies inside the location of another
 * table (`except` excluded): dropping either table would delete the other's data.
 */
export async function requireLocationFree(tx: StoreTx, database: string, storageRoot: string, location: string, except?: string): Promise<void> {
  const candidates = [await tx.findTableByLocation(database, location), await tx.findTableBelowLocation(database, location)];
  const root = normalizeLocation(storageRoot);
  for (let dir = parentLocation(location); isInsideLocation(root, dir); dir = parentLocation(dir)) {
    candidates.push(await tx.findTableByLocation(database, dir));
  }
  const owner = candidates.find((row) => row !== undefined && row.id !== except);
  if (owner) throw invalidInput(`location '${location}' overlaps the data of another table`);
}
