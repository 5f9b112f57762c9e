/**
 * @module Claims the next runnable job for a worker.
 *
 * Runnable: `queued` and due (`run_at <= now`), or `running` with an expired lease (its worker
 * died; the handler resumes it, so handlers are idempotent). Candidates are taken in (run_at,
 * id) order, which makes the order fully deterministic. A job whose target already has a job
 * running under a live lease is skipped, so two refreshes of one view never run at once.
 *
 * The claim runs in one transaction. Where rows can be locked (PostgreSQL) the candidates are
 * read `FOR UPDATE SKIP LOCKED`, so concurrent claimers take different jobs without waiting, and
 * each claim first takes its target's lock (or skips the job when another claimer holds it): two
 * claimers of different jobs on one target would otherwise both pass the "none running" check
 * under READ COMMITTED. On SQLite the single writer serialises claims. The UPDATE repeats the
 * runnable condition either way, as a compare-and-set.
 */
import type { Kysely } from "kysely";
import type { DialectAdapter } from "../../dialect-adapter.js";
import type { JobRow } from "../../job-schema.js";
import type { Database } from "../../schema.js";
import { decodedJob } from "./job-json.js";

export interface ClaimJobOptions {
  workerId: string;
  pools: readonly string[];
  now: number;
  leaseMs: number;
  /** How many candidates to try before giving up for this round. */
  candidates?: number;
}

export async function claimJob(db: Kysely<Database>, adapter: DialectAdapter, options: ClaimJobOptions): Promise<JobRow | undefined> {
  if (options.pools.length === 0) return undefined;
  if (!db.isTransaction) return db.transaction().execute((trx) => claimJob(trx, adapter, options));
  const { workerId, pools, now, leaseMs } = options;
  let candidateQuery = db
    .selectFrom("jobs as j")
    .select(["j.id", "j.status", "j.locked_until", "j.target"])
    .where("j.pool", "in", [...pools])
    .where((eb) =>
      eb.or([
        eb.and([eb("j.status", "=", "queued"), eb("j.run_at", "<=", now)]),
        eb.and([eb("j.status", "=", "running"), eb("j.locked_until", "<", now)]),
      ]),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("jobs as other")
            .select("other.id")
            .whereRef("other.target", "=", "j.target")
            .whereRef("other.id", "!=", "j.id")
            .where("other.status", "=", "running")
            .where("other.locked_until", ">=", now),
        ),
      ),
    )
    .orderBy("j.run_at")
    .orderBy("j.id")
    .limit(options.candidates ?? 8);
  if (adapter.rowLocks) candidateQuery = candidateQuery.forUpdate().skipLocked();
  const candidates = await candidateQuery.execute();

  for (const candidate of candidates) {
    if (!(await adapter.tryLockUntilCommit(db, `job-target:${candidate.target}`))) continue;
    const result = await db
      .updateTable("jobs")
      .set((eb) => ({
        status: "running",
        locked_by: workerId,
        locked_until: now + leaseMs,
        heartbeat_at: now,
        attempts: eb("attempts", "+", 1),
        started_at: eb.fn.coalesce("started_at", eb.val(now)),
        updated_at: now,
      }))
      .where("id", "=", candidate.id)
      .where("status", "=", candidate.status)
      .where((eb) => (candidate.locked_until === null ? eb("locked_until", "is", null) : eb("locked_until", "=", candidate.locked_until)))
      // Repeated here, after the target's lock: a claim committed meanwhile is seen now.
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("jobs as other")
              .select("other.id")
              .where("other.target", "=", candidate.target)
              .where("other.id", "!=", candidate.id)
              .where("other.status", "=", "running")
              .where("other.locked_until", ">=", now),
          ),
        ),
      )
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) {
      const row = await db.selectFrom("jobs").selectAll().where("id", "=", candidate.id).executeTakeFirst();
      return row && decodedJob(row);
    }
  }
  return undefined;
}
