/**
 * @module Namespace operations (spec/endpoints.md §2.1–2.5): nested to any depth; the root
 * always exists and keeps its properties on the database record.
 */
import { CreateModes, DropBehaviors, DropNamespaceModes, parseMode } from "../../model/modes.js";
import type {
  CreateNamespaceRequest,
  CreateNamespaceResponse,
  DescribeNamespaceRequest,
  DescribeNamespaceResponse,
  DropNamespaceRequest,
  DropNamespaceResponse,
  ListNamespacesRequest,
  ListNamespacesResponse,
  NamespaceExistsRequest,
} from "../../model/namespace.js";
import type { StoreTx } from "../../store/store.js";
import { UniqueViolation } from "../../store/store-errors.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { discardTableData } from "../discard-table-data.js";
import { removeDroppedRows } from "../tables/dropped-tables.js";
import { translating } from "../failures.js";
import { namespaceLabel, namespaceIdOfKey, namespaceKey, validateNamespaceId } from "../identifiers.js";
import { recordChange } from "../change-events.js";
import { requireNamespace, requireNoTableNamed } from "../namespace-lookup.js";
import { pageBounds, toPage } from "../pagination.js";

/**
 * CreateNamespace. Modes: Create (default; 2 if it exists), ExistOk (keep the existing one),
 * Overwrite (drop it with everything inside, then create it empty). Throws 1 for a missing parent.
 */
export async function createNamespace(scope: CatalogScope, request: WithId<CreateNamespaceRequest>): Promise<CreateNamespaceResponse> {
  // validate
  const { id } = request;
  validateNamespaceId(id);
  const mode = parseMode(request.mode, CreateModes);
  if (mode === null) throw invalidInput(`mode must be one of ${CreateModes.join(", ")}; got ${JSON.stringify(request.mode)}`);
  const properties = request.properties ?? {};
  const database = scope.database.name;

  if (id.length === 0) {
    if (mode === "ExistOk") return { properties: scope.database.properties };
    if (mode === "Overwrite") throw invalidInput("the root namespace cannot be overwritten");
    throw CatalogError.of("NamespaceAlreadyExists", "the root namespace always exists");
  }

  const parent = id.slice(0, -1);
  const name = id[id.length - 1] as string;
  const key = namespaceKey(id);
  const droppedLocations: string[] = [];

  const decideAndWrite = () =>
    scope.store.transaction(async (tx) => {
      // load
      await requireNamespace(tx, database, parent);
      await requireNoTableNamed(tx, database, parent, name);
      const existing = await tx.findNamespace(database, key);
      // decide
      if (existing) {
        if (mode === "ExistOk") return { properties: existing.properties };
        if (mode !== "Overwrite") throw CatalogError.of("NamespaceAlreadyExists", `${namespaceLabel(id)} already exists`);
        droppedLocations.push(...(await deleteNamespaceTree(scope, tx, database, key)));
      }
      // write
      await tx.insertNamespace({
        database,
        path: key,
        parent_path: namespaceKey(parent),
        name,
        properties,
        created_at: Date.now(),
      });
      await recordChange(tx, { kind: "namespace.created", database, object: id, data: { properties } });
      return { properties };
    });
  // A concurrent create (in any process) may insert between our check and our insert: decided
  // again, the request then sees that namespace and answers as its mode says.
  const response = await translating(namespaceLabel(id), () =>
    decideAndWrite().catch((error: unknown) => {
      if (error instanceof UniqueViolation) return decideAndWrite();
      throw error;
    }),
  );
  // finalize: data of tables dropped by Overwrite goes only after the commit.
  await discardTableData(scope, droppedLocations);
  return response;
}

