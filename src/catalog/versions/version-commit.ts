/**
 * @module The managed commit, whole (spec/concepts.md §6.3), shared by CreateTableVersion,
 * BatchCreateTableVersions and BatchCommitTables:
 * - prepare: before any store transaction, each entry's staged manifest is checked in storage
 *   (it exists, is a manifest inside the table, the branch takes it, the final name is free);
 * - decide: inside one store transaction, which does no storage I/O, each entry's record is
 *   inserted with the staged path noted (the unique (table, branch, version) key is the
 *   put-if-not-exists, across every process on the store);
 * - finalize: after the commit each staged manifest is put at its final name with a conditional
 *   create, and its record marked done;
 * - undo: when a manifest cannot be put in place, the whole transaction is taken back;
 * - roll forward: a crash between decide and finalize leaves records that start-up, or the next
 *   reader of the table, finalizes.
 * Finalizing is idempotent, so the writer, a reader and start-up may all attempt it.
 */
import type { Storages } from "../../storage/storages.js";
import type { ManifestNamingScheme, TableFiles } from "../../engine/engine.js";
import { StagedManifestMissing } from "../../engine/engine-errors.js";
import { commitConflicts, commits } from "../../metrics/metrics.js";
import type { CreateTableVersionRequest, TableVersion } from "../../model/versions.js";
import { isInsideLocation, normalizeLocation, parentLocation, resolveLocation, storeRootOf } from "../../storage/locations.js";
import type { ObjectInfo } from "../../storage/table-storage.js";
import type { TableRow, TableVersionRow } from "../../store/schema.js";
import type { Store, StoreTx } from "../../store/store.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope } from "../catalog-scope.js";
import { tableLabel } from "../identifiers.js";
import { clientLocationUnder } from "../table-locations.js";
import { requireTable } from "../table-lookup.js";
import { noteCommitted } from "../table-heads.js";
import { type BranchKey, branchKey, branchLabel, requireBranch, subjectOf } from "../table-refs.js";
import { parseNamingScheme, toTableVersion } from "./version-records.js";
import { recordChange } from "../change-events.js";

export type VersionEntry = Omit<CreateTableVersionRequest, "id" | "identity" | "context"> & { id: string[] };

/** A version record inserted by the current transaction, to be finalized after the commit. */
export interface PlannedVersion {
  id: string[];
  record: TableVersionRow;
  /** The table as the transaction saw it: finalizing still works if the batch deregisters it. */
  table: TableRow;
}

// ---- decide -------------------------------------------------------------------------------

/** Far above any real manifest (kilobytes to tens of megabytes for tables of many fragments). */
export const maxManifestBytes = 512 * 1024 * 1024;

/** An entry whose fields are checked, with its branch key and naming scheme parsed once. */
export type CheckedVersionEntry = VersionEntry & { branchKey: BranchKey; scheme: ManifestNamingScheme };

/** Field checks that need no store: naming scheme and branch name. Throws 13. */
export function validateVersionEntry(entry: VersionEntry): CheckedVersionEntry {
  return { ...entry, branchKey: branchKey(entry.branch), scheme: parseNamingScheme(entry.naming_scheme) };
}

/** An entry checked against storage, ready to be decided in a store transaction. */
export interface PreparedVersionEntry extends CheckedVersionEntry {
  /** The table as the checks saw it; the transaction requires the same table still. */
  table: TableRow;
  staged: string;
  final: string;
  /** The entry is the first commit of a branch that has no ref yet (see `branchTakesCommit`). */
  firstOfBranch: boolean;
}

const versionClash = (entry: CheckedVersionEntry) =>
  CatalogError.of("ConcurrentModification", `${tableLabel(entry.id)} already has version ${entry.version} on branch ${branchLabel(entry.branchKey)}`);

/**
 * The storage checks of one entry, made before its transaction so that no transaction waits on
 * storage. `rows` reads the table (outside a transaction, or inside one for a table the same batch
 * declared). Throws 1, 4 (table), 22 (branch), 13 (staged manifest missing or outside the table),
 * 14 (a manifest already holds the final name).
 */
export async function prepareVersionEntry(rows: StoreTx, scope: CatalogScope, entry: CheckedVersionEntry): Promise<PreparedVersionEntry> {
  const table = await requireTable(rows, scope.database.name, entry.id);
  const staged = await resolveStagedManifest(scope.storages, scope.engine.files, table, entry.manifest_path);
  const firstOfBranch = await branchTakesCommit(scope.engine.files, table, entry.branchKey, staged);
  const final = scope.engine.files.manifests.path(table.location, entry.branchKey, entry.version, entry.scheme);
  // A manifest at the final name was committed outside the catalog (e.g. by the engine).
  if (staged !== final && (await scope.engine.files.manifests.stat(final))) throw versionClash(entry);
  return { ...entry, table, staged, final, firstOfBranch };
}

/**
 * Decides one prepared entry inside `tx` and inserts its record; no storage I/O. Throws 4 (the
 * table went), 14 (the table was replaced, or the version exists), 22 (the branch's first commit
 * is another writer's).
 */
