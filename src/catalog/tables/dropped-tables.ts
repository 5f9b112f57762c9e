/**
 * @module Drops kept for an undrop (docs/undrop.md). Under a drop retention a dropped table's
 * catalog row moves aside (its name is free, no listing or lookup sees it) and its folder stays
 * untouched: rows, versions, tags, branches, indexes and properties come back with UndropTable.
 * The purge forgets a kept drop once its retention is over and deletes its folder, unless
 * another table holds it (`folder-claims.ts`) or clones still read it: the folder then passes to
 * the retention of shared data (`shared-table-data.ts`) and goes with the last of them.
 */
import { refreshHead } from "../table-heads.js";
import type { DroppedTableRow } from "../../store/rows/dropped-table-rows.js";
import type { TableRow } from "../../store/schema.js";
import type { Store, StoreTx } from "../../store/store.js";
import { UniqueViolation } from "../../store/store-errors.js";
import { CatalogError } from "../../model/catalog-error.js";
import type { CatalogScope, ScopesByName } from "../catalog-scope.js";
import { discardTableData } from "../discard-table-data.js";
import { translating } from "../failures.js";
import { namespaceLabel, tableLabel, namespaceIdOfKey, namespaceKey, splitTableId } from "../identifiers.js";
import { requireNamespace } from "../namespace-lookup.js";
import { pageAfter, pageBounds } from "../pagination.js";
import { keepFoldersStillRead } from "../shared-table-data.js";
import { requireNoNamespaceNamed } from "../table-lookup.js";
import { recordChange } from "../change-events.js";
import { findFolderHolder, tableFoldersLock } from "./folder-claims.js";

/**
 * Inside a drop's transaction: removes the tables' rows. Under a retention they are kept as
 * dropped (nothing to delete now); otherwise answers the folders to delete after the commit
 * (those clones still read are kept for them).
 */
export async function removeDroppedRows(scope: CatalogScope, tx: StoreTx, tables: readonly TableRow[], droppedBy?: string): Promise<string[]> {
  const retention = scope.dropRetentionMs ?? 0;
  for (const table of tables) {
    await recordChange(tx, {
      kind: "table.dropped",
      database: table.database,
      object: [...namespaceIdOfKey(table.namespace_path), table.name],
      data: { location: table.location, ...(retention > 0 ? { dropped_id: table.id, purge_at: new Date(Date.now() + retention).toISOString() } : {}) },
    });
  }
  if (retention > 0) {
    const droppedAt = Date.now();
    for (const table of tables) await tx.keepDroppedTable(table, { dropped_at: droppedAt, purge_at: droppedAt + retention, dropped_by: droppedBy ?? null });
    return [];
  }
  for (const table of tables) await tx.deleteTable(table.id);
  return keepFoldersStillRead(tx, scope.database.name, tables.map((table) => table.location));
}

/** One kept drop as listings show it. */
export interface DroppedTableEntry {
  /** The id UndropTable's `dropped_id` names. */
  dropped_id: string;
  id: string[];
  name: string;
  location: string;
  dropped_at: string;
  purge_at: string;
  dropped_by?: string;
}

/** ListDroppedTables: the kept drops directly in a namespace, ordered and paged by `dropped_id`. Throws 1. */
export async function listDroppedTables(
  scope: CatalogScope,
  request: { id: string[]; page_token?: string | null; limit?: number | null },
): Promise<{ tables: DroppedTableEntry[]; page_token?: string }> {
  const { after, limit } = pageBounds(request);
  const key = namespaceKey(request.id);
  const rows = await translating(namespaceLabel(request.id), async () => {
    await requireNamespace(scope.store.rows, scope.database.name, request.id);
    return scope.store.rows.listDroppedTablesIn(scope.database.name, key);
  });
  const page = pageAfter([...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)), after, limit, (row) => row.id);
  return { tables: page.items.map(entryOf), ...(page.page_token ? { page_token: page.page_token } : {}) };
}

function entryOf(row: DroppedTableRow): DroppedTableEntry {
  return {
    dropped_id: row.id,
    id: [...namespaceIdOfKey(row.namespace_path), row.name],
    name: row.name,
    location: row.location,
    dropped_at: new Date(row.dropped_at).toISOString(),
    purge_at: new Date(row.purge_at).toISOString(),
    ...(row.dropped_by ? { dropped_by: row.dropped_by } : {}),
  };
}

/**
 * UndropTable: puts a kept drop of the table's name back, the newest unless `dropped_id` picks
 * one. Throws 1 (its namespace is gone), 4 (no such kept drop), 5 (the name is taken, or its
 * folder was registered again as another table).
 */
