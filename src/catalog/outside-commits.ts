/**
 * @module Versions committed around the catalog: by a client holding write credentials (vended,
 * or its own keys), or by a Quiver process that died between Lance's commit and recording it. A
 * read's look at the store that finds a version newer than the table's head reports it here
 * (`foundOnStore`); so does the periodic check of the tables others may write
 * (`checkOutsideCommits`). After a grace period that lets a writer going through Quiver record
 * its own commit, whatever is still unrecorded is: the head is raised and each version gets its
 * `table.version.created` event, with the operation Lance's transaction file names. Of several
 * processes that find the same versions, the one that moves the head records them (a
 * compare-and-set of the head), so each gets one event.
 */
import type { Store } from "../store/store.js";
import type { TableRow } from "../store/schema.js";
import { isUri } from "../storage/locations.js";
import { defaultVending } from "../storage/storages.js";
import type { CatalogScope, ScopesByName } from "./catalog-scope.js";
import { recordChange } from "./change-events.js";
import { namespaceIdOfKey } from "./identifiers.js";
import { type PeriodicTask, startPeriodicTask } from "./periodic-task.js";

/**
 * How long a version found on the store is left to its writer to record: a commit through Quiver
 * raises the head within milliseconds of Lance's commit, so one still unrecorded after this was
 * made around Quiver.
 */
export const recordingGraceMs = 2_000;

/** Events written for one discovery at most (the newest versions); a longer run raises the head alone past the rest. */
const maxEventsAtOnce = 100;

/** Default time between two checks of the tables others may write. */
export const defaultOutsideCommitCheckIntervalMs = 60_000;

/** Versions waiting out their grace, per table id: one timer per table however many reads find them. */
const waiting = new Map<string, number>();

/** Says that a look at the store found `version` of table `tableId`'s main branch, newer than its head when the read began. */
export function foundOnStore(scope: CatalogScope, tableId: string, version: number): void {
  const already = waiting.get(tableId);
  if (already !== undefined && already >= version) return;
  waiting.set(tableId, version);
  if (already !== undefined) return;
  setTimeout(() => {
    const found = waiting.get(tableId) ?? version;
    waiting.delete(tableId);
    // Nothing to tell anyone: the next look or check finds what this one could not record.
    recordOutsideCommits(scope, tableId, found).catch(() => undefined);
  }, recordingGraceMs).unref();
}

/**
 * Records the versions of table `tableId`'s main branch after its head up to `found` that no one
 * recorded: raises the head to `found` and writes an event per version (one, for `found`, when
 * the head was unknown). Answers how many events it wrote; 0 when someone recorded them first.
 */
export async function recordOutsideCommits(scope: CatalogScope, tableId: string, found: number): Promise<number> {
  const row = await scope.store.rows.findTableById(tableId);
  if (!row) return 0;
  const head = row.head_version === null ? null : Number(row.head_version);
  if (head !== null && found <= head) return 0;
  const manifests = (await scope.engine.files.manifests.list(row.location, ""))
    .filter((manifest) => manifest.version <= found && (head === null ? manifest.version === found : manifest.version > head))
    .slice(-maxEventsAtOnce);
  const commits = await Promise.all(manifests.map(async ({ version, path }) => ({ version, made: await scope.engine.files.manifests.operation(path) })));
  const id = [...namespaceIdOfKey(row.namespace_path), row.name];
  return scope.store.transaction(async (tx) => {
    if (!(await tx.moveTableHead(row.id, head, found))) return 0;
    for (const { version, made } of commits) {
      await recordChange(tx, {
        kind: "table.version.created",
        database: scope.database.name,
        object: id,
        data: { version, operation: "ExternalCommit", lance_operation: made?.operation ?? "unknown", ...(made?.detail === undefined ? {} : { detail: made.detail }) },
      });
    }
    return commits.length;
  });
}

/**
 * Whether anyone may commit to any table of `scope`'s database on an object store without the
 * catalog: it declares outside writers; or, unless every commit goes through the catalog (managed
 * versioning), the server hands out its own keys (`static` vending).
 */
export function everyTableWrittenOutside(scope: CatalogScope): boolean {
  if (scope.database.outsideWriters) return true;
  return !scope.database.managedVersioning && (scope.vending ?? defaultVending).mode === "static";
}

/** The tables of `scope`'s database that someone may have committed to around the catalog since `since`. */
async function tablesWrittenOutside(scope: CatalogScope, since: number): Promise<TableRow[]> {
  // A database on local folders with static vending hands out no keys: only its vended windows count.
  const everyTable = everyTableWrittenOutside(scope) && (scope.database.outsideWriters || isUri(scope.database.storageRoot));
  return everyTable ? scope.store.rows.listAllTables(scope.database.name) : scope.store.rows.listTablesWrittenOutside(scope.database.name, since);
}

/**
 * Looks at the store for each table someone may have written around the catalog since `since`
 * (credentials vended with write access valid then or later, every table of a database declaring
 * outside writers or under static vending) and, after the grace period, records the versions no
 * one did. Answers how many events it wrote.
 */
export async function checkOutsideCommits(store: Store, registry: ScopesByName, since: number): Promise<number> {
  const found: { scope: CatalogScope; row: TableRow; newest: number }[] = [];
  for (const database of await store.rows.listDatabases()) {
    const scope = (await registry.catalogFor(database.name))?.scope;
    if (!scope) continue;
    for (const row of await tablesWrittenOutside(scope, since)) {
      const newest = (await scope.engine.files.manifests.list(row.location, "").catch(() => [])).at(-1)?.version;
      if (newest !== undefined && (row.head_version === null || newest > Number(row.head_version))) found.push({ scope, row, newest });
    }
  }
  if (found.length === 0) return 0;
  await new Promise((resolve) => setTimeout(resolve, recordingGraceMs));
  let events = 0;
  for (const { scope, row, newest } of found) events += await recordOutsideCommits(scope, row.id, newest);
  return events;
}

/**
 * Runs `checkOutsideCommits` every `intervalMs` (0: never) until stopped, each run covering the
 * credentials that expired since the one before; a failed run is reported and the next runs on time.
 */
export function startOutsideCommitCheck(store: Store, registry: ScopesByName, intervalMs: number, failed: (error: unknown) => void): PeriodicTask {
  return startPeriodicTask(intervalMs, async () => void (await checkOutsideCommits(store, registry, Date.now() - intervalMs - recordingGraceMs)), failed);
}