export async function insertVersionEntry(tx: StoreTx, scope: CatalogScope, entry: PreparedVersionEntry, transactionId: string): Promise<PlannedVersion> {
  const table = await requireTable(tx, scope.database.name, entry.id);
  if (table.id !== entry.table.id) throw CatalogError.of("ConcurrentModification", `${tableLabel(entry.id)} was replaced while the commit was checked; retry`);
  const { branchKey: branch, scheme, staged, final } = entry;
  if (entry.firstOfBranch) await settleFirstOfBranch(tx, table, branch);
  if (await tx.findTableVersion(table.id, branch, entry.version)) throw versionClash(entry);
  const record: TableVersionRow = {
    table_id: table.id,
    branch,
    version: entry.version,
    manifest_path: final,
    staged_path: staged,
    manifest_size: entry.manifest_size ?? null,
    e_tag: entry.e_tag ?? null,
    naming_scheme: scheme,
    metadata: entry.metadata ?? {},
    timestamp_millis: Date.now(),
    transaction_id: transactionId,
  };
  await tx.insertTableVersion(record);
  await recordChange(tx, {
    kind: "table.version.created",
    database: scope.database.name,
    object: entry.id,
    data: { operation: "CreateTableVersion", version: entry.version, ...(branch ? { branch } : {}), transaction_id: transactionId },
  });
  return { id: entry.id, record, table };
}

/**
 * Refuses a batch in which two entries name the same staged manifest: finalizing the first would
 * move the file away from the second. Call it inside the batch's transaction. Throws 13.
 */
export function refuseSharedStagedManifests(planned: readonly PlannedVersion[]): void {
  const seen = new Map<string, PlannedVersion>();
  for (const item of planned) {
    const staged = item.record.staged_path;
    if (staged === null) continue;
    const first = seen.get(staged);
    if (first) {
      throw invalidInput(`${tableLabel(first.id)} version ${first.record.version} and ${tableLabel(item.id)} version ${item.record.version} name the same staged manifest`);
    }
    seen.set(staged, item);
  }
}

/**
 * Resolves a client-named staged manifest (wire form, absolute, or `file://`) and requires it to
 * be a manifest file in a `_versions` folder of the table, ending like a Lance manifest: a client
 * may not have Quiver install, or delete, any other file.
 */
async function resolveStagedManifest(storages: Storages, files: TableFiles, table: TableRow, manifestPathText: string): Promise<string> {
  // Namespace clients name it below the store's root, without a leading `/` (spec/clients.md §3.3).
  const storeRoot = storeRootOf(table.location);
  const resolved = resolveLocation(storeRoot, clientLocationUnder(storages, storeRoot, manifestPathText, "manifest_path"));
  if (!isInsideLocation(normalizeLocation(table.location), resolved)) {
    throw invalidInput(`manifest_path '${manifestPathText}' is not inside the location of ${subjectOf(table)}`);
  }
  const check = await files.manifests.checkStaged(resolved, maxManifestBytes);
  if ("info" in check) return resolved;
  switch (check.refused) {
    case "not-a-manifest-name":
      throw invalidInput(`manifest_path '${manifestPathText}' does not name a manifest in a _versions folder of ${subjectOf(table)}`);
    case "missing":
      throw invalidInput(`staged manifest '${manifestPathText}' does not exist`);
    case "too-large":
      throw invalidInput(`staged manifest '${manifestPathText}' is ${check.size} bytes, more than a manifest's ${maxManifestBytes}`);
    case "not-lance":
      throw invalidInput(`staged manifest '${manifestPathText}' is not a Lance manifest`);
  }
}

/**
 * Lance creates a branch by committing the branch's first version (a shallow clone of the source)
 * and only then writing the branch's ref, so with managed versioning that first commit reaches the
 * catalog before the branch exists. A branch without a ref therefore accepts a commit while it has
 * no manifest yet and the staged manifest lies in the branch's own manifest folder (answers true:
 * the transaction settles it with `settleFirstOfBranch`); any other commit to an unknown branch is
 * refused with 22.
 */
async function branchTakesCommit(files: TableFiles, table: TableRow, branch: BranchKey, staged: string): Promise<boolean> {
  if (branch === "" || (await files.refs.branch(table.location, branch))) return false;
  const inBranchFolder = parentLocation(staged) === normalizeLocation(files.manifests.directory(table.location, branch));
  if (!inBranchFolder || (await files.manifests.list(table.location, branch)).length > 0) await requireBranch(files, table, branch);
  return true;
}

/** The store side of a branch's first commit: only one writer's may be pending. */
async function settleFirstOfBranch(tx: StoreTx, table: TableRow, branch: string): Promise<void> {
  const records = await tx.listTableVersions(table.id, branch);
  // A pending record is another writer's first commit still being put in place.
  if (records.some((record) => record.staged_path !== null)) throw CatalogError.of("TableBranchNotFound", `${subjectOf(table)} has no branch '${branch}'`);
  // Finalized records whose ref and manifests are gone outlived a branch deleted in storage (Lance
  // deletes branches itself); forgetting them lets the name be forked again.
  if (records.length > 0) await tx.deleteTableVersions(table.id, branch, records.map((record) => Number(record.version)));
}

