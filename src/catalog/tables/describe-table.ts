/**
 * @module DescribeTable and TableExists (spec/endpoints.md §3.2–3.3).
 */
import { pathToFileURL } from "node:url";
import type { TableSnapshot } from "../../engine/engine.js";
import { EngineError, type EngineErrorKind } from "../../engine/engine-errors.js";
import { readRefOf } from "../table-heads.js";
import { demandOverrides, readDemandOf } from "../read-demand.js";
import type { TableRow } from "../../store/schema.js";
import { isUri } from "../../storage/locations.js";
import type { DescribeTableRequest, DescribeTableResponse, TableExistsRequest } from "../../model/table.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { overridesOf, translating } from "../failures.js";
import { tableLabel, splitTableId } from "../identifiers.js";
import { declaredOnly, requireTable } from "../table-lookup.js";
import { outsideWritesRecorded } from "./client-storage-options.js";
import { optionalBranch, optionalTag, refOf, refOverrides, requireBranch } from "../table-refs.js";

/**
 * DescribeTable: location, properties and storage options always; version, schema (Lance type
 * names), metadata and stats whenever the table has data, unless `load_detailed_metadata` is
 * false. A declared-only table answers without them, or with 19 if details were demanded.
 * `version`, `branch` or `tag` select what is described. Throws 1, 4, 8, 11, 13, 19, 22.
 */
export async function describeTable(scope: CatalogScope, request: WithId<DescribeTableRequest>): Promise<DescribeTableResponse> {
  // validate
  const { id } = request;
  const { namespace, name } = splitTableId(id);
  if (request.tag && (request.version != null || request.branch)) {
    throw invalidInput("tag cannot be combined with version or branch");
  }
  const subject = tableLabel(id);
  return translating(subject, async () => {
    // load
    const row = await requireTable(scope.store.rows, scope.database.name, id);
    const response: DescribeTableResponse = {
      table: name,
      namespace,
      location: row.location,
      storage_options: row.storage_options,
      properties: row.properties,
      managed_versioning: scope.database.managedVersioning,
    };
    // Not enumerable: for the credentials step only, never part of the answer.
    Object.defineProperty(response, outsideWritesRecorded, { value: row.outside_writes_until });
    if (request.with_table_uri) response.table_uri = isUri(row.location) ? row.location : pathToFileURL(row.location).href;
    const selectsVersion = request.version != null || Boolean(request.tag) || Boolean(request.branch);
    // detail: read once; its absence is how a declared-only table shows
    const detail = request.load_detailed_metadata === false ? undefined : await snapshotOf(scope, row, request);
    const hasNoData =
      detail === "declared-only" || (detail === undefined && (request.check_declared || selectsVersion) && !(await scope.engine.datasetExists(row.location)));
    if (request.check_declared) response.is_only_declared = hasNoData;
    if (hasNoData) {
      if (request.load_detailed_metadata || selectsVersion) throw declaredOnly(subject);
      return response;
    }
    if (detail === undefined) return response;
    response.version = detail.version;
    response.schema = detail.schema;
    response.metadata = detail.metadata;
    response.stats = { num_deleted_rows: detail.numDeletedRows, num_fragments: detail.numFragments };
    return response;
  }, overridesOf(describeOverrides(subject, request), demandOverrides(subject, { version: request.version, tag: optionalTag(request.tag), branch: optionalBranch(request.branch) }, readDemandOf(request))));
}

/** The snapshot `request` selects, or "declared-only" while the table has no data. */
async function snapshotOf(scope: CatalogScope, row: TableRow, request: DescribeTableRequest): Promise<TableSnapshot | "declared-only"> {
  const { engine } = scope;
  const branch = optionalBranch(request.branch);
  if (branch) {
    // A declared-only table has no branches either: 19 before 22.
    if (!(await engine.datasetExists(row.location))) return "declared-only";
    await requireBranch(engine.files, row, branch);
  }
  try {
    return await engine.describeTable(row.location, readRefOf(scope, row, { version: request.version, tag: optionalTag(request.tag), branch }, readDemandOf(request)));
  } catch (error) {
    if (error instanceof EngineError && error.kind === "dataset-not-found") return "declared-only";
    throw error;
  }
}

function describeOverrides(subject: string, request: DescribeTableRequest): Partial<Record<EngineErrorKind, CatalogError>> {
  const overrides = refOverrides(subject, refOf(request));
  Object.defineProperty(overrides, "tag-not-found", {
    get: () => CatalogError.of("TableTagNotFound", `${subject} has no tag '${request.tag ?? ""}'`),
    enumerable: true,
    configurable: true,
  });
  return overrides;
}

/** TableExists: resolves when the table (declared-only included) exists. Throws 1, 4, 11. */
export async function tableExists(scope: CatalogScope, request: WithId<TableExistsRequest>): Promise<void> {
  if (request.version == null && !request.branch) {
    await translating(tableLabel(request.id), () => requireTable(scope.store.rows, scope.database.name, request.id));
    return;
  }
  await describeTable(scope, { id: request.id, version: request.version ?? null, branch: request.branch ?? null, load_detailed_metadata: true });
}
