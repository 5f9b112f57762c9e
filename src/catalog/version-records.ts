/**
 * @module What the version operations share besides committing: branch and ref-name rules, the
 * naming scheme a request asks for, and turning records and manifest files into the wire's
 * `TableVersion`.
 */
import { type ManifestFile, type ManifestNamingScheme } from "../engine/manifests.js";
import { readBranch } from "../engine/refs.js";
import { parseMode } from "../model/modes.js";
import { ManifestNamingSchemes, type TableVersion } from "../model/versions.js";
import { fromJsonColumn } from "../store/rows/json-columns.js";
import type { TableRow, TableVersionRow } from "../store/schema.js";
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

export function subjectOf(table: TableRow): string {
  return describeTable([...(table.namespace_path === "" ? [] : table.namespace_path.split("/")), table.name]);
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
