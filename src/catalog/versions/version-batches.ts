/**
 * @module Atomic multi-table commits (spec/endpoints.md §4.5–4.6): BatchCreateTableVersions and
 * BatchCommitTables. Everything is decided in ONE store transaction — any failing entry aborts
 * it and nothing of the batch exists afterwards — then manifests are finalized. The batch's
 * version records name its transaction, so a crash between commit and finalize is rolled forward.
 */
import type { DeclareTableRequest, DeclareTableResponse, DeregisterTableResponse } from "../../model/table.js";
import type {
  BatchCommitTablesRequest,
  BatchCommitTablesResponse,
  BatchCreateTableVersionsRequest,
  BatchCreateTableVersionsResponse,
  CommitTableResult,
} from "../../model/versions.js";
import type { StoreTx } from "../../store/store.js";
import { invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { tableLabel, splitTableId } from "../identifiers.js";
import { requireTable } from "../table-lookup.js";
import { branchKey, requireBranch } from "../table-refs.js";
import { declareTableIn } from "../tables/table-creation.js";
import { claimingFolders } from "../tables/folder-claims.js";
import { recordTransaction } from "../transaction-records.js";
import {
  type CheckedVersionEntry,
  type PlannedVersion,
  type PreparedVersionEntry,
  type VersionEntry,
  finalizeCommitted,
  insertVersionEntry,
  prepareVersionEntry,
  refuseSharedStagedManifests,
  validateVersionEntry,
} from "./version-commit.js";
import { deletableVersions } from "./table-versions.js";

/**
 * Test-only: QUIVER_TEST_BATCH_FINALIZE_DELAY_MS holds every committed batch that many
 * milliseconds before its manifests are finalized, so the crash-safety test can stop the process
 * between the two steps. Unset, as it is outside that test, it has no effect.
 */
const testFinalizeDelayMs = Number(process.env.QUIVER_TEST_BATCH_FINALIZE_DELAY_MS ?? 0);

async function testOnlyDelayBeforeFinalize(): Promise<void> {
  if (testFinalizeDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, testFinalizeDelayMs));
}

/** Refuses two entries that create the same version of the same table and branch. */
function refuseDuplicates(entries: CheckedVersionEntry[]): void {
  const seen = new Map<string, number>();
  entries.forEach((entry, index) => {
    const key = JSON.stringify([entry.id, entry.branchKey, entry.version]);
    const first = seen.get(key);
    if (first !== undefined) throw invalidInput(`entries ${first} and ${index} both create version ${entry.version} of ${tableLabel(entry.id)}`);
    seen.set(key, index);
  });
}

/**
 * BatchCreateTableVersions: creates every entry's version (across tables and branches) or none.
 * Each entry is put-if-not-exists; a conflict (14), a missing table (1, 4) or branch (22), or a
 * missing staged manifest (13) fails the whole batch. Versions come back in entry order.
 */
export async function batchCreateTableVersions(
  scope: CatalogScope,
  request: BatchCreateTableVersionsRequest,
): Promise<BatchCreateTableVersionsResponse> {
  // validate
  const entries = (request.entries as VersionEntry[]).map((entry) => {
    splitTableId(entry.id);
    return validateVersionEntry(entry);
  });
  refuseDuplicates(entries);
  return translating("the batch", async () => {
    // load: the storage checks, before the transaction
    const prepared: PreparedVersionEntry[] = [];
    for (const entry of entries) prepared.push(await prepareVersionEntry(scope.store.rows, scope, entry));
    // decide + write
    const { planned, transactionId } = await scope.store.transaction(async (tx) => {
      const transactionId = await recordTransaction(tx, scope.database.name, "BatchCreateTableVersions", {
        tables: [...new Set(entries.map((entry) => entry.id.join("$")))].join(","),
        entries: String(entries.length),
      });
      const planned: PlannedVersion[] = [];
      for (const entry of prepared) planned.push(await insertVersionEntry(tx, scope, entry, transactionId));
      refuseSharedStagedManifests(planned);
      return { planned, transactionId };
    });
    // finalize
    await testOnlyDelayBeforeFinalize();
    const versions = await finalizeCommitted(scope, planned, transactionId);
    return { transaction_id: transactionId, versions };
  });
}

type PendingResult =
  | { kind: "declare_table"; response: DeclareTableResponse }
  | { kind: "create_table_version"; planned: PlannedVersion }
  | { kind: "delete_table_versions"; deleted: number; manifests: string[] }
  | { kind: "deregister_table"; response: DeregisterTableResponse };

const operationKinds = ["declare_table", "create_table_version", "delete_table_versions", "deregister_table"] as const;

/**
 * BatchCommitTables: declare / create-version / delete-versions / deregister operations applied
 * in one atomic store transaction, in request order (a later operation sees the earlier ones,
 * e.g. a table declared and given its first version together). Results come back in request
 * order. Throws the codes of the contained operations: 1, 4, 5, 13, 14, 22.
 */
