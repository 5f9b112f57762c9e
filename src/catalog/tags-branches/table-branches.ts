/**
 * @module Branch operations (spec/endpoints.md §9, spec/concepts.md §7). Branches are Lance's
 * own: each keeps its manifests under `tree/<name>/_versions/` and its ref in `_refs/branches/`.
 */
import type {
  BranchContents,
  CherryPickTableBranchRequest,
  CherryPickTableBranchResponse,
  DiffTableBranchRequest,
  DiffTableBranchResponse,
  CreateTableBranchRequest,
  CreateTableBranchResponse,
  DeleteTableBranchRequest,
  DeleteTableBranchResponse,
  ListTableBranchesRequest,
  ListTableBranchesResponse,
} from "../../model/branches.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { tableLabel, namespaceIdOfKey } from "../identifiers.js";
import { readersOfBranch } from "../shared-table-data.js";
import { requireTable } from "../table-lookup.js";
import { branchKey, branchLabel, branchName, requireBranch } from "../table-refs.js";
import { recordTransaction } from "../transaction-records.js";
import { refPage } from "./ref-pages.js";

/** ListTableBranches: branch name → contents (camelCase, `createAt` in seconds), paged. Throws 1, 4. */
export async function listTableBranches(scope: CatalogScope, request: WithId<ListTableBranchesRequest>): Promise<ListTableBranchesResponse> {
  const { byName: branches, page_token } = await refPage(scope, request, (location) => scope.engine.files.refs.branches(location), (branch) => {
    const contents: BranchContents = {
      parentVersion: branch.parentVersion,
      createAt: branch.createAt,
      manifestSize: branch.manifestSize,
      metadata: branch.metadata,
    };
    if (branch.parentBranch) contents.parentBranch = branch.parentBranch;
    return contents;
  });
  return page_token === undefined ? { branches } : { branches, page_token };
}

/**
 * CreateTableBranch: forks `name` from `from_branch` (default main) at `from_version` (default
 * its latest). Throws 1, 4, 11 (no such version), 13 (bad name), 22 (source branch missing),
 * 23 (name taken).
 */
export async function createTableBranch(scope: CatalogScope, request: WithId<CreateTableBranchRequest>): Promise<CreateTableBranchResponse> {
  // validate
  const name = branchName(request.name, "branch name");
  if (branchKey(name) === "") throw invalidInput("'main' is the main branch and cannot be created");
  const source = branchKey(request.from_branch);
  const subject = tableLabel(request.id);
  return translating(subject, async () => {
    // load
    const table = await requireTable(scope.store.rows, scope.database.name, request.id);
    // decide
    if (await scope.engine.files.refs.branch(table.location, name)) {
      throw CatalogError.of("TableBranchAlreadyExists", `${subject} already has a branch '${request.name}'`);
    }
    await requireBranch(scope.engine.files, table, source);
    const versions = (await scope.engine.files.manifests.list(table.location, source)).map((name) => name.version);
    if (versions.length === 0) throw CatalogError.of("TableVersionNotFound", `${subject} has no version to branch from yet`);
    if (request.from_version != null && !versions.includes(request.from_version)) {
      throw CatalogError.of("TableVersionNotFound", `${subject} has no version ${request.from_version} on branch ${branchLabel(source)}`);
    }
    // write
    await scope.engine.refs.createBranch(table.location, name, source || null, request.from_version ?? null);
    const transactionId = await scope.store.transaction((tx) =>
      recordTransaction(tx, scope.database.name, "CreateTableBranch", {
        table: request.id.join("$"),
        branch: request.name,
        from_branch: source || "main",
      }),
    );
    return { transaction_id: transactionId };
  });
}

/**
 * DeleteTableBranch: removes the branch, its manifests and its version records. A branch that
 * tags still point into is refused with 19 (delete or move the tags first). Throws 1, 4, 19, 22.
 */
export async function deleteTableBranch(scope: CatalogScope, request: WithId<DeleteTableBranchRequest>): Promise<DeleteTableBranchResponse> {
  const branch = branchKey(request.name);
  if (branch === "") throw invalidInput("the main branch cannot be deleted");
  const subject = tableLabel(request.id);
  return translating(subject, async () => {
    const table = await requireTable(scope.store.rows, scope.database.name, request.id);
    await requireBranch(scope.engine.files, table, branch);
    const tags = (await scope.engine.files.refs.tags(table.location)).filter((tag) => tag.branch === branch).map((tag) => tag.name);
    if (tags.length > 0) {
      throw CatalogError.of("InvalidTableState", `branch '${branch}' of ${subject} is still tagged (${tags.join(", ")}); delete or move those tags first`);
    }
    const clones = await cloneNames(scope, await readersOfBranch(scope.store.rows, scope.database.name, table.location, branch));
    if (clones.length > 0) {
      throw CatalogError.of("InvalidTableState", `branch '${branch}' of ${subject} holds data files that clones read (${clones.join(", ")}); drop those tables first`);
    }
    await scope.engine.refs.deleteBranch(table.location, branch);
    const transactionId = await scope.store.transaction(async (tx) => {
      const versions = (await tx.listTableVersions(table.id, branch)).map((row) => Number(row.version));
      await tx.deleteTableVersions(table.id, branch, versions);
      return recordTransaction(tx, scope.database.name, "DeleteTableBranch", { table: request.id.join("$"), branch });
    });
    return { transaction_id: transactionId };
  });
}

/** The ids (`ns$name`) of the tables with the given row ids, sorted. */
async function cloneNames(scope: CatalogScope, tableIds: readonly string[]): Promise<string[]> {
  const rows = await Promise.all(tableIds.map((tableId) => scope.store.rows.findTableById(tableId)));
  return rows
    .filter((row) => row !== undefined)
    .map((row) => [...namespaceIdOfKey(row.namespace_path), row.name].join("$"))
    .sort();
}

/**
 * Finds the table and `from_branch`, then refuses: Lance's branch diffs and cherry-picks are
 * offered only by its managed (Enterprise) tables, not by the open-source engine this server runs.
 */
async function refuseBranchMerge(scope: CatalogScope, id: string[], fromBranch: string, what: string): Promise<never> {
  const branch = branchKey(fromBranch);
  await translating(tableLabel(id), async () => {
    const table = await requireTable(scope.store.rows, scope.database.name, id);
    await requireBranch(scope.engine.files, table, branch);
  });
  throw CatalogError.of("Unsupported", `${what} is not supported: Lance offers it only on its managed (Enterprise) tables, not in the open-source engine this server runs`);
}

/** DiffTableBranch: Unsupported (0) once the table and branch are found. Throws 0, 1, 4, 22. */
export async function diffTableBranch(scope: CatalogScope, request: WithId<DiffTableBranchRequest>): Promise<DiffTableBranchResponse> {
  return refuseBranchMerge(scope, request.id, request.from_branch, "diffing branches");
}

/** CherryPickTableBranch: Unsupported (0) once the table and branch are found, dry runs too. Throws 0, 1, 4, 22. */
export async function cherryPickTableBranch(scope: CatalogScope, request: WithId<CherryPickTableBranchRequest>): Promise<CherryPickTableBranchResponse> {
  return refuseBranchMerge(scope, request.id, request.from_branch, "cherry-picking a branch");
}
