/**
 * @module Work items of a job. A planning step replaces a job's items; workers then claim them
 * one at a time in `seq` order under a lease, so later several processes can share one job's
 * items. An item is completed only by the worker that holds it.
 */
import type { Kysely } from "kysely";
import type { JobItemRow } from "../../job-schema.js";
import type { Database } from "../../schema.js";

/** Replaces every item of the job by `params` (one entry per item, in order). */
export async function replaceJobItems(db: Kysely<Database>, jobId: string, params: readonly string[], now: number): Promise<void> {
  await db.deleteFrom("job_items").where("job_id", "=", jobId).execute();
  // SQLite caps bound parameters per statement; 200 rows of 5 values stay well below it.
  for (let start = 0; start < params.length; start += 200) {
    const rows = params.slice(start, start + 200).map((text, i) => ({
      job_id: jobId,
      seq: start + i,
      params: text,
      status: "pending" as const,
      locked_by: null,
      locked_until: null,
      attempts: 0,
      rows_written: 0,
      updated_at: now,
    }));
    await db.insertInto("job_items").values(rows).execute();
  }
}

/** Claims the first pending (or abandoned) item of the job, by seq. */
export async function claimJobItem(db: Kysely<Database>, jobId: string, workerId: string, now: number, leaseMs: number): Promise<JobItemRow | undefined> {
  for (let tries = 0; tries < 8; tries += 1) {
    const candidate = await db
      .selectFrom("job_items")
      .select(["seq", "status", "locked_until"])
      .where("job_id", "=", jobId)
      .where((eb) => eb.or([eb("status", "=", "pending"), eb.and([eb("status", "=", "running"), eb("locked_until", "<", now)])]))
      .orderBy("seq")
      .limit(1)
      .executeTakeFirst();
    if (!candidate) return undefined;
    const result = await db
      .updateTable("job_items")
      .set((eb) => ({ status: "running", locked_by: workerId, locked_until: now + leaseMs, attempts: eb("attempts", "+", 1), updated_at: now }))
      .where("job_id", "=", jobId)
      .where("seq", "=", candidate.seq)
      .where("status", "=", candidate.status)
      .where((eb) => (candidate.locked_until === null ? eb("locked_until", "is", null) : eb("locked_until", "=", candidate.locked_until)))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) {
      return db.selectFrom("job_items").selectAll().where("job_id", "=", jobId).where("seq", "=", candidate.seq).executeTakeFirst();
    }
  }
  return undefined;
}

export async function completeJobItem(db: Kysely<Database>, jobId: string, seq: number, workerId: string, rowsWritten: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable("job_items")
    .set({ status: "done", rows_written: rowsWritten, locked_by: null, locked_until: null, updated_at: now })
    .where("job_id", "=", jobId)
    .where("seq", "=", seq)
    .where("locked_by", "=", workerId)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface JobItemCounts {
  total: number;
  done: number;
  rowsWritten: number;
}

export async function countJobItems(db: Kysely<Database>, jobId: string): Promise<JobItemCounts> {
  const rows = await db
    .selectFrom("job_items")
    .select((eb) => ["status", eb.fn.countAll<number>().as("n"), eb.fn.sum<number>("rows_written").as("rows")])
    .where("job_id", "=", jobId)
    .groupBy("status")
    .execute();
  let total = 0;
  let done = 0;
  let rowsWritten = 0;
  for (const row of rows) {
    total += Number(row.n);
    if (row.status === "done") done += Number(row.n);
    rowsWritten += Number(row.rows ?? 0);
  }
  return { total, done, rowsWritten };
}
