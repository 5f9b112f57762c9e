/**
 * @module ListTablesNeedingMaintenance (Quiver's extension): the tables of a namespace's tree whose
 * maintenance is due (the same reading automatic maintenance makes: small fragments, deleted rows,
 * unindexed rows, versions past the retention) or whose last automatic run failed, whatever their
 * policy says. Reading a table's state costs a manifest read and an index read or two, so the tree
 * is paged by table (ordered by identifier) and only the page's tables are read.
 */
import type { ListTablesNeedingMaintenanceRequest, ListTablesNeedingMaintenanceResponse, TableNeedingMaintenance } from "../../model/maintenance.js";
import type { NamespaceRow, TableRow } from "../../store/schema.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { namespaceIdOfKey, namespaceKey, namespaceLabel, validateNamespaceId } from "../identifiers.js";
import { requireNamespace } from "../namespace-lookup.js";
import { pageAfter, pageBounds } from "../pagination.js";
import { lastAutoMaintenanceRun, policyOfTable, serverMaintenanceDefaults } from "./auto-maintenance-status.js";
import { type MaintenanceNeeds, maintenanceNeeds } from "./maintenance-needs.js";

/** Tables read per page when the request names no limit. */
const defaultLimit = 50;

/** A table's key in the page order: its identifier's parts joined with "/" (never part of a name). */
const keyOf = (row: TableRow) => (row.namespace_path === "" ? row.name : `${row.namespace_path}/${row.name}`);

/**
 * ListTablesNeedingMaintenance: of the tables in namespace `id` and every namespace below it,
 * paged (`limit`, default 50), those needing attention; `examined` says how many were read.
 * Throws 1, 13.
 */
export async function listTablesNeedingMaintenance(scope: CatalogScope, request: WithId<ListTablesNeedingMaintenanceRequest>): Promise<ListTablesNeedingMaintenanceResponse> {
  // validate
  validateNamespaceId(request.id);
  const { after, limit } = pageBounds(request);
  const database = scope.database.name;
  const path = namespaceKey(request.id);

  // load
  const rows = await translating(namespaceLabel(request.id), async () => {
    await requireNamespace(scope.store.rows, database, request.id);
    return path === "" ? scope.store.rows.listAllTables(database) : scope.store.rows.listTablesInTree(database, path);
  });
  const page = pageAfter([...rows].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0)), after, limit ?? defaultLimit, keyOf);

  // decide: one table at a time, so a big page never opens many tables at once
  const thresholds = serverMaintenanceDefaults(scope);
  const namespaces = new Map<string, NamespaceRow | undefined>();
  const tables: TableNeedingMaintenance[] = [];
  const now = Date.now();
  for (const row of page.items) {
    const policy = await policyOfTable(scope, row, namespaces);
    const needs = await readNeeds(scope, row, { ...thresholds, retentionMs: policy.retentionMs }, now);
    const lastRun = (await lastAutoMaintenanceRun(scope, row.id)) ?? null;
    if (Object.keys(needs?.due ?? {}).length === 0 && lastRun?.status !== "failed") continue;
    tables.push({
      id: [...namespaceIdOfKey(row.namespace_path), row.name],
      fragments: needs?.fragments ?? null,
      due: needs?.due ?? {},
      auto_maintenance: policy.enabled ? "on" : "off",
      source: policy.source,
      last_run: lastRun,
    });
  }
  return { tables, examined: page.items.length, ...(page.page_token ? { page_token: page.page_token } : {}) };
}

/** The table's needs; undefined for a table without data, or one whose state cannot be read now. */
async function readNeeds(scope: CatalogScope, row: TableRow, thresholds: Parameters<typeof maintenanceNeeds>[2], now: number): Promise<MaintenanceNeeds | undefined> {
  try {
    if (!(await scope.engine.datasetExists(row.location))) return undefined;
    return await maintenanceNeeds(scope, row, thresholds, now);
  } catch {
    // One unreadable table (its storage gone, say) must not hide the others' needs.
    return undefined;
  }
}
