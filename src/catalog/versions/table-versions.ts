/**
 * @module Version operations on one table (spec/endpoints.md §4.1–4.4): ListTableVersions,
 * DescribeTableVersion, CreateTableVersion, BatchDeleteTableVersions. A version exists while its
 * manifest is in place under the branch's `_versions/`; the store's record of a version committed
 * through the catalog adds its metadata and makes the commit atomic (docs/versions.md).
 */
import type { ManifestName, TableFiles } from "../../engine/engine.js";
import type {
  BatchDeleteTableVersionsRequest,
  BatchDeleteTableVersionsResponse,
  CreateTableVersionRequest,
  CreateTableVersionResponse,
  DescribeTableVersionRequest,
  DescribeTableVersionResponse,
  ListTableVersionsRequest,
  ListTableVersionsResponse,
  TableVersion,
  VersionRange,
} from "../../model/versions.js";
import type { TableRow, TableVersionRow } from "../../store/schema.js";
import type { StoreTx } from "../../store/store.js";
import { versionsRead } from "../shared-table-data.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { tableLabel } from "../identifiers.js";
import { requireTable } from "../table-lookup.js";
import { branchKey, branchLabel, requireBranch } from "../table-refs.js";
import { toTableVersion } from "./version-records.js";
import { recordTransaction } from "../transaction-records.js";
import { finalizeCommitted, insertVersionEntry, prepareVersionEntry, settlePendingVersions, validateVersionEntry } from "./version-commit.js";

/** The table, its branch key, and its versions by number (pending commits rolled forward first). */
async function loadVersions(scope: CatalogScope, id: string[], branchName: string | null | undefined) {
  const branch = branchKey(branchName);
  const table = await requireTable(scope.store.rows, scope.database.name, id);
  await requireBranch(scope.engine.files, table, branch);
  await settlePendingVersions(scope.engine.files, scope.store, table.id);
  const names = await scope.engine.files.manifests.list(table.location, branch);
  return { table, branch, names };
}

async function recordsByVersion(scope: CatalogScope, table: TableRow, branch: string): Promise<Map<number, TableVersionRow>> {
  const rows = await scope.store.rows.listTableVersions(table.id, branch);
  return new Map(rows.map((row) => [Number(row.version), row]));
}

/** How many versions are described at once. */
const describeConcurrency = 8;

async function mapInBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return results;
}

async function describeNames(scope: CatalogScope, table: TableRow, branch: string, names: ManifestName[]): Promise<TableVersion[]> {
  const records = names.length === 0 ? new Map<number, TableVersionRow>() : await recordsByVersion(scope, table, branch);
  // A few manifests at a time: each costs a stat and two small reads (manifest, transaction).
  const described = await mapInBatches(names, describeConcurrency, async (name) => {
    const [file, operation] = await Promise.all([scope.engine.files.manifests.describe(name), scope.engine.files.manifests.operation(name.path)]);
    if (!file) return undefined;
    const version = toTableVersion(file, records.get(name.version));
    if (operation) {
      version.operation = operation.operation;
      if (operation.detail !== undefined) version.operation_detail = operation.detail;
    }
    return version;
  });
  return described.filter((version): version is TableVersion => version !== undefined);
}

/**
 * ListTableVersions: the versions of a branch (default main), ascending unless `descending`,
 * paged by `limit` with the last version number as `page_token`. Throws 1, 4, 13, 22.
 */
export async function listTableVersions(scope: CatalogScope, request: WithId<ListTableVersionsRequest>): Promise<ListTableVersionsResponse> {
  // validate
  const limit = request.limit ?? undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw invalidInput("limit must be a non-negative integer");
  const after = request.page_token ? Number(request.page_token) : undefined;
  if (after !== undefined && !Number.isInteger(after)) throw invalidInput(`page_token '${request.page_token}' is not one this server issued`);
  const descending = request.descending === true;
  return translating(tableLabel(request.id), async () => {
    // load
    const { table, branch, names } = await loadVersions(scope, request.id, request.branch);
    const ordered = descending ? [...names].reverse() : names;
    const remaining = after === undefined ? ordered : ordered.filter((name) => (descending ? name.version < after : name.version > after));
    const page = limit ? remaining.slice(0, limit) : remaining;
    const versions = await describeNames(scope, table, branch, page);
    const more = limit !== undefined && limit > 0 && remaining.length > limit;
    return more ? { versions, page_token: String(page[page.length - 1]?.version) } : { versions };
  });
}

