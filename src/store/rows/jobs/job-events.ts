/**
 * @module A job's event log: one row per state change and per work-item claim and completion,
 * kept after the job ends so a job that never finishes still accounts for what it did.
 */
import type { Kysely } from "kysely";
import type { JobEventRow, NewJobEventRow } from "../../job-schema.js";
import type { Database } from "../../schema.js";

export async function insertJobEvent(db: Kysely<Database>, row: NewJobEventRow): Promise<void> {
  await db.insertInto("job_events").values(row).execute();
}

export interface JobEventFilter {
  jobId?: string;
  /** Column = value conditions, all of which must hold. */
  equals?: Partial<Record<"state" | "emitted_by" | "claim_entity", string>>;
}

/** Events of the database's jobs (or of one job), oldest first. */
export function listJobEvents(db: Kysely<Database>, database: string, filter: JobEventFilter, limit: number): Promise<JobEventRow[]> {
  let query = db
    .selectFrom("job_events as e")
    .innerJoin("jobs as j", "j.id", "e.job_id")
    .selectAll("e")
    .where("j.database", "=", database);
  if (filter.jobId) query = query.where("e.job_id", "=", filter.jobId);
  for (const [column, value] of Object.entries(filter.equals ?? {})) {
    query = query.where(`e.${column as "state" | "emitted_by" | "claim_entity"}`, "=", value as string);
  }
  return query.orderBy("e.id").limit(limit).execute();
}
