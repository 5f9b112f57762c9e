/**
 * @module DescribeTable and TableExists (spec/endpoints.md §3.2–3.3).
 */
import { pathToFileURL } from "node:url";
import { isUri } from "../../storage/locations.js";
import type { DescribeTableRequest, DescribeTableResponse, TableExistsRequest } from "../../model/table.js";
import { fromJsonColumn } from "../../store/rows/json-columns.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { describeTable as nameOf, splitTableId } from "../identifiers.js";
import { requireTable } from "../table-lookup.js";
import { refOf, refOverrides, requireBranch } from "../table-refs.js";

type WithId<T> = T & { id: string[] };

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
  const subject = nameOf(id);
  return translating(subject, async () => {
    // load
    const row = await requireTable(scope.store.rows, scope.database.name, id);
    const hasData = await scope.engine.datasetExists(row.location);
    const response: DescribeTableResponse = {
      table: name,
      namespace,
      location: row.location,
      storage_options: fromJsonColumn(row.storage_options),
      properties: fromJsonColumn(row.properties),
      managed_versioning: scope.database.managedVersioning,
    };
    if (request.with_table_uri) response.table_uri = isUri(row.location) ? row.location : pathToFileURL(row.location).href;
    if (request.check_declared) response.is_only_declared = !hasData;
    const selectsVersion = request.version != null || Boolean(request.tag) || Boolean(request.branch);
    if (!hasData) {
      if (request.load_detailed_metadata || selectsVersion) {
        throw CatalogError.of("InvalidTableState", `${subject} is declared but has no data yet`);
      }
      return response;
    }
    if (request.load_detailed_metadata === false) return response;
    // detail
    if (request.branch) await requireBranch(row, request.branch);
    const snapshot = await scope.engine.describeTable(row.location, request);
    response.version = snapshot.version;
    response.schema = snapshot.schema;
    response.metadata = snapshot.metadata;
    response.stats = { num_deleted_rows: snapshot.numDeletedRows, num_fragments: snapshot.numFragments };
    return response;
  }, {
    ...refOverrides(subject, refOf(request)),
    "tag-not-found": CatalogError.of("TableTagNotFound", `${subject} has no tag '${request.tag ?? ""}'`),
  });
}

/** TableExists: resolves when the table (declared-only included) exists. Throws 1, 4, 11. */
export async function tableExists(scope: CatalogScope, request: WithId<TableExistsRequest>): Promise<void> {
  if (request.version == null && !request.branch) {
    await translating(nameOf(request.id), () => requireTable(scope.store.rows, scope.database.name, request.id));
    return;
  }
  await describeTable(scope, { id: request.id, version: request.version ?? null, branch: request.branch ?? null, load_detailed_metadata: true });
}
