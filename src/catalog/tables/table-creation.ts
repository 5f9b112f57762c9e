/**
 * @module The operations that bring a table into a namespace: DeclareTable (name and location
 * only), CreateTable (from an Arrow IPC stream) and RegisterTable (an existing Lance table).
 */
import { noteCommitted } from "../table-heads.js";
import { ipcStreamToFile } from "../../engine/arrow-ipc.js";
import { CreateModes, RegisterModes, parseMode } from "../../model/modes.js";
import type {
  CreateTableRequest,
  CreateTableResponse,
  DeclareTableRequest,
  DeclareTableResponse,
  RegisterTableRequest,
  RegisterTableResponse,
} from "../../model/table.js";
import type { StoreTx } from "../../store/store.js";
import { UniqueViolation } from "../../store/store-errors.js";
import { CatalogError, echoed, invalidInput } from "../../model/catalog-error.js";
import { acceptedClientWriteKeys, refusedClientWriteKeys } from "../../storage/storage-options.js";
import type { ArrowStreamBody } from "../catalog-operations.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { tableLabel, namespaceKey, splitTableId } from "../identifiers.js";
import { newTableLocation, resolveClientLocation } from "../table-locations.js";
import { findTable, requireLocationFree, requireNoNamespaceNamed } from "../table-lookup.js";
import { type ChangeKind, recordChange } from "../change-events.js";
import { claimingFolders } from "./folder-claims.js";

export function alreadyExists(id: readonly string[]): CatalogError {
  return CatalogError.of("TableAlreadyExists", `${tableLabel(id)} already exists`);
}

/**
 * Inserts a new table row with its change event (`kind`, default `table.created`); a concurrent
 * insert of the same name is TableAlreadyExists (5).
 */
export async function insertTableRow(
  tx: StoreTx,
  scope: CatalogScope,
  id: readonly string[],
  row: { id: string; location: string; managed: boolean; properties: Record<string, string>; storageOptions: Record<string, string>; headVersion?: number },
  kind: ChangeKind = "table.created",
): Promise<void> {
  const { namespace, name } = splitTableId(id);
  if (await findTable(tx, scope.database.name, id)) throw alreadyExists(id);
  await requireNoNamespaceNamed(tx, scope.database.name, namespace, name);
  const now = Date.now();
  await tx.insertTable({
    id: row.id,
    database: scope.database.name,
    namespace_path: namespaceKey(namespace),
    name,
    location: row.location,
    managed_location: row.managed ? 1 : 0,
    properties: row.properties,
    storage_options: row.storageOptions,
    created_at: now,
    updated_at: now,
    head_version: row.headVersion ?? null,
  });
  await recordChange(tx, { kind, database: scope.database.name, object: id, data: { location: row.location, properties: row.properties } });
}

/** Runs a transaction whose unique-key clash means another writer created the table first. */
export async function creatingTable<T>(scope: CatalogScope, id: readonly string[], fn: (tx: StoreTx) => Promise<T>): Promise<T> {
  try {
    return await scope.store.transaction(fn);
  } catch (error) {
    if (error instanceof UniqueViolation) throw alreadyExists(id);
    throw error;
  }
}

/**
 * DeclareTable: reserves the name and a location without writing storage. The caller writes
 * the Lance table there itself. Throws 1, 5, 13 (location outside the storage root).
 */
export async function declareTable(scope: CatalogScope, request: WithId<DeclareTableRequest>): Promise<DeclareTableResponse> {
  splitTableId(request.id);
  return translating(tableLabel(request.id), () =>
    claimingFolders(scope.store, Boolean(request.location), () => creatingTable(scope, request.id, (tx) => declareTableIn(tx, scope, request))),
  );
}

/** DeclareTable's decision and write inside a caller's transaction (also used by batch commits). */
export async function declareTableIn(tx: StoreTx, scope: CatalogScope, request: WithId<DeclareTableRequest>): Promise<DeclareTableResponse> {
  const placed = newTableLocation(scope.database);
  const location = request.location ? await resolveClientLocation(scope.storages, scope.database, request.location) : placed.location;
  if (request.location) await requireLocationFree(tx, scope.database.name, scope.database.storageRoot, location);
  const properties = request.properties ?? {};
  await insertTableRow(tx, scope, request.id, { id: placed.id, location, managed: !request.location, properties, storageOptions: {} }, "table.declared");
  return { location, storage_options: {}, properties, managed_versioning: scope.database.managedVersioning };
}

/**
 * CreateTable from an Arrow IPC stream (LZ4-compressed buffers accepted; a schema-only stream
 * makes an empty table). Modes: Create (default; 5 if a table with data exists, while a
 * declared-only table is filled), ExistOk (keep the existing table), Overwrite (replace its rows
 * in a new version; history and tags stay). Throws 1, 5, 13, 20.
 */
