/**
 * @module Schema evolution (spec/endpoints.md §3.10, §6.1–6.4): AlterTableAddColumns,
 * AlterTableAlterColumns, AlterTableDropColumns, UpdateFieldMetadata,
 * UpdateTableSchemaMetadata. Each commits a new version and answers it.
 */
import type {
  AlterTableAddColumnsRequest,
  AlterTableAddColumnsResponse,
  AlterTableAlterColumnsRequest,
  AlterTableAlterColumnsResponse,
  AlterTableDropColumnsRequest,
  AlterTableDropColumnsResponse,
  UpdateFieldMetadataRequest,
  UpdateFieldMetadataResponse,
  UpdateTableSchemaMetadataRequest,
} from "../../model/schema-evolution.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { recordCommittedWrite } from "../transaction-records.js";
import { translating } from "../failures.js";
import { tableLabel } from "../identifiers.js";
import { loadTableWithData } from "../table-lookup.js";
import { refOf, refOverrides } from "../table-refs.js";

async function evolving<T>(scope: CatalogScope, id: string[], branch: string | null | undefined, fn: (location: string, ref: ReturnType<typeof refOf>) => Promise<T>): Promise<T> {
  const subject = tableLabel(id);
  const ref = refOf({ branch });
  return translating(subject, async () => {
    const row = await loadTableWithData(scope, id);
    // Each change that commits records it with `recordCommittedWrite`, which raises the table's head.
    return fn(row.location, ref);
  }, refOverrides(subject, ref));
}

/**
 * AlterTableAddColumns: each entry gives `expression` (SQL evaluated once over existing rows)
 * or `computed` (a maintained column, all-null until backfilled). UDF-backed `virtual_column`
 * entries are not offered by this server (0). Throws 0, 1, 4, 12, 13, 14, 19, 20.
 */
export async function alterTableAddColumns(scope: CatalogScope, request: WithId<AlterTableAddColumnsRequest>): Promise<AlterTableAddColumnsResponse> {
  // validate
  if (request.new_columns.length === 0) throw invalidInput("new_columns must not be empty");
  const columns = request.new_columns.map((entry) => {
    const kinds = [entry.expression, entry.computed, entry.virtual_column].filter((v) => v != null).length;
    if (kinds !== 1) throw invalidInput(`column '${entry.name}' needs exactly one of expression, computed, virtual_column`);
    if (entry.virtual_column) throw CatalogError.of("Unsupported", `column '${entry.name}': UDF-backed virtual columns are not supported by this server`);
    return entry.expression != null ? { name: entry.name, expression: entry.expression } : { name: entry.name, computed: entry.computed as string };
  });
  // write
  const version = await evolving(scope, request.id, request.branch, (location, ref) => scope.engine.schema.addColumns(location, ref, columns));
  await recordCommittedWrite(scope, "AlterTableAddColumns", request.id, version, request.branch, { added: columns.map((column) => column.name) });
  return { version };
}

/**
 * AlterTableAlterColumns: renames (`rename`, a leaf name), changes nullability or casts
 * (`data_type`: a type name such as "int64" or a JSON Arrow type). Throws 0, 1, 4, 12, 13, 14, 19, 20.
 */
export async function alterTableAlterColumns(scope: CatalogScope, request: WithId<AlterTableAlterColumnsRequest>): Promise<AlterTableAlterColumnsResponse> {
  if (request.alterations.length === 0) throw invalidInput("alterations must not be empty");
  const changes = request.alterations.map((entry) => {
    if (entry.virtual_column) throw CatalogError.of("Unsupported", `column '${entry.path}': virtual columns are not supported by this server`);
    const dataType = entry.data_type;
    if (dataType != null && typeof dataType !== "string" && (typeof dataType !== "object" || Array.isArray(dataType))) {
      throw invalidInput(`alteration of '${entry.path}': data_type must be a type name or a JSON Arrow data type`);
    }
    if (entry.rename == null && entry.nullable == null && dataType == null) throw invalidInput(`alteration of '${entry.path}' changes nothing`);
    return { path: entry.path, rename: entry.rename ?? undefined, nullable: entry.nullable ?? undefined, dataType: (dataType ?? undefined) as string | Record<string, unknown> | undefined };
  });
  const version = await evolving(scope, request.id, request.branch, (location, ref) => scope.engine.schema.alterColumns(location, ref, changes));
  await recordCommittedWrite(scope, "AlterTableAlterColumns", request.id, version, request.branch, { altered: changes.map((change) => change.path) });
  return { version };
}

/** AlterTableDropColumns: removes columns by field path. Throws 1, 4, 12, 13, 14, 19. */
export async function alterTableDropColumns(scope: CatalogScope, request: WithId<AlterTableDropColumnsRequest>): Promise<AlterTableDropColumnsResponse> {
  if (request.columns.length === 0) throw invalidInput("columns must not be empty");
  const version = await evolving(scope, request.id, request.branch, (location, ref) => scope.engine.schema.dropColumns(location, ref, request.columns));
  return { version, ...(await recordCommittedWrite(scope, "AlterTableDropColumns", request.id, version, request.branch, { dropped: request.columns })) };
}

/**
 * UpdateFieldMetadata: merges keys into each field's metadata (`replace: true` replaces the
 * whole map; a null value removes a key). Answers the version and the resulting metadata per
 * canonical field path. Throws 1, 4, 12, 13, 14, 19.
 */
export async function updateFieldMetadata(scope: CatalogScope, request: WithId<UpdateFieldMetadataRequest>): Promise<UpdateFieldMetadataResponse> {
  if (request.updates.length === 0) throw invalidInput("updates must not be empty");
  const changes = request.updates.map((u) => ({ path: u.path, metadata: u.metadata, replace: u.replace ?? false }));
  const result = await evolving(scope, request.id, request.branch, (location, ref) => scope.engine.schema.updateFieldMetadata(location, ref, changes));
  await recordCommittedWrite(scope, "UpdateFieldMetadata", request.id, result.version, request.branch, { fields: changes.map((change) => change.path) });
  return { version: result.version, fields: result.fields };
}

/**
 * UpdateTableSchemaMetadata: merges the given keys into the schema-level metadata and answers
 * the whole map afterwards; keys not named stay. The engine can add keys but not change or
 * remove one (see `SchemaEvolution.addMetadataKeys`), so a request that would change an
 * existing key's value is Unsupported (0) and commits nothing; one that adds nothing commits
 * nothing. Throws 0, 1, 4, 14, 19.
 */
export async function updateTableSchemaMetadata(scope: CatalogScope, request: WithId<UpdateTableSchemaMetadataRequest>): Promise<Record<string, string>> {
  return evolving(scope, request.id, request.branch, async (location, ref) => {
    // load
    const current = await scope.engine.schema.metadata(location, ref);
    // decide
    const entries = Object.entries(request.metadata ?? {});
    const changed = entries.filter(([key, value]) => key in current && current[key] !== value).map(([key]) => key);
    if (changed.length > 0) {
      throw CatalogError.of(
        "Unsupported",
        `changing the value of existing schema metadata keys (${changed.map((k) => `'${k}'`).join(", ")}) is not supported: this server's Lance engine can add schema metadata keys but not change or remove them`,
      );
    }
    const added = Object.fromEntries(entries.filter(([key]) => !(key in current)));
    if (Object.keys(added).length === 0) return current;
    // write
    const result = await scope.engine.schema.addMetadataKeys(location, ref, added);
    await recordCommittedWrite(scope, "UpdateTableSchemaMetadata", request.id, result.version, request.branch, { added_keys: Object.keys(added) });
    return result.metadata;
  });
}