export async function undropTable(
  scope: CatalogScope,
  request: { id: string[]; dropped_id?: string | null },
): Promise<{ id: string[]; location: string; properties: Record<string, string> }> {
  const database = scope.database.name;
  const { namespace, name } = splitTableId(request.id);
  const key = namespaceKey(namespace);
  const taken = () => CatalogError.of("TableAlreadyExists", `${tableLabel(request.id)} exists: drop or rename it before restoring a dropped one`);
  const row = await translating(tableLabel(request.id), async () => {
    try {
      return await scope.store.transaction(async (tx) => {
        await requireNamespace(tx, database, namespace);
        const kept = await tx.findDroppedTablesNamed(database, key, name);
        const chosen = request.dropped_id ? kept.find((row) => row.id === request.dropped_id) : kept[0];
        if (!chosen) throw CatalogError.of("TableNotFound", `no dropped ${tableLabel(request.id)}${request.dropped_id ? ` with dropped_id '${request.dropped_id}'` : ""} is kept`);
        if (await tx.findTableByName(database, key, name)) throw taken();
        await requireNoNamespaceNamed(tx, database, namespace, name);
        const owner = await tx.findTableByLocation(database, chosen.location);
        if (owner) throw CatalogError.of("TableAlreadyExists", `the dropped table's folder was registered again as table '${owner.name}'`);
        const restored = await tx.undropTable(chosen.id);
        if (!restored) throw CatalogError.of("TableNotFound", `no dropped ${tableLabel(request.id)} is kept`);
        await recordChange(tx, { kind: "table.undropped", database, object: request.id, data: { dropped_id: chosen.id, location: restored.location } });
        return restored;
      });
    } catch (error) {
      if (error instanceof UniqueViolation) throw taken();
      throw error;
    }
  });
  // The restored row's head starts unknown: known again before the answer, a first read's look
  // does not take the table's own versions for commits made around Quiver.
  await refreshHead(scope, row.id);
  return { id: request.id, location: row.location, properties: row.properties };
}

/** The store lock a purge holds: one process purges a store at a time. */
export const droppedTablePurgeLock = "dropped-table-purge";

/**
 * Forgets every kept drop whose retention is over and deletes its folder: kept instead while live
 * clones read it, or while another table (live or kept, of any database) sits at it, inside it or
 * around it; one that kept clones read waits for them. Answers the locations purged (forgotten),
 * or undefined when another process was purging.
 */
export async function purgeDroppedTables(store: Store, registry: ScopesByName, now = Date.now()): Promise<string[] | undefined> {
  return store.tryWithLock(droppedTablePurgeLock, async () => {
    const purged: string[] = [];
    const readByKept = await foldersReadByKeptDrops(store);
    for (const due of await store.rows.listDroppedTablesDue(now)) {
      const catalog = await registry.catalogFor(due.database);
      if (!catalog) continue;
      // A kept clone would lose its files: the source waits until that clone is purged or restored.
      if (readByKept.has(`${due.database}\n${due.location}`)) continue;
      const forgotten = await store.withLock(tableFoldersLock, async (fence) => {
        const discard = await store.transaction(async (tx) => {
          if (!(await tx.deleteDroppedTable(due.id))) return undefined;
          // Another table holds the folder (registered there again, live or kept, or at a folder
          // inside or around it): the folder is left to it; the last kept drop of a folder takes it.
          if (await findFolderHolder(tx, due.location)) return [];
          return keepFoldersStillRead(tx, due.database, [due.location]);
        });
        if (discard === undefined) return false;
        // A lost lock lets a register claim the folder: it stays (for the orphan sweep) rather than go under a table.
        fence.throwIfAborted();
        await discardTableData(catalog.scope, discard);
        return true;
      });
      if (forgotten) purged.push(due.location);
    }
    return purged;
  });
}

/** The folders kept drops read as clones, as `database\nlocation`. */
async function foldersReadByKeptDrops(store: Store): Promise<Set<string>> {
  const read = new Set<string>();
  for (const row of await store.rows.listAllDroppedTables()) {
    for (const ref of row.kept_records.refs) read.add(`${ref.database}\n${ref.location}`);
  }
  return read;
}

/** Locations of kept drops of a database: the orphan sweep leaves them alone. */
export async function keptDropLocations(store: Store, database: string): Promise<string[]> {
  return (await store.rows.listAllDroppedTables()).filter((row) => row.database === database).map((row) => row.location);
}
