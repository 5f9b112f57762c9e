/**
 * @module What the data operations share: the table's row, the check that it has data, the
 * version/branch it addresses, and the meaning of "not found" errors from the engine.
 */
import type { EngineErrorKind } from "../engine/engine-errors.js";
import type { TableRef } from "../engine/engine.js";
import type { TableRow } from "../store/schema.js";
import { CatalogError } from "./catalog-error.js";
import type { CatalogScope } from "./catalog-scope.js";
import { describeTable } from "./identifiers.js";
import { requireTable } from "./lookups.js";

export type WithId<T> = T & { id: string[] };

export interface VersionedRequest {
  version?: number | null;
  branch?: string | null;
}

/** The table's row; throws 1 or 4. */
export function loadTable(scope: CatalogScope, id: readonly string[]): Promise<TableRow> {
  return requireTable(scope.store.rows, scope.database.name, id);
}

/** The table's row when it has data; a declared-only table is InvalidTableState (19). */
export async function loadTableWithData(scope: CatalogScope, id: readonly string[]): Promise<TableRow> {
  const row = await loadTable(scope, id);
  if (!(await scope.engine.datasetExists(row.location))) {
    throw CatalogError.of("InvalidTableState", `${describeTable(id)} is declared but has no data yet`);
  }
  return row;
}

export function refOf(request: VersionedRequest): TableRef {
  return { version: request.version ?? null, branch: request.branch || null };
}

/** Engine "not found" kinds, phrased for the version and branch the request named. */
export function refOverrides(subject: string, ref: TableRef): Partial<Record<EngineErrorKind, CatalogError>> {
  const noBranch = CatalogError.of("TableBranchNotFound", `${subject} has no branch '${ref.branch ?? ""}'`);
  return {
    // Lance reports a missing branch as a missing versions folder under the branch tree.
    "version-not-found":
      ref.branch && ref.version == null ? noBranch : CatalogError.of("TableVersionNotFound", `${subject} has no version ${ref.version ?? ""}`.trim()),
    "branch-not-found": noBranch,
  };
}
