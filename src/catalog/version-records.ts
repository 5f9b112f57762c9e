/**
 * @module What the version operations share: branch and manifest path rules, turning records
 * and manifest files into `TableVersion`s, and finalizing a committed version (putting its
 * staged manifest at the final name). Finalizing is idempotent, so a reader, the writer and
 * start-up recovery may all attempt it.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ManifestFile, type ManifestNamingScheme, hasLanceFooter, isRegularFile, manifestPath, putManifestIfAbsent, raiseVersionHint, removeFile, statManifest } from "../engine/manifests.js";
import { readBranch } from "../engine/refs.js";
import { parseMode } from "../model/modes.js";
import { ManifestNamingSchemes, type TableVersion } from "../model/versions.js";
import { fromJsonColumn } from "../store/rows/json-columns.js";
import type { TableRow, TableVersionRow } from "../store/schema.js";
import type { Store, StoreTx } from "../store/store.js";
import { CatalogError, invalidInput } from "./catalog-error.js";
import { describeTable } from "./identifiers.js";

const refNamePattern = /^[A-Za-z0-9_.-]+$/;

/** Refuses a tag or branch name Quiver would not store safely (it names a file under `_refs/`). */
export function validateRefName(name: string, what: "tag" | "branch"): void {
  if (!refNamePattern.test(name) || name === "." || name === ".." || name.length > 256) {
    throw invalidInput(`${what} name '${name}' may contain only letters, digits, '_', '-' and '.'`);
  }
}

/** Store key of a branch: "" for main (absent, null, "" or "main"). */
export function branchKey(branch: string | null | undefined): string {
  if (branch == null || branch === "" || branch === "main") return "";
  validateRefName(branch, "branch");
  return branch;
}

export function branchLabel(branch: string): string {
  return branch === "" ? "main" : `'${branch}'`;
}

/** Throws TableBranchNotFound (22) unless the branch is main or exists. */
export async function requireBranch(table: TableRow, branch: string): Promise<void> {
  if (branch === "") return;
  if (!(await readBranch(table.location, branch))) {
    throw CatalogError.of("TableBranchNotFound", `${subjectOf(table)} has no branch '${branch}'`);
  }
}

export function parseNamingScheme(value: string | null | undefined): ManifestNamingScheme {
  const scheme = parseMode(value, ManifestNamingSchemes);
  if (scheme === null) throw invalidInput(`naming_scheme must be V1 or V2; got ${JSON.stringify(value)}`);
  return scheme ?? "V2";
}

/** A manifest file name: `<n>.manifest`, or a staged one, `<n>.manifest-<suffix>`. */
const manifestNamePattern = /^\d+\.manifest(-[A-Za-z0-9_.-]+)?$/;

/** Whether a path names a staged manifest (which finalizing may delete), not a final one. */
export function isStagedManifestName(file: string): boolean {
  return /^\d+\.manifest-[A-Za-z0-9_.-]+$/.test(path.basename(file));
}

/**
 * Resolves a client-named staged manifest (wire form, absolute, or `file://`) and requires it to
 * be a manifest file in a `_versions` folder of the table, ending like a Lance manifest: a client
 * may not have Quiver install, or delete, any other file.
 */
export async function resolveStagedManifest(table: TableRow, manifestPathText: string): Promise<string> {
  let candidate = manifestPathText.trim();
  if (candidate.startsWith("file://")) {
    try {
      candidate = fileURLToPath(candidate);
    } catch {
      throw invalidInput(`manifest_path '${manifestPathText}' is not a valid file URI`);
    }
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(candidate)) {
    throw invalidInput(`manifest_path '${manifestPathText}' uses a storage scheme this deployment does not serve`);
  }
  if (candidate.includes("\0")) throw invalidInput("manifest_path must not contain NUL characters");
  const resolved = path.resolve("/", candidate);
  const relative = path.relative(table.location, resolved);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) {
    throw invalidInput(`manifest_path '${manifestPathText}' is not inside the location of ${subjectOf(table)}`);
  }
  if (path.basename(path.dirname(resolved)) !== "_versions" || !manifestNamePattern.test(path.basename(resolved))) {
    throw invalidInput(`manifest_path '${manifestPathText}' does not name a manifest in a _versions folder of ${subjectOf(table)}`);
  }
  if (!(await isRegularFile(resolved))) throw invalidInput(`staged manifest '${manifestPathText}' does not exist`);
  // Committing anything else would leave a version Lance cannot open.
  if (!(await hasLanceFooter(resolved))) throw invalidInput(`staged manifest '${manifestPathText}' is not a Lance manifest`);
  return resolved;
}

export function subjectOf(table: TableRow): string {
  return describeTable([...(table.namespace_path === "" ? [] : table.namespace_path.split("/")), table.name]);
}

export function finalManifestPath(table: TableRow, branch: string, version: number, scheme: ManifestNamingScheme): string {
  return manifestPath(table.location, branch, version, scheme);
}

/**
 * A version as the wire shows it: a manifest file, with what the record knows laid over it. The
 * manifest path is absolute, like the table's location (Lance reads `/a/b` and `a/b` alike).
 */
export function toTableVersion(file: ManifestFile | undefined, record: TableVersionRow | undefined): TableVersion {
  const version = (file?.version ?? record?.version) as number;
  const out: TableVersion = { version, manifest_path: file?.path ?? (record?.manifest_path as string) };
  const size = file?.size ?? record?.manifest_size ?? undefined;
  if (size != null) out.manifest_size = Number(size);
  const eTag = file?.eTag ?? record?.e_tag ?? undefined;
  if (eTag) out.e_tag = eTag;
  const timestamp = record?.timestamp_millis ?? file?.modifiedMillis;
  if (timestamp != null) out.timestamp_millis = Math.floor(Number(timestamp));
  out.metadata = record ? fromJsonColumn(record.metadata) : {};
  return out;
}

export type FinalizeOutcome = "finalized" | "conflict" | "lost";

/**
 * Puts a committed version's staged manifest at its final name and marks the record done.
 * "conflict": a different manifest already holds the final name (a commit made outside the
 * catalog won); "lost": neither the staged nor the final manifest exists any more.
 */
export async function finalizeVersion(rows: StoreTx, table: TableRow, record: TableVersionRow): Promise<FinalizeOutcome> {
  if (record.staged_path === null) return "finalized";
  let outcome: Awaited<ReturnType<typeof putManifestIfAbsent>>;
  try {
    outcome = await putManifestIfAbsent(record.staged_path, record.manifest_path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "lost";
    throw error;
  }
  if (outcome === "conflict") return "conflict";
  const final = await statManifest(record.manifest_path);
  if (!final) return "lost";
  await rows.finalizeTableVersion(record.table_id, record.branch, record.version, { manifest_size: final.size, e_tag: final.eTag });
  if (record.staged_path !== record.manifest_path && isStagedManifestName(record.staged_path)) await removeFile(record.staged_path);
  await raiseVersionHint(table.location, record.branch, record.version);
  return "finalized";
}

/**
 * Rolls forward every committed-but-unfinalized version of one table (or of all tables), so a
 * reader never sees part of a batch. Returns what happened to each record.
 */
export async function settlePendingVersions(store: Store, tableId?: string): Promise<Map<TableVersionRow, FinalizeOutcome>> {
  const outcomes = new Map<TableVersionRow, FinalizeOutcome>();
  const pending = await store.rows.listPendingTableVersions(tableId);
  for (const record of pending) {
    const table = await store.rows.findTableById(record.table_id);
    if (!table) continue;
    outcomes.set(record, await finalizeVersion(store.rows, table, record));
  }
  return outcomes;
}
