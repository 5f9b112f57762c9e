/**
 * @module Deleting the data of tables whose catalog rows are already gone.
 */
import type { CatalogScope } from "./catalog-scope.js";
import { releaseUnreadFolders } from "./shared-table-data.js";

/**
 * Best-effort deletion after a committed drop: the drop has happened, so a failure to delete files
 * (permissions, a busy file) only leaves unreachable folders behind and must not turn the answer
 * into an error (a client would retry a drop that already succeeded). Folders of dropped tables
 * that were kept for their clones go too once no live table reads them (the drop may have been
 * of their last clone). Pass only folders no live table reads (`keepFoldersStillRead`).
 */
export async function discardTableData(scope: CatalogScope, locations: readonly string[]): Promise<void> {
  let released: string[] = [];
  try {
    released = await releaseUnreadFolders(scope);
  } catch {
    // Kept folders stay recorded; a later drop in this database releases them.
  }
  for (const location of [...locations, ...released]) {
    try {
      await scope.engine.removeTableData(location, scope.database.storageRoot);
    } catch {
      // Left for an operator: the folder no longer belongs to any table.
    }
  }
}