/** DescribeTableVersion: one version of a branch, the latest when `version` is absent. Throws 1, 4, 11, 22. */
export async function describeTableVersion(scope: CatalogScope, request: WithId<DescribeTableVersionRequest>): Promise<DescribeTableVersionResponse> {
  const subject = tableLabel(request.id);
  return translating(subject, async () => {
    const { table, branch, names } = await loadVersions(scope, request.id, request.branch);
    const wanted = request.version ?? names[names.length - 1]?.version;
    const name = names.find((candidate) => candidate.version === wanted);
    const [version] = name ? await describeNames(scope, table, branch, [name]) : [];
    if (!version) {
      const which = request.version == null ? "no versions" : `no version ${request.version}`;
      throw CatalogError.of("TableVersionNotFound", `${subject} has ${which} on branch ${branchLabel(branch)}`);
    }
    return { version };
  });
}

/**
 * CreateTableVersion: records `version` with put-if-not-exists semantics and copies the staged
 * manifest at `manifest_path` (inside the table's location) to its final name under
 * `naming_scheme` (default V2). Throws 1, 4, 13, 14 (the version exists), 22.
 */
export async function createTableVersion(scope: CatalogScope, request: WithId<CreateTableVersionRequest>): Promise<CreateTableVersionResponse> {
  const checked = validateVersionEntry(request);
  return translating(tableLabel(request.id), async () => {
    // load: the storage checks, before the transaction
    const entry = await prepareVersionEntry(scope.store.rows, scope, checked);
    // decide + write: one store transaction
    const { planned, transactionId } = await scope.store.transaction(async (tx) => {
      const transactionId = await recordTransaction(tx, scope.database.name, "CreateTableVersion", {
        table: request.id.join("$"),
        version: String(request.version),
      });
      return { planned: await insertVersionEntry(tx, scope, entry, transactionId), transactionId };
    });
    // finalize
    const [version] = await finalizeCommitted(scope, [planned], transactionId);
    return { transaction_id: transactionId, version };
  });
}

/** Versions in any of `ranges` ([start, end), end -1 = through the latest). Throws 13 for a bad range. */
export function versionsInRanges(versions: number[], ranges: VersionRange[]): number[] {
  for (const range of ranges) {
    if (range.start_version < 0) throw invalidInput("start_version must be >= 0");
    if (range.end_version !== -1 && range.end_version < range.start_version) {
      throw invalidInput(`end_version ${range.end_version} is below start_version ${range.start_version}`);
    }
  }
  return versions.filter((version) =>
    ranges.some((range) => version >= range.start_version && (range.end_version === -1 || version < range.end_version)),
  );
}

/**
 * What BatchDeleteTableVersions may delete on a branch: the versions in the ranges, except the
 * latest (the table's current state: without it the table could not be opened), versions a
 * tag points at (the tag would dangle) and versions a live clone was made from (a later cleanup
 * would take the data files the clone reads). See docs/versions.md.
 */
export async function deletableVersions(files: TableFiles, rows: StoreTx, table: TableRow, branch: string, known: number[], ranges: VersionRange[]): Promise<number[]> {
  const latest = Math.max(-1, ...known);
  const kept = new Set((await files.refs.tags(table.location)).filter((tag) => (tag.branch ?? "") === branch).map((tag) => tag.version));
  for (const version of await versionsRead(rows, table.database, table.location, branch)) kept.add(version);
  return versionsInRanges(known, ranges).filter((version) => version !== latest && !kept.has(version));
}

/**
 * BatchDeleteTableVersions: removes the version records and manifests of a branch in `ranges`,
 * never data files; keeps the latest version and tagged versions. `{0, -1}` means every
 * version. Returns `deleted_count`. Throws 1, 4, 13, 22.
 */
export async function batchDeleteTableVersions(
  scope: CatalogScope,
  request: WithId<BatchDeleteTableVersionsRequest>,
): Promise<BatchDeleteTableVersionsResponse> {
  versionsInRanges([], request.ranges);
  return translating(tableLabel(request.id), async () => {
    // load
    const { table, branch, names } = await loadVersions(scope, request.id, request.branch);
    const records = await recordsByVersion(scope, table, branch);
    const known = [...new Set([...names.map((name) => name.version), ...records.keys()])];
    // decide
    const doomed = await deletableVersions(scope.engine.files, scope.store.rows, table, branch, known, request.ranges);
    // write: manifests first; a crash before the records go leaves records without manifests,
    // which listings ignore, never a listed version without its manifest.
    const doomedSet = new Set(doomed);
    for (const name of names) if (doomedSet.has(name.version)) await scope.engine.files.manifests.remove(name.path);
    const transactionId = await scope.store.transaction(async (tx) => {
      await tx.deleteTableVersions(table.id, branch, doomed);
      return recordTransaction(tx, scope.database.name, "BatchDeleteTableVersions", {
        table: request.id.join("$"),
        deleted: doomed.join(","),
      });
    });
    return { deleted_count: doomed.length, transaction_id: transactionId };
  });
}
