/**
 * @module How an index operation reaches its table: loaded with its data (a declared-only table
 * has nothing to index), engine failures told as the catalog errors naming the table, the version
 * or branch asked for, and the index.
 */
import type { EngineErrorKind } from "../../engine/engine-errors.js";
import type { TableRef } from "../../engine/engine.js";
import { CatalogError } from "../../model/catalog-error.js";
import type { TableRow } from "../../store/schema.js";
import type { CatalogScope } from "../catalog-scope.js";
import { overridesOf, translating } from "../failures.js";
import { tableLabel } from "../identifiers.js";
import { loadTableWithData } from "../table-lookup.js";
import { refOverrides } from "../table-refs.js";

type EngineErrorOverrides = Partial<Record<EngineErrorKind, CatalogError>>;

/**
 * Runs `work` on the table `id` names, at `ref`. `work` gets the table's row and its label for
 * messages; `overrides(subject)` tells further engine failures in the request's terms.
 */
export function withTableData<T>(
  scope: CatalogScope,
  id: string[],
  ref: TableRef,
  work: (row: TableRow, subject: string) => Promise<T>,
  overrides?: (subject: string) => EngineErrorOverrides,
): Promise<T> {
  const subject = tableLabel(id);
  const errors = refOverrides(subject, ref);
  return translating(subject, async () => work(await loadTableWithData(scope, id), subject), overrides ? overridesOf(errors, overrides(subject)) : errors);
}

/** The engine's missing index as TableIndexNotFound (6), naming the index the request asked for. */
export function indexNotFound(indexName: string): (subject: string) => EngineErrorOverrides {
  return (subject) => ({ "index-not-found": CatalogError.of("TableIndexNotFound", `${subject} has no index named '${indexName}'`) });
}
