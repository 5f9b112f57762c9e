/**
 * @module Who holds a table folder, for the purge of kept drops: a folder is deleted only when
 * no other table, live or kept as dropped, of any database of the store, sits at it, inside it
 * or around it. The purge decides that in its transaction and deletes the folder under the store
 * lock `table-folders`; the operations that put a new table at a client-named folder
 * (RegisterTable, DeclareTable with a location) take the same lock, so none of them lands
 * between that decision and the deletion.
 */
import type { FolderHolder } from "../../store/rows/dropped-table-rows.js";
import type { Store, StoreTx } from "../../store/store.js";
import { parentLocation } from "../../storage/locations.js";

/** The store lock held while a folder's purge decides and deletes, and while a client-named folder is claimed. */
export const tableFoldersLock = "table-folders";

/** Runs `work` holding the lock a purge deletes folders under; runs it plainly when `claims` is false. */
export function claimingFolders<T>(store: Store, claims: boolean, work: () => Promise<T>): Promise<T> {
  return claims ? store.withLock(tableFoldersLock, () => work()) : work();
}

/**
 * Inside the purge's transaction: another table (live or kept, any database) at `location`, at a
 * folder around it, or inside it. Kept drops read as clones are not holders here: their references
 * are checked apart (`table_data_refs`).
 */
export function findFolderHolder(tx: StoreTx, location: string): Promise<FolderHolder | undefined> {
  return tx.findFolderHolder(foldersAround(location), location);
}

/** `location` and every folder above it, up to its store's root. */
function foldersAround(location: string): string[] {
  const folders = [location];
  for (let dir = parentLocation(location); dir !== folders[folders.length - 1]; dir = parentLocation(dir)) folders.push(dir);
  return folders;
}
