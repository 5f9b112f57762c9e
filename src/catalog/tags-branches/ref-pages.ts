/**
 * @module One page of a table's Lance refs (tags or branches), by name, as the listings answer
 * them: a map of name → contents.
 */
import type { CatalogScope } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { tableLabel } from "../identifiers.js";
import { type PageRequest, pageAfter, pageBounds } from "../pagination.js";
import { requireTable } from "../table-lookup.js";

/** A page of refs: name → contents, and the token of the next page when there is one. */
export interface RefPage<C> {
  byName: Record<string, C>;
  page_token?: string;
}

/**
 * The page `request` asks for of the refs `read` finds at the table's location, each turned into
 * its listed contents by `contentsOf`. Throws 1, 4.
 */
export async function refPage<R extends { name: string }, C>(
  scope: CatalogScope,
  request: PageRequest & { id: string[] },
  read: (location: string) => Promise<R[]>,
  contentsOf: (ref: R) => C,
): Promise<RefPage<C>> {
  const { after, limit } = pageBounds(request);
  return translating(tableLabel(request.id), async () => {
    const table = await requireTable(scope.store.rows, scope.database.name, request.id);
    const page = pageAfter(await read(table.location), after, limit, (ref) => ref.name);
    const byName: Record<string, C> = {};
    for (const ref of page.items) byName[ref.name] = contentsOf(ref);
    return page.page_token === undefined ? { byName } : { byName, page_token: page.page_token };
  });
}
