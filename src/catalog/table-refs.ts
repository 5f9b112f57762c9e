/**
 * @module The branch, version or tag a request addresses: tag and branch name rules, the store
 * key and label of a branch, the check that a branch exists, the engine's ref of a request, and
 * the meaning of the engine's "not found" errors for what the request named.
 */
import type { EngineErrorKind } from "../engine/engine-errors.js";
import type { TableFiles, TableRef } from "../engine/engine.js";
import type { TableRow } from "../store/schema.js";
import { CatalogError, invalidInput } from "../model/catalog-error.js";
import { tableLabel } from "./identifiers.js";
import { declaredOnly } from "./table-lookup.js";

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
export async function requireBranch(files: TableFiles, table: TableRow, branch: string): Promise<void> {
  if (branch === "") return;
  if (!(await files.refs.branch(table.location, branch))) {
    throw CatalogError.of("TableBranchNotFound", `${subjectOf(table)} has no branch '${branch}'`);
  }
}

export function subjectOf(table: TableRow): string {
  return tableLabel([...(table.namespace_path === "" ? [] : table.namespace_path.split("/")), table.name]);
}

export interface VersionedRequest {
  version?: number | null;
  branch?: string | null;
}

export function refOf(request: VersionedRequest): TableRef {
  return { version: request.version ?? null, branch: request.branch || null };
}

/**
 * Engine "not found" kinds, phrased for the table, version and branch the request named. Getters: the
 * errors (and their stack traces) are built only when a request fails, not on every read.
 */
export function refOverrides(subject: string, ref: TableRef): Partial<Record<EngineErrorKind, CatalogError>> {
  const noBranch = () => CatalogError.of("TableBranchNotFound", `${subject} has no branch '${ref.branch ?? ""}'`);
  return {
    // Lance reports a missing branch as a missing versions folder under the branch tree.
    get "version-not-found"() {
      return ref.branch && ref.version == null ? noBranch() : CatalogError.of("TableVersionNotFound", `${subject} has no version ${ref.version ?? ""}`.trim());
    },
    get "branch-not-found"() {
      return noBranch();
    },
    // The catalog has the table, so no dataset at its location means it is declared only.
    get "dataset-not-found"() {
      return declaredOnly(subject);
    },
  };
}
