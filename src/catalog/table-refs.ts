/**
 * @module The branch, version or tag a request addresses: tag and branch name rules, the store
 * key and label of a branch, the check that a branch exists, the engine's ref of a request, and
 * the meaning of the engine's "not found" errors for what the request named.
 */
import type { EngineErrorKind } from "../engine/engine-errors.js";
import type { TableFiles, TableRef } from "../engine/engine.js";
import type { TableRow } from "../store/schema.js";
import { CatalogError } from "../model/catalog-error.js";
import { type BranchName, type TagName, pathName } from "../model/path-names.js";
import { tableLabel } from "./identifiers.js";
import { declaredOnly } from "./table-lookup.js";

/** A tag name as a request sent it, checked (it names a file under `_refs/tags/`). Throws 13. */
export function tagName(name: unknown, field = "tag"): TagName {
  return pathName("tag", name, field);
}

/** A branch name as a request sent it, checked (it names `_refs/branches/<name>.json` and `tree/<name>/`). Throws 13. */
export function branchName(name: unknown, field = "branch"): BranchName {
  return pathName("branch", name, field);
}

/** A branch a request may name: its checked name, or null when it names none. Throws 13. */
export function optionalBranch(name: string | null | undefined, field = "branch"): BranchName | null {
  return name ? branchName(name, field) : null;
}

/** A tag a request may name: its checked name, or null when it names none. Throws 13. */
export function optionalTag(name: string | null | undefined, field = "tag"): TagName | null {
  return name ? tagName(name, field) : null;
}

/** Store key of a branch: "" for main (absent, null, "" or "main"), else the checked name. Throws 13. */
export function branchKey(branch: string | null | undefined): BranchKey {
  if (branch == null || branch === "" || branch === "main") return "";
  return branchName(branch);
}

/** A branch as the store keys it: "" for main. */
export type BranchKey = BranchName | "";

export function branchLabel(branch: string): string {
  return branch === "" ? "main" : `'${branch}'`;
}

/** Throws TableBranchNotFound (22) unless the branch is main or exists. */
export async function requireBranch(files: TableFiles, table: TableRow, branch: BranchKey): Promise<void> {
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

/** The engine's ref of a request: its version and branch, the branch name checked (13). */
export function refOf(request: VersionedRequest): TableRef {
  return { version: request.version ?? null, branch: optionalBranch(request.branch) };
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
