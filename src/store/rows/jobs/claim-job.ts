/**
 * @module Claims the next runnable job for a worker.
 *
 * Runnable: `queued` and due (`run_at <= now`), or `running` with an expired lease (its worker
 * died; the handler resumes it, so handlers are idempotent). Candidates are taken in (run_at,
 * id) order, which makes the order fully deterministic. A job whose target already has a job
 * running under a live lease is skipped, so two refreshes of one view never run at once.
 *
 * The claim itself is a compare-and-set: the UPDATE repeats the runnable condition, and a
 * row count of 0 means another worker took the job between our read and our write. This is
 * correct on every dialect without row locks; on SQLite the single writer serialises claims
 * anyway, and PostgreSQL can later swap the candidate read for FOR UPDATE SKIP LOCKED.
 */
import type { Kysely } from "kysely";
import type { JobRow } from "../../job-schema.js";
import type { Database } from "../../schema.js";

export interface ClaimJobOptions {
  workerId: string;
  pools: readonly string[];
  now: number;
  leaseMs: number;
  /** How many candidates to try before giving up for this round. */
  candidates?: number;
}

export async function claimJob(db: Kysely<Database>, options: ClaimJobOptions): Promise<JobRow | undefined> {
  const { workerId, pools, now, leaseMs } = options;
  if (pools.length === 0) return undefined;
  const candidates = await db
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
    .limit(options.candidates ?? 8)
    .execute();

  for (const candidate of candidates) {
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
      // Repeated here so the check and the claim are one statement: on SQLite that makes
      // "one running job per target" exact. PostgreSQL under READ COMMITTED would still let
      // two claimers of different jobs on one target both pass; it needs a per-target
      // advisory lock around this statement.
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
      return db.selectFrom("jobs").selectAll().where("id", "=", candidate.id).executeTakeFirst();
    }
  }
  return undefined;
}
