/**
 * @module Work items of a job. A planning step replaces a job's items; workers then claim them
 * one at a time in `seq` order under a lease, so later several processes can share one job's
 * items. An item is completed only by the worker that holds it.
 */
import type { Kysely } from "kysely";
import type { DialectAdapter } from "../../dialect-adapter.js";
import type { JobItemRow, JobJson, JobLease } from "../../job-schema.js";
import { decodedJobItem } from "./job-json.js";
import { heldUnder } from "./job-held.js";
import type { Database } from "../../schema.js";

/**
 * Replaces every item of the job by `params` (one entry per item, in order), only while the caller
 * holds the job's lease: the fence is an update of the job's row, which also keeps a concurrent
 * claim of the job waiting until the items are in place. Answers whether it held the lease.
 */
export async function replaceJobItems(db: Kysely<Database>, jobId: string, lease: JobLease, params: readonly JobJson[], now: number): Promise<boolean> {
  if (!db.isTransaction) return db.transaction().execute((trx) => replaceJobItems(trx, jobId, lease, params, now));
  const fenced = await db.updateTable("jobs").set({ updated_at: now }).where(heldUnder(jobId, lease)).executeTakeFirst();
  if (Number(fenced.numUpdatedRows) !== 1) return false;
  await db.deleteFrom("job_items").where("job_id", "=", jobId).execute();
  // SQLite caps bound parameters per statement; 200 rows of 5 values stay well below it.
  for (let start = 0; start < params.length; start += 200) {
    const rows = params.slice(start, start + 200).map((item, i) => ({
      job_id: jobId,
      seq: start + i,
      params: JSON.stringify(item),
      status: "pending" as const,
      locked_by: null,
      locked_until: null,
      attempts: 0,
      rows_written: 0,
      updated_at: now,
    }));
    await db.insertInto("job_items").values(rows).execute();
  }
  return true;
}

/**
 * Claims the first pending (or abandoned) item of the job, by seq, for the job's lease holder.
 * Where rows can be locked, concurrent claimers skip each other's candidate; the UPDATE is a
 * compare-and-set either way.
 */
export async function claimJobItem(
  db: Kysely<Database>,
  adapter: DialectAdapter,
  jobId: string,
  lease: JobLease,
  now: number,
  leaseMs: number,
): Promise<JobItemRow | undefined> {
  if (!db.isTransaction) return db.transaction().execute((trx) => claimJobItem(trx, adapter, jobId, lease, now, leaseMs));
  let query = db
    .selectFrom("job_items")
    .select(["seq", "status", "locked_until"])
    .where("job_id", "=", jobId)
    .where((eb) => eb.or([eb("status", "=", "pending"), eb.and([eb("status", "=", "running"), eb("locked_until", "<", now)])]))
    .orderBy("seq")
    .limit(1);
  if (adapter.rowLocks) query = query.forUpdate().skipLocked();
  const candidate = await query.executeTakeFirst();
  if (!candidate) return undefined;
  const result = await db
    .updateTable("job_items")
    .set((eb) => ({ status: "running", locked_by: lease.workerId, locked_until: now + leaseMs, attempts: eb("attempts", "+", 1), updated_at: now }))
    .where("job_id", "=", jobId)
    .where("seq", "=", candidate.seq)
    .where("status", "=", candidate.status)
    .where((eb) => (candidate.locked_until === null ? eb("locked_until", "is", null) : eb("locked_until", "=", candidate.locked_until)))
    .where(({ exists, selectFrom }) => exists(selectFrom("jobs").select("jobs.id").where(heldUnder(jobId, lease))))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  const item = await db.selectFrom("job_items").selectAll().where("job_id", "=", jobId).where("seq", "=", candidate.seq).executeTakeFirst();
  return item && decodedJobItem(item);
}

/** Marks the item done, only while the caller holds it and its job's lease (this attempt). */
export async function completeJobItem(db: Kysely<Database>, jobId: string, seq: number, lease: JobLease, rowsWritten: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable("job_items")
    .set({ status: "done", rows_written: rowsWritten, locked_by: null, locked_until: null, updated_at: now })
    .where("job_id", "=", jobId)
    .where("seq", "=", seq)
    .where("locked_by", "=", lease.workerId)
    .where("status", "=", "running")
    .where(({ exists, selectFrom }) => exists(selectFrom("jobs").select("jobs.id").where(heldUnder(jobId, lease))))
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

/**
 * Puts a job's running items back in the pool (pending, unlocked) for the next attempt or another
 * worker; with `workerId`, only the items that worker holds.
 */
export async function returnRunningItems(db: Kysely<Database>, jobId: string, now: number, workerId?: string): Promise<void> {
  let query = db
    .updateTable("job_items")
    .set({ status: "pending", locked_by: null, locked_until: null, updated_at: now })
    .where("job_id", "=", jobId)
    .where("status", "=", "running");
  if (workerId !== undefined) query = query.where("locked_by", "=", workerId);
  await query.execute();
}
