/**
 * @module Paging of listings (spec/endpoints.md §0.2). A page token is the last item of the
 * previous page: opaque to namespace clients, and exactly the `startAfter` value the LanceDB
 * Cloud client sends as `page_token`.
 */
import { maxPageLimit } from "../model/common.js";
import { invalidInput } from "../model/catalog-error.js";

export interface PageRequest {
  page_token?: string | null | undefined;
  limit?: number | null | undefined;
}

export interface Page<T> {
  items: T[];
  page_token?: string;
}

/** Normalises a request's paging fields. `limit` 0 or absent means "no limit". */
export function pageBounds(request: PageRequest): { after: string | undefined; limit: number | undefined } {
  const limit = request.limit ?? undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0 || limit > maxPageLimit)) {
    throw invalidInput(`limit must be an integer from 0 to ${maxPageLimit}`);
  }
  const after = request.page_token ? request.page_token : undefined;
  return { after, limit: limit === 0 ? undefined : limit };
}

/** The page of a sorted list that follows the token `after`, at most `limit` items (see `toPage`). */
export function pageAfter<T>(sorted: T[], after: string | undefined, limit: number | undefined, key: (item: T) => string): Page<T> {
  return toPage(after === undefined ? sorted : sorted.filter((item) => key(item) > after), limit, key);
}

/**
 * Cuts a sorted list to one page. `items` may hold one more than `limit` (fetched to learn that
 * more exist); the token is then the key of the last item returned.
 */
export function toPage<T>(items: T[], limit: number | undefined, key: (item: T) => string): Page<T> {
  if (limit === undefined || items.length <= limit) return { items };
  const pageItems = items.slice(0, limit);
  return { items: pageItems, page_token: key(pageItems[pageItems.length - 1] as T) };
}