export async function batchCommitTables(scope: CatalogScope, request: BatchCommitTablesRequest): Promise<BatchCommitTablesResponse> {
  // validate
  const operations = request.operations.map((operation, index) => {
    const set = operationKinds.filter((kind) => operation[kind] != null);
    if (set.length !== 1) throw invalidInput(`operations[${index}] must set exactly one of ${operationKinds.join(", ")}`);
    const kind = set[0] as (typeof operationKinds)[number];
    const body = operation[kind] as { id?: string[] };
    if (!body.id) throw invalidInput(`operations[${index}].${kind}.id is required`);
    splitTableId(body.id);
    const checked = kind === "create_table_version" ? validateVersionEntry(body as VersionEntry) : body;
    return { kind, body: checked as Record<string, unknown> & { id: string[] } };
  });
  refuseDuplicates(operations.filter((op) => op.kind === "create_table_version").map((op) => op.body as unknown as CheckedVersionEntry));

  return translating("the batch commit", async () => {
    // load: storage checks of new versions before the transaction, but for tables this batch
    // declares (they get a location only inside it)
    const declared = new Set(operations.filter((op) => op.kind === "declare_table").map((op) => op.body.id.join("$")));
    const prepared = new Map<number, PreparedVersionEntry>();
    for (const [index, op] of operations.entries()) {
      if (op.kind !== "create_table_version" || declared.has(op.body.id.join("$"))) continue;
      prepared.set(index, await prepareVersionEntry(scope.store.rows, scope, op.body as unknown as CheckedVersionEntry));
    }
    // decide + write; a declaration at a client-named folder claims it under the lock a purge
    // deletes folders under
    const claims = operations.some((op) => op.kind === "declare_table" && Boolean(op.body.location));
    const { pending, transactionId } = await claimingFolders(scope.store, claims, () =>
      scope.store.transaction(async (tx) => {
        const transactionId = await recordTransaction(tx, scope.database.name, "BatchCommitTables", {
          operations: operations.map((op) => `${op.kind}:${op.body.id.join("$")}`).join(","),
        });
        const pending: PendingResult[] = [];
        for (const [index, op] of operations.entries()) pending.push(await applyOperation(tx, scope, op, transactionId, prepared.get(index)));
        refuseSharedStagedManifests(pending.flatMap((item) => (item.kind === "create_table_version" ? [item.planned] : [])));
        return { pending, transactionId };
      }),
    );
    // finalize: manifests of created versions go in place, those of deleted versions go away.
    await testOnlyDelayBeforeFinalize();
    const created = pending.flatMap((item) => (item.kind === "create_table_version" ? [item.planned] : []));
    const versions = await finalizeCommitted(scope, created, transactionId);
    for (const item of pending) if (item.kind === "delete_table_versions") for (const file of item.manifests) await scope.engine.files.manifests.remove(file);
    let next = 0;
    const results = pending.map((item): CommitTableResult => {
      switch (item.kind) {
        case "declare_table":
          return { declare_table: { ...item.response, transaction_id: transactionId } };
        case "create_table_version":
          return { create_table_version: { transaction_id: transactionId, version: versions[next++] } };
        case "delete_table_versions":
          return { delete_table_versions: { deleted_count: item.deleted, transaction_id: transactionId } };
        case "deregister_table":
          return { deregister_table: { ...item.response, transaction_id: transactionId } };
      }
    });
    return { transaction_id: transactionId, results };
  });
}

async function applyOperation(
  tx: StoreTx,
  scope: CatalogScope,
  op: { kind: (typeof operationKinds)[number]; body: Record<string, unknown> & { id: string[] } },
  transactionId: string,
  prepared: PreparedVersionEntry | undefined,
): Promise<PendingResult> {
  const database = scope.database.name;
  switch (op.kind) {
    case "declare_table":
      return { kind: "declare_table", response: await declareTableIn(tx, scope, op.body as DeclareTableRequest & { id: string[] }) };
    case "create_table_version":
      return {
        kind: "create_table_version",
        planned: await insertVersionEntry(tx, scope, prepared ?? (await prepareVersionEntry(tx, scope, op.body as unknown as CheckedVersionEntry)), transactionId),
      };
    case "delete_table_versions": {
      const body = op.body as { id: string[]; branch?: string | null; ranges?: { start_version: number; end_version: number }[] };
      if (!Array.isArray(body.ranges)) throw invalidInput("delete_table_versions.ranges is required");
      const table = await requireTable(tx, database, body.id);
      const branch = branchKey(body.branch);
      await requireBranch(scope.engine.files, table, branch);
      const names = await scope.engine.files.manifests.list(table.location, branch);
      const records = await tx.listTableVersions(table.id, branch);
      const known = [...new Set([...names.map((name) => name.version), ...records.map((row) => Number(row.version))])];
      const doomed = await deletableVersions(scope.engine.files, tx, table, branch, known, body.ranges);
      await tx.deleteTableVersions(table.id, branch, doomed);
      const doomedSet = new Set(doomed);
      return { kind: "delete_table_versions", deleted: doomed.length, manifests: names.filter((name) => doomedSet.has(name.version)).map((name) => name.path) };
    }
    case "deregister_table": {
      const row = await requireTable(tx, database, op.body.id);
      await tx.deleteTable(row.id);
      return { kind: "deregister_table", response: { id: op.body.id, location: row.location, properties: row.properties } };
    }
  }
}
