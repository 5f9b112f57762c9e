/**
 * @module ListTables and ListAllTables (spec/endpoints.md §2.6–2.7).
 */
import type { ListTablesRequest, ListTablesResponse } from "../../model/namespace.js";
import type { TableRow } from "../../store/schema.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { namespaceLabel, namespaceIdOfKey, namespaceKey, validateNamespaceId } from "../identifiers.js";
import { requireNamespace } from "../namespace-lookup.js";
import { type Page, pageAfter, pageBounds, toPage } from "../pagination.js";

/**
 * ListTables: names of the tables directly in namespace `id`, paged. Declared-only tables are
 * listed unless `include_declared` is false. Throws 1.
 */
export async function listTables(scope: CatalogScope, request: WithId<ListTablesRequest>): Promise<ListTablesResponse> {
  validateNamespaceId(request.id);
  const { after, limit } = pageBounds(request);
  const database = scope.database.name;
  const includeDeclared = request.include_declared ?? true;
  return translating(namespaceLabel(request.id), async () => {
    await requireNamespace(scope.store.rows, database, request.id);
    const key = namespaceKey(request.id);
    // Declared-only filtering needs storage, so it cannot be pushed into the query's LIMIT.
    const fetchLimit = includeDeclared && limit !== undefined ? limit + 1 : undefined;
    const rows = await scope.store.rows.listTablesIn(database, key, after, fetchLimit);
    const visible = includeDeclared ? rows : await withData(scope, rows);
    return toResponse(toPage(visible.map((row) => row.name), limit, (name) => name));
  });
}

/**
 * ListAllTables: every table of the database as a full string identifier joined with
 * `delimiter`, in identifier order, paged on that identifier.
 */
export async function listAllTables(
  scope: CatalogScope,
  request: ListTablesRequest & { delimiter?: string | undefined },
): Promise<ListTablesResponse> {
  const { after, limit } = pageBounds(request);
  const delimiter = request.delimiter ?? "$";
  const includeDeclared = request.include_declared ?? true;
  return translating("the table listing", async () => {
    const rows = await scope.store.rows.listAllTables(scope.database.name);
    const ids = (includeDeclared ? rows : await withData(scope, rows))
      .map((row) => fullId(row, delimiter))
      .sort();
    return toResponse(pageAfter(ids, after, limit, (id) => id));
  });
}

function fullId(row: TableRow, delimiter: string): string {
  return [...namespaceIdOfKey(row.namespace_path), row.name].join(delimiter);
}

function toResponse(page: Page<string>): ListTablesResponse {
  return page.page_token ? { tables: page.items, page_token: page.page_token } : { tables: page.items };
}

/** The rows whose table has data (declared-only tables have none yet). */
async function withData<Row extends { location: string }>(scope: CatalogScope, rows: Row[]): Promise<Row[]> {
  const hasData = await Promise.all(rows.map((row) => scope.engine.datasetExists(row.location)));
  return rows.filter((_row, i) => hasData[i]);
}
