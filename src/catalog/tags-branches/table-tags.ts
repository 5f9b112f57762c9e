/**
 * @module Tag operations (spec/endpoints.md §8, spec/concepts.md §7). Tags are Lance's own refs:
 * changes go through Lance, listings read its ref files (which keep the tag's branch).
 */
import type {
  CreateTableTagRequest,
  CreateTableTagResponse,
  DeleteTableTagRequest,
  DeleteTableTagResponse,
  GetTableTagVersionRequest,
  GetTableTagVersionResponse,
  ListTableTagsRequest,
  ListTableTagsResponse,
  TagContents,
  UpdateTableTagRequest,
  UpdateTableTagResponse,
} from "../../model/tags.js";
import type { TableRow } from "../../store/schema.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { tableLabel } from "../identifiers.js";
import { requireTable } from "../table-lookup.js";
import { type BranchKey, branchKey, branchLabel, requireBranch, tagName } from "../table-refs.js";
import { recordTransaction } from "../transaction-records.js";
import { refPage } from "./ref-pages.js";

function tagNotFound(id: readonly string[], tag: string): CatalogError {
  return CatalogError.of("TableTagNotFound", `${tableLabel(id)} has no tag '${tag}'`);
}

/** A tag's version must be a non-negative integer (service description: Limits). Throws 13. */
function validateTagVersion(version: number): void {
  if (!Number.isInteger(version) || version < 0) throw invalidInput(`tag version must be an integer >= 0; got ${version}`);
}

async function record(scope: CatalogScope, operation: string, id: string[], properties: Record<string, string>): Promise<string> {
  return scope.store.transaction((tx) => recordTransaction(tx, scope.database.name, operation, { table: id.join("$"), ...properties }));
}

/** ListTableTags: tag name → `{version, manifestSize, branch?}`, by name, paged. Throws 1, 4. */
export async function listTableTags(scope: CatalogScope, request: WithId<ListTableTagsRequest>): Promise<ListTableTagsResponse> {
  const { byName: tags, page_token } = await refPage(scope, request, (location) => scope.engine.files.refs.tags(location), (tag) => {
    const contents: TagContents = { version: tag.version, manifestSize: tag.manifestSize };
    if (tag.branch) contents.branch = tag.branch;
    return contents;
  });
  return page_token === undefined ? { tags } : { tags, page_token };
}

/** GetTableTagVersion: the tag's version and its branch's name, `main` for the main branch. Throws 1, 4, 8. */
export async function getTableTagVersion(scope: CatalogScope, request: WithId<GetTableTagVersionRequest>): Promise<GetTableTagVersionResponse> {
  const name = tagName(request.tag);
  return translating(tableLabel(request.id), async () => {
    const table = await requireTable(scope.store.rows, scope.database.name, request.id);
    const tag = await scope.engine.files.refs.tag(table.location, name);
    if (!tag) throw tagNotFound(request.id, request.tag);
    return { version: tag.version, branch: tag.branch || "main" };
  });
}

/** Loads the table and checks that it has data and that the branch exists. */
async function loadTagTarget(scope: CatalogScope, id: string[], branchName: string | null | undefined): Promise<{ table: TableRow; branch: BranchKey }> {
  const table = await requireTable(scope.store.rows, scope.database.name, id);
  const branch = branchKey(branchName);
  await requireBranch(scope.engine.files, table, branch);
  return { table, branch };
}

function versionNotFound(id: readonly string[], version: number, branch: string): CatalogError {
  return CatalogError.of("TableVersionNotFound", `${tableLabel(id)} has no version ${version} on branch ${branchLabel(branch)}`);
}

/**
 * CreateTableTag: points a new tag at `version` of `branch` (default main). Throws 1, 4,
 * 9 (the tag exists), 11 (no such version), 13 (version < 0), 22.
 */
export async function createTableTag(scope: CatalogScope, request: WithId<CreateTableTagRequest>): Promise<CreateTableTagResponse> {
  // validate
  const name = tagName(request.tag);
  validateTagVersion(request.version);
  const subject = tableLabel(request.id);
  return translating(subject, async () => {
    // load + decide
    const { table, branch } = await loadTagTarget(scope, request.id, request.branch);
    if (await scope.engine.files.refs.tag(table.location, name)) throw CatalogError.of("TableTagAlreadyExists", `${subject} already has a tag '${request.tag}'`);
    if (!(await scope.engine.datasetExists(table.location))) throw versionNotFound(request.id, request.version, branch);
    // write
    await scope.engine.refs.createTag(table.location, name, request.version, branch || null);
    return { transaction_id: await record(scope, "CreateTableTag", request.id, { tag: request.tag, version: String(request.version) }) };
  }, {
    "version-not-found": versionNotFound(request.id, request.version, branchKey(request.branch)),
    "dataset-not-found": versionNotFound(request.id, request.version, branchKey(request.branch)),
    "tag-exists": CatalogError.of("TableTagAlreadyExists", `${subject} already has a tag '${request.tag}'`),
  });
}

/** UpdateTableTag: re-points an existing tag. Throws 1, 4, 8, 11, 13, 22. */
export async function updateTableTag(scope: CatalogScope, request: WithId<UpdateTableTagRequest>): Promise<UpdateTableTagResponse> {
  const name = tagName(request.tag);
  validateTagVersion(request.version);
  return translating(tableLabel(request.id), async () => {
    const { table, branch } = await loadTagTarget(scope, request.id, request.branch);
    if (!(await scope.engine.files.refs.tag(table.location, name))) throw tagNotFound(request.id, request.tag);
    await scope.engine.refs.updateTag(table.location, name, request.version, branch || null);
    return { transaction_id: await record(scope, "UpdateTableTag", request.id, { tag: request.tag, version: String(request.version) }) };
  }, {
    "version-not-found": versionNotFound(request.id, request.version, branchKey(request.branch)),
    "tag-not-found": tagNotFound(request.id, request.tag),
  });
}

/** DeleteTableTag: removes the tag; the version it pointed at stays. Throws 1, 4, 8. */
export async function deleteTableTag(scope: CatalogScope, request: WithId<DeleteTableTagRequest>): Promise<DeleteTableTagResponse> {
  const name = tagName(request.tag);
  return translating(tableLabel(request.id), async () => {
    const table = await requireTable(scope.store.rows, scope.database.name, request.id);
    if (!(await scope.engine.files.refs.tag(table.location, name))) throw tagNotFound(request.id, request.tag);
    await scope.engine.refs.deleteTag(table.location, name);
    return { transaction_id: await record(scope, "DeleteTableTag", request.id, { tag: request.tag }) };
  }, { "tag-not-found": tagNotFound(request.id, request.tag) });
}
