/**
 * @module Deleting the data of tables whose catalog rows are already gone.
 */
import type { CatalogScope } from "./catalog-scope.js";

/**
 * Best-effort deletion after a committed drop: the drop has happened, so a failure to delete files
 * (permissions, a busy file) only leaves unreachable folders behind and must not turn the answer
 * into an error (a client would retry a drop that already succeeded).
 */
export async function discardTableData(scope: CatalogScope, locations: readonly string[]): Promise<void> {
  for (const location of locations) {
    try {
      await scope.engine.removeTableData(location);
    } catch {
      // Left for an operator: the folder no longer belongs to any table.
    }
  }
}