/** ListNamespaces: direct children of `id`, by name, paged. Throws 1. */
export async function listNamespaces(scope: CatalogScope, request: WithId<ListNamespacesRequest>): Promise<ListNamespacesResponse> {
  validateNamespaceId(request.id);
  const { after, limit } = pageBounds(request);
  const database = scope.database.name;
  return translating(namespaceLabel(request.id), async () => {
    await requireNamespace(scope.store.rows, database, request.id);
    const rows = await scope.store.rows.listChildNamespaces(database, namespaceKey(request.id), after, limit === undefined ? undefined : limit + 1);
    const page = toPage(rows.map((row) => row.name), limit, (name) => name);
    return page.page_token ? { namespaces: page.items, page_token: page.page_token } : { namespaces: page.items };
  });
}

/** DescribeNamespace: its properties. Throws 1. */
export async function describeNamespace(scope: CatalogScope, request: WithId<DescribeNamespaceRequest>): Promise<DescribeNamespaceResponse> {
  validateNamespaceId(request.id);
  if (request.id.length === 0) return { properties: scope.database.properties };
  const row = await translating(namespaceLabel(request.id), () => scope.store.rows.findNamespace(scope.database.name, namespaceKey(request.id)));
  if (!row) throw CatalogError.of("NamespaceNotFound", `${namespaceLabel(request.id)} does not exist`);
  return { properties: row.properties };
}

/** NamespaceExists: resolves when it exists, throws 1 otherwise. */
export async function namespaceExists(scope: CatalogScope, request: WithId<NamespaceExistsRequest>): Promise<void> {
  await describeNamespace(scope, request);
}

/**
 * DropNamespace. Mode Fail (default) throws 1 for a missing namespace, Skip succeeds. Behavior
 * Restrict (default) throws 3 when it holds tables or namespaces; Cascade drops them too.
 */
export async function dropNamespace(scope: CatalogScope, request: WithId<DropNamespaceRequest>): Promise<DropNamespaceResponse> {
  // validate
  const { id } = request;
  validateNamespaceId(id);
  const mode = parseMode(request.mode, DropNamespaceModes);
  if (mode === null) throw invalidInput(`mode must be one of ${DropNamespaceModes.join(", ")}; got ${JSON.stringify(request.mode)}`);
  const behavior = parseMode(request.behavior, DropBehaviors);
  if (behavior === null) throw invalidInput(`behavior must be one of ${DropBehaviors.join(", ")}; got ${JSON.stringify(request.behavior)}`);
  if (id.length === 0) throw invalidInput("the root namespace cannot be dropped");
  const database = scope.database.name;
  const key = namespaceKey(id);
  const droppedLocations: string[] = [];

  const response = await translating(namespaceLabel(id), () =>
    scope.store.transaction(async (tx): Promise<DropNamespaceResponse> => {
      // load
      const existing = await tx.findNamespace(database, key);
      if (!existing) {
        if (mode === "Skip") return {};
        throw CatalogError.of("NamespaceNotFound", `${namespaceLabel(id)} does not exist`);
      }
      // decide
      if (behavior !== "Cascade") {
        const children = (await tx.countChildNamespaces(database, key)) + (await tx.countTablesIn(database, key));
        if (children > 0) {
          throw CatalogError.of("NamespaceNotEmpty", `${namespaceLabel(id)} is not empty: it holds ${children} table(s) or namespace(s)`);
        }
      }
      // write
      droppedLocations.push(...(await deleteNamespaceTree(scope, tx, database, key)));
      return { properties: existing.properties };
    }),
  );
  // finalize
  await discardTableData(scope, droppedLocations);
  return response;
}

/**
 * Deletes the namespace at `key` with every table and namespace below it; returns the tables'
 * locations to delete (those clones elsewhere still read are kept; under a drop retention the
 * tables are kept for an undrop, which needs their namespace created again).
 */
async function deleteNamespaceTree(scope: CatalogScope, tx: StoreTx, database: string, key: string): Promise<string[]> {
  const tables = await tx.listTablesInTree(database, key);
  const discard = await removeDroppedRows(scope, tx, tables);
  await tx.deleteNamespaceTree(database, key);
  await recordChange(tx, { kind: "namespace.dropped", database, object: namespaceIdOfKey(key), data: { tables_dropped: tables.length } });
  return discard;
}