export async function createTable(
  scope: CatalogScope,
  request: WithId<CreateTableRequest>,
  body: ArrowStreamBody,
): Promise<CreateTableResponse> {
  // validate
  const { id } = request;
  const { namespace, name } = splitTableId(id);
  const parsedMode = parseMode(request.mode, CreateModes);
  if (parsedMode === null) throw invalidInput(`mode must be one of ${CreateModes.join(", ")}; got ${JSON.stringify(request.mode)}`);
  const mode = parsedMode ?? "Create";
  const subject = tableLabel(id);
  const database = scope.database.name;
  requireClientWriteOptions(request.storage_options ?? {});

  return translating(subject, async () => {
    const upload = await ipcStreamToFile(body);
    // load
    const existing = await findTable(scope.store.rows, database, id);
    if (!existing) await requireNoNamespaceNamed(scope.store.rows, database, namespace, name);

    // decide
    if (existing) {
      const hasData = await scope.engine.datasetExists(existing.location);
      if (hasData && mode === "Create") throw alreadyExists(id);
      if (hasData && mode === "ExistOk") {
        const version = (await scope.engine.describeTable(existing.location)).version;
        return { location: existing.location, version, storage_options: existing.storage_options, properties: existing.properties };
      }
      // write: fill the declared table, or overwrite in place (same location, new version)
      const version = await scope.engine.createTable(existing.location, upload, hasData ? "overwrite" : "create", request.storage_options ?? undefined);
      await noteCommitted(scope.store.rows, existing.id, null, version);
      // The properties merge into the row as it is now (another writer may have added some meanwhile).
      const merged = await scope.store.transaction(async (tx) => {
        const current = await tx.lockTableRow(existing.id);
        const next = { ...(current?.properties ?? existing.properties), ...(request.properties ?? {}) };
        await tx.updateTable(existing.id, { properties: next, updated_at: Date.now() });
        await recordChange(tx, {
          kind: hasData ? "table.version.created" : "table.created",
          database,
          object: id,
          data: hasData ? { operation: "CreateTable", mode: "overwrite", version } : { location: existing.location, properties: next, version },
        });
        return next;
      });
      return { location: existing.location, version, storage_options: existing.storage_options, properties: merged };
    }

    // write: data first at a fresh location, then the row; a lost race removes the data again.
    const placed = newTableLocation(scope.database);
    const properties = request.properties ?? {};
    const storageOptions = request.storage_options ?? {};
    const version = await scope.engine.createTable(placed.location, upload, "create", storageOptions);
    try {
      await creatingTable(scope, id, (tx) =>
        insertTableRow(tx, scope, id, { id: placed.id, location: placed.location, managed: true, properties, storageOptions, headVersion: version }),
      );
    } catch (error) {
      await scope.engine.removeTableData(placed.location, scope.database.storageRoot);
      throw error;
    }
    return { location: placed.location, version, storage_options: storageOptions, properties };
  }, {
    // Two creates filling one declared table race to Lance's create: the loser's is the answer to a table that exists.
    get "dataset-exists"() {
      return alreadyExists(id);
    },
  });
}

/**
 * RegisterTable: adds an existing Lance table at `location` (inside the storage root) under
 * `id`. Modes: Create (default; 5 if the name is taken), Overwrite (re-point the name). Without
 * `properties`, the table gets those it kept when it was deregistered. Throws 1, 5, 13 (no Lance
 * table there, or the location already belongs to another table).
 */
export async function registerTable(scope: CatalogScope, request: WithId<RegisterTableRequest>): Promise<RegisterTableResponse> {
  // validate
  const { id } = request;
  splitTableId(id);
  const parsedMode = parseMode(request.mode, RegisterModes);
  if (parsedMode === null) throw invalidInput(`mode must be one of ${RegisterModes.join(", ")}; got ${JSON.stringify(request.mode)}`);
  const mode = parsedMode ?? "Create";
  const location = await resolveClientLocation(scope.storages, scope.database, request.location);

  // Under the lock a purge deletes folders under: the Lance table found here is not deleted before its row commits.
  const properties = await translating(tableLabel(id), () =>
    claimingFolders(scope.store, true, async () => {
      if (!(await scope.engine.datasetExists(location))) throw invalidInput(`no Lance table found at location '${request.location}'`);
      const properties = request.properties ?? (await scope.engine.files.properties.read(location)) ?? {};
      await creatingTable(scope, id, (tx) => registerTableIn(tx, scope, request, location, properties, mode));
      return properties;
    }),
  );
  // Registered again: what deregister kept has served its purpose (a leftover is harmless).
  await scope.engine.files.properties.forget(location).catch(() => undefined);
  return { location, properties };
}

/** RegisterTable's decision and write inside its transaction: a new row at `location`, or the name re-pointed (Overwrite). */
async function registerTableIn(
  tx: StoreTx,
  scope: CatalogScope,
  request: WithId<RegisterTableRequest>,
  location: string,
  properties: Record<string, string>,
  mode: (typeof RegisterModes)[number],
): Promise<void> {
  const { id } = request;
  const database = scope.database.name;
  // load
  const existing = await findTable(tx, database, id);
  // decide
  await requireLocationFree(tx, database, scope.database.storageRoot, location, existing?.id);
  if (existing && mode !== "Overwrite") throw alreadyExists(id);
  // write
  if (existing) {
    await tx.updateTable(existing.id, { location, managed_location: 0, properties, updated_at: Date.now() });
    await recordChange(tx, { kind: "table.registered", database, object: id, data: { location, properties, replaced: true } });
  } else {
    await insertTableRow(tx, scope, id, { id: newTableLocation(scope.database).id, location, managed: false, properties, storageOptions: {} }, "table.registered");
  }
}

/**
 * Refuses (13) CreateTable storage options other than the write-path overrides a client may send
 * (`refusedClientWriteKeys`): the map reaches Lance in place of the server's own settings. The
 * refused keys are named, never their values (one may be a credential).
 */
function requireClientWriteOptions(options: Record<string, string>): void {
  const refused = refusedClientWriteKeys(options);
  if (refused.length === 0) return;
  throw invalidInput(
    `storage_options ${refused.map(echoed).join(", ")} cannot be sent with CreateTable: where and as whom table data is written is the server's setting; a client may send only ${acceptedClientWriteKeys.join(", ")}`,
  );
}
