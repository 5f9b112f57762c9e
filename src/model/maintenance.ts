/**
 * @module Table maintenance models (Quiver's extension): compaction, cleanup of old versions and
 * index optimisation, each run now or as a job (`wait: false`), and a table's recurring
 * maintenance schedule.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Nullable, ObjectId, pageFields, PageResponse, RequestModel, ResponseModel, Version } from "./common.js";

/** The switch of docs/jobs.md: false queues a job and answers 202 with its `job_id`. */
const waitField = { wait: Type.Optional(Nullable(Type.Boolean({ description: "false: run as a job and answer 202 with its job_id" }))) };

/** A week: what cleanup keeps when the request names no retention. */
export const defaultRetentionSeconds = 7 * 24 * 3600;

const OlderThanSeconds = Type.Integer({ minimum: 0, description: "Versions committed longer ago than this are removed; default 604800 (7 days)" });

export const CompactTableRequest = RequestModel("CompactTableRequest", { ...waitField });
export type CompactTableRequest = Static<typeof CompactTableRequest>;

export const OptimizeTableIndicesRequest = RequestModel("OptimizeTableIndicesRequest", { ...waitField });
export type OptimizeTableIndicesRequest = Static<typeof OptimizeTableIndicesRequest>;

export const CleanupTableVersionsRequest = RequestModel("CleanupTableVersionsRequest", {
  older_than_seconds: Type.Optional(Nullable(OlderThanSeconds)),
  /** Also remove data files no version refers to that are younger than 7 days (files of a write still running look like that). */
  delete_unverified: Type.Optional(Nullable(Type.Boolean())),
  ...waitField,
});
export type CleanupTableVersionsRequest = Static<typeof CleanupTableVersionsRequest>;

export const TableMaintenanceResponse = ResponseModel("TableMaintenanceResponse", {
  transaction_id: Type.Optional(Type.String()),
  version: Version,
  fragments_before: Type.Integer({ minimum: 0 }),
  fragments_after: Type.Integer({ minimum: 0 }),
  fragments_removed: Type.Integer({ minimum: 0 }),
  fragments_added: Type.Integer({ minimum: 0 }),
  files_removed: Type.Integer({ minimum: 0 }),
  files_added: Type.Integer({ minimum: 0 }),
  versions_removed: Type.Integer({ minimum: 0 }),
  bytes_removed: Type.Integer({ minimum: 0 }),
  /** Cleanup: versions committed before this instant (epoch ms) were eligible for removal; 0 for the other tasks. */
  removed_before_ms: Type.Integer({ minimum: 0 }),
  /** Cleanup: the tags whose versions bounded the cutoff (a tagged version is never removed). */
  protected_tags: Type.Array(Type.String()),
});
export type TableMaintenanceResponse = Static<typeof TableMaintenanceResponse>;

export const SetTableMaintenanceScheduleRequest = RequestModel("SetTableMaintenanceScheduleRequest", {
  interval_seconds: Nullable(Type.Integer({ minimum: 60, description: "Run compaction, cleanup and index optimisation this often; null removes the schedule" })),
  older_than_seconds: Type.Optional(Nullable(OlderThanSeconds)),
  first_run_in_seconds: Type.Optional(Nullable(Type.Integer({ minimum: 0, description: "When the first run is due, from now; default one interval" }))),
});
export type SetTableMaintenanceScheduleRequest = Static<typeof SetTableMaintenanceScheduleRequest>;

export const DescribeTableMaintenanceScheduleRequest = RequestModel("DescribeTableMaintenanceScheduleRequest", {});
export type DescribeTableMaintenanceScheduleRequest = Static<typeof DescribeTableMaintenanceScheduleRequest>;

/** The last `auto_maintenance` job of a table. */
export const AutoMaintenanceRun = Type.Object({
  job_id: Type.String(),
  /** The job's status: queued, running, succeeded, failed or cancelled. */
  status: Type.String(),
  created_at_ms: Type.Integer({ minimum: 0 }),
  /** When it ended (epoch ms); null while queued or running. */
  finished_at_ms: Nullable(Type.Integer({ minimum: 0 })),
  /** The tasks it was queued for, each with its reason. */
  due: Type.Record(Type.String(), Type.String()),
  fragments_before: Nullable(Type.Integer({ minimum: 0 })),
  fragments_after: Nullable(Type.Integer({ minimum: 0 })),
  versions_removed: Nullable(Type.Integer({ minimum: 0 })),
  /** Why it failed, or why it yielded to concurrent writes; null otherwise. */
  error: Nullable(Type.String()),
});
export type AutoMaintenanceRun = Static<typeof AutoMaintenanceRun>;

/** A table's effective automatic maintenance policy and where each part comes from (docs/maintenance.md). */
export const AutoMaintenancePolicy = Type.Object({
  auto_maintenance: Type.Union([Type.Literal("on"), Type.Literal("off")]),
  /** What decided `auto_maintenance`: `table`, `namespace:<id>` (components joined with `$`), `database` or `server`. */
  source: Type.String(),
  version_retention_seconds: Type.Integer({ minimum: 0 }),
  /** What decided the retention: `table`, `namespace:<id>` or `server`. */
  version_retention_source: Type.String(),
  /** The table's latest automatic maintenance job; null when none ran. */
  last_run: Nullable(AutoMaintenanceRun),
});
export type AutoMaintenancePolicy = Static<typeof AutoMaintenancePolicy>;

export const TableMaintenanceSchedule = ResponseModel("TableMaintenanceSchedule", {
  interval_seconds: Nullable(Type.Integer({ minimum: 60 })),
  older_than_seconds: Nullable(OlderThanSeconds),
  /** When the next run is due (epoch ms); null without a schedule. */
  next_run_at_ms: Nullable(Type.Integer({ minimum: 0 })),
  /** The queued job of the next run; null without a schedule. */
  job_id: Nullable(Type.String()),
  /** Automatic maintenance of the table; answered by DescribeTableMaintenanceSchedule. */
  auto_maintenance_policy: Type.Optional(AutoMaintenancePolicy),
});
export type TableMaintenanceSchedule = Static<typeof TableMaintenanceSchedule>;

export const ListTablesNeedingMaintenanceRequest = RequestModel("ListTablesNeedingMaintenanceRequest", pageFields);
export type ListTablesNeedingMaintenanceRequest = Static<typeof ListTablesNeedingMaintenanceRequest>;

/** A table whose maintenance is due, or whose last automatic run failed. */
export const TableNeedingMaintenance = Type.Object({
  id: ObjectId,
  /** Fragments of its latest version; null when its state could not be read. */
  fragments: Nullable(Type.Integer({ minimum: 0 })),
  /** Each task due, with its reason (the reasons automatic maintenance would queue a job for). */
  due: Type.Record(Type.String(), Type.String()),
  /** Whether automatic maintenance looks after it, and what says so. */
  auto_maintenance: Type.Union([Type.Literal("on"), Type.Literal("off")]),
  source: Type.String(),
  last_run: Nullable(AutoMaintenanceRun),
});
export type TableNeedingMaintenance = Static<typeof TableNeedingMaintenance>;

export const ListTablesNeedingMaintenanceResponse = PageResponse("ListTablesNeedingMaintenanceResponse", {
  /** The tables of this page of the namespace's tree that need attention, by identifier. */
  tables: Type.Array(TableNeedingMaintenance),
  /** Tables looked at for this page (those needing nothing are left out of `tables`). */
  examined: Type.Integer({ minimum: 0 }),
});
export type ListTablesNeedingMaintenanceResponse = Static<typeof ListTablesNeedingMaintenanceResponse>;
