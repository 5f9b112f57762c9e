/**
 * @module The newest version of each table's main branch as the catalog knows it (the table
 * row's `head_version`), and what a read of the newest version may trust because of it. Every
 * commit made through Quiver raises the head. The store can hold a newer version only while
 * someone else can commit to it (`mayBeWrittenOutside`); until then a read answers from the kept
 * table handle at the head with no look at the store. While someone can, the look runs alongside
 * the read, or once per the database's read-consistency interval (docs/read-freshness.md).
 */
import type { ReadFreshness, TableRef } from "../engine/engine.js";
import { isUri } from "../storage/locations.js";
import type { TableRow } from "../store/schema.js";
import type { StoreTx } from "../store/store.js";
import type { CatalogScope } from "./catalog-scope.js";
import { everyTableWrittenOutside, foundOnStore } from "./outside-commits.js";
import type { ReadDemand } from "./read-demand.js";

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
 * Whether a commit to table `row` can reach the store without passing through the catalog now:
 * the database declares writers with their own keys; or, unless every commit goes through the
 * catalog (managed versioning), the table is a local folder (which a client writes with no
 * credentials), the server hands out its own keys (`static` vending), or credentials vended with
 * write access to the table have not yet run out.
 */
export function mayBeWrittenOutside(scope: CatalogScope, row: TableRow, now = Date.now()): boolean {
  if (everyTableWrittenOutside(scope)) return true;
  if (scope.database.managedVersioning) return false;
  if (!isUri(row.location)) return true;
  return row.outside_writes_until !== null && Number(row.outside_writes_until) > now;
}

/**
 * The engine reference for a read of table `row` at `ref`: the database it belongs to, and, for
 * the newest version, what the catalog knows of it and what the reader asks (`demand`).
 */
export function readRefOf(scope: CatalogScope, row: TableRow, ref: TableRef = {}, demand?: ReadDemand): TableRef {
  const reads = { ...ref, tableId: row.id, database: scope.database.name };
  if ((ref.version !== undefined && ref.version !== null) || ref.tag) return reads;
  const lookIntervalMs = scope.database.readConsistencyMs ?? 0;
  const main = isMain(ref.branch);
  const knownVersion = main && row.head_version !== null ? Number(row.head_version) : null;
  const outside = mayBeWrittenOutside(scope, row);
  const freshness: ReadFreshness = {
    knownVersion,
    complete: main && !outside,
    // On an object store a look costs a round trip: it runs beside the read instead of before it.
    lookAlongside: main && outside && knownVersion !== null && lookIntervalMs === 0 && isUri(row.location),
    lookIntervalMs,
    minVersion: demand?.minVersion,
    // A reader's clock ahead of this one's asks for no more than a look now.
    lookedSince: demand?.minTimestampMs === undefined ? undefined : Math.min(demand.minTimestampMs, Date.now()),
    onRead: demand?.onRead,
    // A look that found a newer commit than the head (one made around Quiver) records it.
    onLooked: main ? (version) => (knownVersion === null || version > knownVersion ? foundOnStore(scope, row.id, version) : undefined) : undefined,
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
