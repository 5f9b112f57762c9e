/** @module Stores a new job (status `queued`) and its first event, in the caller's transaction. */
import type { Kysely } from "kysely";
import type { NewJobRow } from "../../job-schema.js";
import type { Database } from "../../schema.js";
import { encodedJob } from "./job-json.js";

export async function insertJob(db: Kysely<Database>, row: NewJobRow): Promise<void> {
  await db.insertInto("jobs").values(encodedJob(row)).execute();
  await db
    .insertInto("job_events")
    .values({ job_id: row.id, at: row.created_at, state: "queued", emitted_by: "catalog", claim_entity: null, rows_processed: null, message: null })
    .execute();
}
