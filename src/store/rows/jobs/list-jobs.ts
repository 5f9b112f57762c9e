/**
 * @module Pages through a database's jobs, newest first. The cursor is the (created_at, id) of
 * the last job of the previous page, so pages stay stable while new jobs arrive.
 */
import type { Kysely } from "kysely";
import type { JobRow } from "../../job-schema.js";
import type { Database } from "../../schema.js";
import { decodedJob } from "./job-json.js";

export interface JobCursor {
  createdAt: number;
  id: string;
}

export interface ListJobsFilter {
  target?: string;
  status?: string;
}

export async function listJobs(db: Kysely<Database>, database: string, after: JobCursor | undefined, limit: number, filter: ListJobsFilter = {}): Promise<JobRow[]> {
  let query = db.selectFrom("jobs").selectAll().where("database", "=", database);
  if (filter.target) query = query.where("target", "=", filter.target);
  if (filter.status) query = query.where("status", "=", filter.status as JobRow["status"]);
  if (after) {
    query = query.where((eb) =>
      eb.or([eb("created_at", "<", after.createdAt), eb.and([eb("created_at", "=", after.createdAt), eb("id", "<", after.id)])]),
    );
  }
  return (await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute()).map(decodedJob);
}
