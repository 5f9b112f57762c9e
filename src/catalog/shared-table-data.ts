/**
 * @module Table folders that other tables read. A shallow clone's versions read the data files
 * of the version it was made from in its source's folder (and in the folders its source reads,
 * for a clone of a clone). The store records each such reference when the clone is made, so that:
 * - a drop of a table that live tables still read leaves the catalog at once, but its folder is
 *   kept (recorded as retained, which the orphan sweep honours) until the last reader goes;
 * - cleanup of old versions on a table never removes a version a reader was made from.
 */
import type { TableRow } from "../store/schema.js";
import type { StoreTx } from "../store/store.js";
import type { CatalogScope } from "./catalog-scope.js";

/** A version of a table's branch ("" for main). */
export interface BranchVersion {
  branch: string;
  version: number;
}

/**
 * Inside the clone's transaction: records that the table `cloneId` reads `source`'s folder at
 * `from`, and every folder `source` reads itself (Lance resolves a clone of a clone's files in
 * their first owner's folder).
 */
export async function recordCloneSource(tx: StoreTx, cloneId: string, source: TableRow, from: BranchVersion): Promise<void> {
  const inherited = await tx.listTableDataRefs(source.id);
  await tx.insertTableDataRef({ table_id: cloneId, database: source.database, location: source.location, ...from });
  for (const ref of inherited) {
    if (ref.location === source.location) continue;
    await tx.insertTableDataRef({ table_id: cloneId, database: ref.database, location: ref.location, branch: ref.branch, version: ref.version });
  }
}

/**
 * Inside a drop's transaction, after the dropped rows are gone: keeps each dropped folder that a
 * live table still reads (recorded as retained) and answers the others, to delete after the
 * commit. A clone being made of one of them either committed first (its references are seen
 * here) or finds its source gone (it checks under the source row's lock).
 */
export async function keepFoldersStillRead(tx: StoreTx, database: string, locations: readonly string[]): Promise<string[]> {
  const discard: string[] = [];
  for (const location of locations) {
    if ((await tx.listDataRefsTo(database, location)).length === 0) {
      discard.push(location);
    } else {
      await tx.insertRetainedData({ database, location, dropped_at: Date.now() });
    }
  }
  return discard;
}

/**
 * After a drop's commit: forgets the retained folders of the database that no live table reads
 * any more and answers them, for deletion. Each is forgotten in its own transaction that checks
 * again, so two drops never both claim one. A kept folder registered again as a table is
 * forgotten but not answered: it is that table's now.
 */
export async function releaseUnreadFolders(scope: CatalogScope): Promise<string[]> {
  const database = scope.database.name;
  const released: string[] = [];
  for (const retained of await scope.store.rows.listRetainedData(database)) {
    const freed = await scope.store.transaction(async (tx) => {
      if ((await tx.listDataRefsTo(database, retained.location)).length > 0) return false;
      const owned = await tx.findTableByLocation(database, retained.location);
      return (await tx.deleteRetainedData(database, retained.location)) && !owned;
    });
    if (freed) released.push(retained.location);
  }
  return released;
}

/**
 * The versions of `branch` of the table at `location` that live readers were made from, in
 * order: cleanup there must keep them, and a version delete skip them.
 */
export async function versionsRead(rows: StoreTx, database: string, location: string, branch: string): Promise<number[]> {
  const refs = await rows.listDataRefsTo(database, location);
  return [...new Set(refs.filter((ref) => ref.branch === branch).map((ref) => ref.version))].sort((a, b) => a - b);
}

/** The tables that read files of `branch` of the table at `location`, by id (empty when none). */
export async function readersOfBranch(rows: StoreTx, database: string, location: string, branch: string): Promise<string[]> {
  const refs = await rows.listDataRefsTo(database, location);
  return refs.filter((ref) => ref.branch === branch).map((ref) => ref.table_id);
}
