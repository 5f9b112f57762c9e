/**
 * @module Operation entries of table maintenance (Quiver's extension): compaction, cleanup of
 * old versions, index optimisation, and a table's maintenance schedule. The three tasks run
 * before answering, or as a job answering 202 with its `job_id` when the client asks not to wait
 * (body `wait: false`, `?wait=false` or `x-quiver-wait: false`; docs/jobs.md).
 */
import * as M from "../index.js";
import { json, operation, pageQuery } from "./operation-entry.js";

export const maintenanceOperations = {
  /** CompactTable: rewrites small fragments into larger ones; every row is kept. Throws 1, 4, 13, 19. */
  compactTable: operation({
    operationId: "CompactTable",
    summary: "Compact a table's small fragments into larger ones (also brings indexes up to date)",
    tag: "Maintenance",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/compact",
    target: "table",
    body: "json",
    querySchema: M.IndexJobQuery,
    request: M.CompactTableRequest,
    response: json(M.TableMaintenanceResponse),
  }),

  /**
   * CleanupTableVersions: removes the versions older than `older_than_seconds` (default 7 days)
   * and the files only they used; never the latest version, a tagged version or a branch's base.
   * Throws 1, 4, 13, 19.
   */
  cleanupTableVersions: operation({
    operationId: "CleanupTableVersions",
    summary: "Remove old versions of a table, keeping tagged versions and branch bases",
    tag: "Maintenance",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/cleanup",
    target: "table",
    body: "json",
    querySchema: M.IndexJobQuery,
    request: M.CleanupTableVersionsRequest,
    response: json(M.TableMaintenanceResponse),
  }),

  /** OptimizeTableIndices: adds the rows written since each index was built to it. Throws 1, 4, 13, 19. */
  optimizeTableIndices: operation({
    operationId: "OptimizeTableIndices",
    summary: "Bring a table's indexes up to date with rows added since they were built (also compacts)",
    tag: "Maintenance",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/optimize_indices",
    target: "table",
    body: "json",
    querySchema: M.IndexJobQuery,
    request: M.OptimizeTableIndicesRequest,
    response: json(M.TableMaintenanceResponse),
  }),

  /**
   * SetTableMaintenanceSchedule: runs compaction, cleanup and index optimisation every
   * `interval_seconds` as a job; `null` removes the schedule. Throws 1, 4, 13.
   */
  setTableMaintenanceSchedule: operation({
    operationId: "SetTableMaintenanceSchedule",
    summary: "Set or remove a table's recurring maintenance",
    tag: "Maintenance",
    access: "write",
    privilege: { needs: "OWNERSHIP", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/maintenance_schedule",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.SetTableMaintenanceScheduleRequest,
    response: json(M.TableMaintenanceSchedule),
  }),

  /** DescribeTableMaintenanceSchedule: the table's schedule and when it runs next. Throws 1, 4. */
  describeTableMaintenanceSchedule: operation({
    operationId: "DescribeTableMaintenanceSchedule",
    summary: "A table's recurring maintenance and its next run",
    tag: "Maintenance",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/maintenance_schedule/describe",
    target: "table",
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.DescribeTableMaintenanceScheduleRequest,
    response: json(M.TableMaintenanceSchedule),
  }),

  /**
   * ListTablesNeedingMaintenance: of a namespace's tables and those of every namespace below it,
   * paged, those whose maintenance is due or whose last automatic run failed. Writers and admins
   * only, like the other maintenance calls. Throws 1, 13.
   */
  listTablesNeedingMaintenance: operation({
    operationId: "ListTablesNeedingMaintenance",
    summary: "List the tables of a namespace's tree whose maintenance is due or whose last automatic run failed",
    tag: "Maintenance",
    access: "write",
    privilege: { needs: "CREATE_TABLE", on: "object" },
    methods: ["GET"],
    path: "/v1/namespace/{id}/tables_needing_maintenance",
    target: "namespace",
    body: "none",
    querySchema: M.ListQuery,
    query: [...pageQuery],
    request: M.ListTablesNeedingMaintenanceRequest,
    response: json(M.ListTablesNeedingMaintenanceResponse),
  }),
};