// ---- finalize and undo --------------------------------------------------------------------

/**
 * What finalizing one record came to: the final manifest as stored, or "conflict" (a different
 * manifest already holds the final name: a commit made outside the catalog won), or "lost"
 * (neither the staged nor the final manifest exists any more).
 */
export type FinalizeOutcome = ObjectInfo | "conflict" | "lost";

/** Puts a committed version's staged manifest at its final name and marks the record done. */
export async function finalizeVersion(files: TableFiles, rows: StoreTx, table: TableRow, record: TableVersionRow): Promise<FinalizeOutcome> {
  if (record.staged_path !== null) {
    try {
      if ((await files.manifests.putIfAbsent(record.staged_path, record.manifest_path)) === "conflict") return "conflict";
    } catch (error) {
      if (error instanceof StagedManifestMissing) return "lost";
      throw error;
    }
  }
  const final = await files.manifests.stat(record.manifest_path);
  if (!final) return "lost";
  // The version is readable now: reads that trust the catalog's head move to it.
  await noteCommitted(rows, table.id, record.branch, record.version);
  if (record.staged_path === null) return final;
  const staged = record.staged_path;
  // The manifest is in place: the mark, the staged file's removal and the hint are independent
  // (a finalize repeated after a crash between them finds the final manifest and completes).
  await Promise.all([
    rows.finalizeTableVersion(record.table_id, record.branch, record.version, { manifest_size: final.size, e_tag: final.eTag }),
    staged !== record.manifest_path && files.manifests.isStaged(staged) ? files.manifests.remove(staged) : undefined,
    files.manifests.raiseVersionHint(table.location, branchKey(record.branch), record.version),
  ]);
  return final;
}

/**
 * Finalizes the versions of one committed transaction. If a manifest cannot be put in place (a
 * commit outside the catalog took the name, or the staged file vanished), the whole transaction
 * is undone — its records deleted, manifests it placed removed, its record marked Failed — and
 * 14 is thrown, so a batch still ends all or nothing.
 */
export async function finalizeCommitted(scope: CatalogScope, planned: PlannedVersion[], transactionId: string): Promise<TableVersion[]> {
  const versions: TableVersion[] = [];
  for (const [index, item] of planned.entries()) {
    const outcome = await finalizeVersion(scope.engine.files, scope.store.rows, item.table, item.record);
    if (outcome === "conflict" || outcome === "lost") {
      commitConflicts.inc({ kind: "managed", outcome: "refused" });
      await undoCommitted(scope, planned, planned.slice(0, index), transactionId);
      throw CatalogError.of(
        "ConcurrentModification",
        `${tableLabel(item.id)} version ${item.record.version} was committed by another writer; nothing of this commit was applied`,
      );
    }
    const file = { version: item.record.version, path: item.record.manifest_path, scheme: item.record.naming_scheme as ManifestNamingScheme, ...outcome };
    versions.push(toTableVersion(file, { ...item.record, staged_path: null }));
  }
  commits.inc({ kind: "managed" }, versions.length);
  return versions;
}

async function undoCommitted(scope: CatalogScope, planned: PlannedVersion[], placed: PlannedVersion[], transactionId: string): Promise<void> {
  for (const item of placed) await scope.engine.files.manifests.remove(item.record.manifest_path);
  await scope.store.transaction(async (tx) => {
    for (const item of planned) {
      await tx.deleteTableVersions(item.record.table_id, item.record.branch, [item.record.version]);
      // Its creation's event is out already: consumers learn the version did not stand.
      await recordChange(tx, {
        kind: "table.version.undone",
        database: scope.database.name,
        object: item.id,
        data: { version: item.record.version, ...(item.record.branch ? { branch: item.record.branch } : {}), transaction_id: transactionId },
      });
    }
    await tx.updateTransaction(transactionId, { status: "Failed", updated_at: Date.now() });
  });
}

// ---- roll forward -------------------------------------------------------------------------

/**
 * Rolls forward every committed-but-unfinalized version of one table (or of all tables), so a
 * reader never sees part of a batch. Returns what happened to each record.
 */
export async function settlePendingVersions(
  files: TableFiles,
  store: Store,
  tableId?: string,
  onError?: (record: TableVersionRow, error: unknown) => void,
): Promise<Map<TableVersionRow, FinalizeOutcome>> {
  const outcomes = new Map<TableVersionRow, FinalizeOutcome>();
  const pending = await store.rows.listPendingTableVersions(tableId);
  for (const record of pending) {
    const table = await store.rows.findTableById(record.table_id);
    if (!table) continue;
    try {
      outcomes.set(record, await finalizeVersion(files, store.rows, table, record));
    } catch (error) {
      // One record that cannot be finalized now (storage unreachable) must not stop start-up or
      // the other tables' roll-forward; it stays pending and is tried again by its next reader.
      if (!onError) throw error;
      onError(record, error);
    }
  }
  return outcomes;
}
