/** @module Reads one job by id, scoped to its database so tenants never see each other's jobs. */
import type { Kysely } from "kysely";
import type { JobRow, JobStatus } from "../../job-schema.js";
import type { Database } from "../../schema.js";
import { decodedJob } from "./job-json.js";

export async function findJob(db: Kysely<Database>, database: string, id: string): Promise<JobRow | undefined> {
  const row = await db.selectFrom("jobs").selectAll().where("database", "=", database).where("id", "=", id).executeTakeFirst();
  return row && decodedJob(row);
}

/** The newest job of `kind` on `target` whose status is one of `statuses` (any status without them), if any. */
async function newestJobOn(db: Kysely<Database>, target: string, kind: string, statuses?: readonly JobStatus[]): Promise<JobRow | undefined> {
  let query = db.selectFrom("jobs").selectAll().where("target", "=", target).where("kind", "=", kind);
  if (statuses) query = query.where("status", "in", statuses);
  const row = await query.orderBy("created_at", "desc").orderBy("id", "desc").executeTakeFirst();
  return row && decodedJob(row);
}

/** The newest unfinished job of `kind` on `target`, if any. */
export function findActiveJobOn(db: Kysely<Database>, target: string, kind: string): Promise<JobRow | undefined> {
  return newestJobOn(db, target, kind, ["queued", "running"]);
}

/** The newest job of `kind` on `target` in any status, if any. */
export function findLatestJobOn(db: Kysely<Database>, target: string, kind: string): Promise<JobRow | undefined> {
  return newestJobOn(db, target, kind);
}
