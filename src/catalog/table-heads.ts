/**
 * @module The newest version of each table's main branch as the catalog knows it (the table
 * row's `head_version`), and what a read of the newest version may trust because of it. Every
 * commit made through Quiver raises the head; a read of a managed-versioning database, where no
 * commit bypasses the catalog, then answers from the kept table handle without looking at the
 * store while the head is unchanged. Elsewhere clients may commit to the store directly, so a
 * read looks at the store every time, or once per the database's read-consistency interval
 * (docs/object-storage.md, "Read freshness").
 */
import type { ReadFreshness, TableRef } from "../engine/engine.js";
import type { TableRow } from "../store/schema.js";
import type { StoreTx } from "../store/store.js";
import type { CatalogScope } from "./catalog-scope.js";

/** Whether `branch` names the main branch, the one whose head the table row keeps. */
function isMain(branch: string | null | undefined): boolean {
  return branch == null || branch === "" || branch === "main";
}

/**
 * Records that `version` of `branch` of table `tableId` is committed. Only main's head is kept.
 * The data is in, so a store that cannot record it now does not fail the write: the writer's own
 * reads look anyway, and every other read of the table looks again once a later commit or look
 * raises the head past it.
 */
export async function noteCommitted(rows: StoreTx, tableId: string, branch: string | null | undefined, version: number): Promise<void> {
  if (!isMain(branch)) return;
  await rows.raiseTableHead(tableId, version).catch(() => undefined);
}

/**
 * The engine reference for a read of table `row` at `ref`: the database it belongs to, and, for
 * the newest version, what the catalog knows of it.
 */
export function readRefOf(scope: CatalogScope, row: TableRow, ref: TableRef = {}): TableRef {
  const reads = { ...ref, tableId: row.id, database: scope.database.name };
  if ((ref.version !== undefined && ref.version !== null) || ref.tag) return reads;
  const lookIntervalMs = scope.database.readConsistencyMs ?? 0;
  const main = isMain(ref.branch);
  const knownVersion = main && row.head_version !== null ? Number(row.head_version) : null;
  const freshness: ReadFreshness = {
    knownVersion,
    complete: main && scope.database.managedVersioning,
    lookIntervalMs,
    // A look that found a newer commit than the head (one made outside Quiver) raises it.
    onLooked: main ? (version) => (knownVersion === null || version > knownVersion ? noteCommitted(scope.store.rows, row.id, null, version) : undefined) : undefined,
  };
  return { ...reads, freshness };
}

/**
 * Looks at the store for the newest version of table `tableId`'s main branch and raises the head
 * to it: for work that commits through the engine without saying which version (jobs). A table
 * gone or without data is left alone.
 */
export async function refreshHead(scope: CatalogScope, tableId: string): Promise<void> {
  const row = await scope.store.rows.findTableById(tableId);
  if (!row) return;
  try {
    const { version } = await scope.engine.describeTable(row.location, { tableId: row.id, database: scope.database.name });
    await noteCommitted(scope.store.rows, row.id, null, version);
  } catch {
    // No data yet, or the store is away: the next commit or look raises the head.
  }
}
