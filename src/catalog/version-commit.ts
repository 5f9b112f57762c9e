/**
 * @module The commit path shared by CreateTableVersion, BatchCreateTableVersions and
 * BatchCommitTables (spec/concepts.md §6.3): inside one store transaction each entry is checked
 * and its record inserted with the staged manifest noted (the unique (table, branch, version)
 * key is the put-if-not-exists); after the commit the manifests are put at their final names.
 * A crash between the two is rolled forward at start-up or by the next reader.
 */
import path from "node:path";
import { listManifestNames, removeFile, statManifest, versionsDirectory } from "../engine/manifests.js";
import { readBranch } from "../engine/refs.js";
import type { CreateTableVersionRequest, TableVersion } from "../model/versions.js";
import { toJsonColumn } from "../store/rows/json-columns.js";
import type { TableRow, TableVersionRow } from "../store/schema.js";
import type { StoreTx } from "../store/store.js";
import { CatalogError, invalidInput } from "./catalog-error.js";
import type { CatalogScope } from "./catalog-scope.js";
import { describeTable } from "./identifiers.js";
import { requireTable } from "./lookups.js";
import {
  branchKey,
  branchLabel,
  finalManifestPath,
  finalizeVersion,
  parseNamingScheme,
  requireBranch,
  resolveStagedManifest,
  toTableVersion,
} from "./version-records.js";

export type VersionEntry = Omit<CreateTableVersionRequest, "id" | "identity" | "context"> & { id: string[] };

/** A version record inserted by the current transaction, to be finalized after the commit. */
export interface PlannedVersion {
  id: string[];
  record: TableVersionRow;
  /** The table as the transaction saw it: finalizing still works if the batch deregisters it. */
  table: TableRow;
}

/** Field checks that need no store: naming scheme and branch name. Throws 13. */
export function validateVersionEntry(entry: VersionEntry): void {
  parseNamingScheme(entry.naming_scheme);
  branchKey(entry.branch);
}

/**
 * Decides one entry inside `tx` and inserts its record. Throws 1, 4 (table), 22 (branch),
 * 13 (staged manifest missing or outside the table), 14 (the version exists).
 */
export async function insertVersionEntry(tx: StoreTx, scope: CatalogScope, entry: VersionEntry, transactionId: string): Promise<PlannedVersion> {
  const table = await requireTable(tx, scope.database.name, entry.id);
  const branch = branchKey(entry.branch);
  const scheme = parseNamingScheme(entry.naming_scheme);
  const staged = await resolveStagedManifest(table, entry.manifest_path);
  await requireBranchOrItsFirstCommit(tx, table, branch, staged);
  const final = finalManifestPath(table, branch, entry.version, scheme);
  const clash = () =>
    CatalogError.of("ConcurrentModification", `${describeTable(entry.id)} already has version ${entry.version} on branch ${branchLabel(branch)}`);
  if (await tx.findTableVersion(table.id, branch, entry.version)) throw clash();
  // A manifest at the final name was committed outside the catalog (e.g. by the engine).
  if (staged !== final && (await statManifest(final))) throw clash();
  const record: TableVersionRow = {
    table_id: table.id,
    branch,
    version: entry.version,
    manifest_path: final,
    staged_path: staged,
    manifest_size: entry.manifest_size ?? null,
    e_tag: entry.e_tag ?? null,
    naming_scheme: scheme,
    metadata: toJsonColumn(entry.metadata ?? {}),
    timestamp_millis: Date.now(),
    transaction_id: transactionId,
  };
  await tx.insertTableVersion(record);
  return { id: entry.id, record, table };
}

/**
 * Lance creates a branch by committing the branch's first version (a shallow clone of the source)
 * and only then writing the branch's ref, so with managed versioning that first commit reaches the
 * catalog before the branch exists. A branch without a ref therefore accepts a commit while it has
 * no manifest yet and the staged manifest lies in the branch's own manifest folder; any other
 * commit to an unknown branch is refused with 22.
 */
async function requireBranchOrItsFirstCommit(tx: StoreTx, table: TableRow, branch: string, staged: string): Promise<void> {
  if (branch === "" || (await readBranch(table.location, branch))) return;
  const inBranchFolder = path.dirname(staged) === versionsDirectory(table.location, branch);
  if (!inBranchFolder || (await listManifestNames(table.location, branch)).length > 0) return requireBranch(table, branch);
  const records = await tx.listTableVersions(table.id, branch);
  // A pending record is another writer's first commit still being put in place.
  if (records.some((record) => record.staged_path !== null)) return requireBranch(table, branch);
  // Finalized records whose ref and manifests are gone outlived a branch deleted in storage (Lance
  // deletes branches itself); forgetting them lets the name be forked again.
  if (records.length > 0) await tx.deleteTableVersions(table.id, branch, records.map((record) => Number(record.version)));
}

/**
 * Finalizes the versions of one committed transaction. If a manifest cannot be put in place (a
 * commit outside the catalog took the name, or the staged file vanished), the whole transaction
 * is undone — its records deleted, manifests it placed removed, its record marked Failed — and
 * 14 is thrown, so a batch still ends all or nothing.
 */
export async function finalizeCommitted(scope: CatalogScope, planned: PlannedVersion[], transactionId: string): Promise<TableVersion[]> {
  const placed: PlannedVersion[] = [];
  let failed: PlannedVersion | undefined;
  for (const item of planned) {
    const outcome = await finalizeVersion(scope.store.rows, item.table, item.record);
    if (outcome !== "finalized") {
      failed = item;
      break;
    }
    placed.push(item);
  }
  if (failed) {
    await undoCommitted(scope, planned, placed, transactionId);
    throw CatalogError.of(
      "ConcurrentModification",
      `${describeTable(failed.id)} version ${failed.record.version} was committed by another writer; nothing of this commit was applied`,
    );
  }
  const versions: TableVersion[] = [];
  for (const item of planned) {
    const stats = await statManifest(item.record.manifest_path);
    const file = stats && { version: item.record.version, path: item.record.manifest_path, scheme: item.record.naming_scheme as "V1" | "V2", ...stats };
    versions.push(toTableVersion(file, { ...item.record, staged_path: null }));
  }
  return versions;
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
      throw invalidInput(`${describeTable(first.id)} version ${first.record.version} and ${describeTable(item.id)} version ${item.record.version} name the same staged manifest`);
    }
    seen.set(staged, item);
  }
}

async function undoCommitted(scope: CatalogScope, planned: PlannedVersion[], placed: PlannedVersion[], transactionId: string): Promise<void> {
  for (const item of placed) await removeFile(item.record.manifest_path);
  await scope.store.transaction(async (tx) => {
    for (const item of planned) await tx.deleteTableVersions(item.record.table_id, item.record.branch, [item.record.version]);
    await tx.updateTransaction(transactionId, { status: "Failed", updated_at: Date.now() });
  });
}
