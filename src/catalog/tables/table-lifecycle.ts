/**
 * @module Operations on a table that exists: DeregisterTable, DropTable, RenameTable,
 * RestoreTable (spec/endpoints.md §3.4–3.7).
 */
import { isDeepStrictEqual } from "node:util";
import type {
  DeregisterTableRequest,
  DeregisterTableResponse,
  DropTableRequest,
  DropTableResponse,
  RenameTableRequest,
  RenameTableResponse,
  RestoreTableRequest,
  RestoreTableResponse,
} from "../../model/table.js";
import type { TableRow } from "../../store/schema.js";
import { UniqueViolation } from "../../store/store-errors.js";
import { CatalogError } from "../../model/catalog-error.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { discardTableData } from "../discard-table-data.js";
import { removeDroppedRows } from "./dropped-tables.js";
import { requireNamespace } from "../namespace-lookup.js";
import { requireNoNamespaceNamed, requireTable } from "../table-lookup.js";
import { optionalBranch, refOf, refOverrides, requireBranch } from "../table-refs.js";
import { recordCommittedWrite } from "../transaction-records.js";
import { translating } from "../failures.js";
import { recordChange } from "../change-events.js";
import { namespaceLabel, tableLabel, namespaceIdOfKey, namespaceKey, validateName, validateNamespaceId } from "../identifiers.js";

/**
 * DeregisterTable: forgets the table and keeps its files, so it can be registered again. Its
 * properties are kept beside the files first, so that a register restores them. Throws 1, 4.
 */
export async function deregisterTable(scope: CatalogScope, request: WithId<DeregisterTableRequest>): Promise<DeregisterTableResponse> {
  const current = await translating(tableLabel(request.id), () => requireTable(scope.store.rows, scope.database.name, request.id));
  const hasData = await scope.engine.datasetExists(current.location);
  if (hasData) await scope.engine.files.properties.keep(current.location, current.properties);
  const row = await forgetTable(scope, request);
  // The properties changed between the two reads: keep the newer ones (the answer carries them too).
  if (hasData && row.location === current.location && !isDeepStrictEqual(row.properties, current.properties)) {
    await scope.engine.files.properties.keep(row.location, row.properties).catch(() => undefined);
  }
  return answerOf(request, row);
}

/** Removes the table's row, leaving its files; returns the row. Throws 1, 4. */
async function forgetTable(scope: CatalogScope, request: WithId<DeregisterTableRequest>): Promise<TableRow> {
  return translating(tableLabel(request.id), () =>
    scope.store.transaction(async (tx) => {
      const row = await requireTable(tx, scope.database.name, request.id);
      await tx.deleteTable(row.id);
      await recordChange(tx, { kind: "table.deregistered", database: scope.database.name, object: request.id, data: { location: row.location } });
      return row;
    }),
  );
}

function answerOf(request: WithId<DeregisterTableRequest>, row: TableRow): DeregisterTableResponse {
  return { id: request.id, location: row.location, properties: row.properties };
}

/**
 * DropTable: forgets the table and deletes its data. The row goes first, in its own commit; a
 * failure to delete files afterwards leaves unreachable files, never a table without data. When
 * clones still read the table's files, its folder is kept (hidden, its name free again) until the
 * last of them is dropped. Under a drop retention the table is kept for an undrop instead
 * (`dropped-tables.ts`). Throws 1, 4.
 */
export async function dropTable(scope: CatalogScope, request: WithId<DropTableRequest> & { dropped_by?: string }): Promise<DropTableResponse> {
  const { row, discard } = await translating(tableLabel(request.id), () =>
    scope.store.transaction(async (tx) => {
      const row = await requireTable(tx, scope.database.name, request.id);
      return { row, discard: await removeDroppedRows(scope, tx, [row], request.dropped_by) };
    }),
  );
  await discardTableData(scope, discard);
  return answerOf(request, row);
}

/**
 * RenameTable: a new name and, with `new_namespace_id`, another namespace. Metadata only: the
 * data stays where it is. Throws 1 (target namespace), 4, 5 (target name taken).
 */
export async function renameTable(scope: CatalogScope, request: WithId<RenameTableRequest>): Promise<RenameTableResponse> {
  // validate
  const newName = request.new_table_name;
  validateName(newName, "table");
  const targetNamespace = request.new_namespace_id ?? request.new_namespace ?? null;
  if (targetNamespace) validateNamespaceId(targetNamespace);
  const database = scope.database.name;
  const subject = tableLabel(request.id);

  await translating(subject, async () => {
    try {
      await scope.store.transaction(async (tx) => {
        // load
        const row = await requireTable(tx, database, request.id);
        const targetKey = targetNamespace ? namespaceKey(targetNamespace) : row.namespace_path;
        const targetId = namespaceIdOfKey(targetKey);
        if (targetNamespace) await requireNamespace(tx, database, targetNamespace);
        // decide
        const taken = await tx.findTableByName(database, targetKey, newName);
        if (taken && taken.id !== row.id) {
          throw CatalogError.of("TableAlreadyExists", `a table named '${newName}' already exists in ${namespaceLabel(targetId)}`);
        }
        await requireNoNamespaceNamed(tx, database, targetId, newName);
        // write
        await tx.updateTable(row.id, { namespace_path: targetKey, name: newName, updated_at: Date.now() });
        await recordChange(tx, { kind: "table.renamed", database, object: [...targetId, newName], data: { from: request.id } });
      });
    } catch (error) {
      if (error instanceof UniqueViolation) throw CatalogError.of("TableAlreadyExists", `a table named '${newName}' already exists`);
      throw error;
    }
  });
  return {};
}

/**
 * RestoreTable: commits a new version whose content is `version` (history is kept).
 * Throws 1, 4, 11, 14.
 */
export async function restoreTable(scope: CatalogScope, request: WithId<RestoreTableRequest>): Promise<RestoreTableResponse> {
  const subject = tableLabel(request.id);
  return translating(subject, async () => {
    const row = await requireTable(scope.store.rows, scope.database.name, request.id);
    const branch = optionalBranch(request.branch);
    if (branch) await requireBranch(scope.engine.files, row, branch);
    const version = await scope.engine.restoreTable(row.location, request.version, branch);
    return { version, ...(await recordCommittedWrite(scope, "RestoreTable", request.id, version, request.branch)) };
  }, refOverrides(subject, refOf(request)));
}
