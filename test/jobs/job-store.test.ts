// The job store and worker without HTTP, on each store dialect: claim order, one running job per target, lease
// fencing, retries with capped backoff, abandoned jobs, release on stop.
import { Storages } from "../../src/storage/storages.js";
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { CatalogRegistry, ensureDatabase } from "../../src/catalog/runtime/database-registry.js";
import { enqueueJob } from "../../src/catalog/jobs/job-queue.js";
import { CatalogError } from "../../src/model/catalog-error.js";
import { Engine } from "../../src/engine/engine.js";
import type { JobHandler } from "../../src/catalog/jobs/job-handler.js";
import { PermanentJobError } from "../../src/catalog/jobs/job-handler.js";
import { jobSettings, retryDelay } from "../../src/jobs/job-settings.js";
import { JobWorker } from "../../src/jobs/job-worker.js";
import type { Store } from "../../src/store/store.js";
import { tempRoot } from "../helpers/test-server.js";
import { type StoreDialect, openTestStore, storeDialects } from "../helpers/test-store.js";

async function openStore(t: { after(fn: () => unknown): void }, dialect: StoreDialect): Promise<Store> {
  const store = await openTestStore(t, dialect);
  await ensureDatabase(new Storages(), store, path.join(tempRoot(), "databases"), "default");
  return store;
}

const job = (target: string, pool = "default") => ({ kind: "test", target, targetName: target, params: {}, pool });

async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test("retryDelay backs off exponentially up to the cap", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelay(n, 1000, 30_000)), [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
});

for (const dialect of storeDialects) {
  test(`${dialect}: claimJob takes due jobs by (run_at, id), one running job per target, only from served pools`, async (t) => {
    const store = await openStore(t, dialect);
    const rows = store.rows;
    const now = Date.now();
    const insert = async (id: string, target: string, runAt: number, pool = "default") => {
      // Known ids and due times, so the expected order is explicit.
      await rows.insertJob({
        id, database: "default", kind: "test", target, target_name: target, pool, params: {}, state: {}, status: "queued",
        cancel_requested: 0, attempts: 0, max_attempts: 3, run_at: runAt, locked_by: null, locked_until: null, heartbeat_at: null,
        items_total: 0, items_done: 0, rows_written: 0, result: null, last_error: null, error_phase: null,
        created_at: now, updated_at: now, started_at: null, finished_at: null,
      });
      return id;
    };
    await insert("j3", "t1", now - 10);
    await insert("j2", "t3", now - 30);
    await insert("j1", "t2", now - 30);
    await insert("j5", "t1", now - 50);
    await insert("j4", "t4", now + 60_000);
    await insert("j6", "t6", now - 100, "gpu");
    const claims: (string | undefined)[] = [];
    for (let i = 0; i < 4; i += 1) claims.push((await rows.claimJob({ workerId: "w1", pools: ["default"], now, leaseMs: 1000 }))?.id);
    // j5 is due first; j1 and j2 tie on run_at and go by id; j3 waits for t1's running j5; j4 is
    // not due; j6 is in a pool this worker does not serve.
    assert.deepEqual(claims.slice(0, 4), ["j5", "j1", "j2", undefined]);
    const j5 = await rows.findJob("default", "j5");
    assert.equal(j5?.status, "running");
    assert.equal(j5?.attempts, 1);
    assert.equal(j5?.locked_by, "w1");
    assert.equal((await rows.findJob("default", "j3"))?.status, "queued", "untouched");
    assert.equal((await rows.claimJob({ workerId: "w2", pools: ["gpu"], now, leaseMs: 1000 }))?.id, "j6");
  });

  test(`${dialect}: state changes are fenced: only the lease holder completes, fails or extends a job`, async (t) => {
    const store = await openStore(t, dialect);
    const rows = store.rows;
    const id = await enqueueJob(rows, "default", job("t"));
    const now = Date.now();
    await rows.claimJob({ workerId: "w1", pools: ["default"], now, leaseMs: 1000 });
    assert.equal(await rows.completeJob(id, { workerId: "w2", attempt: 1 }, {}, now), false);
    assert.equal(await rows.failJob(id, { workerId: "w2", attempt: 1 }, { error: "e", phase: "p" }, now), false);
    assert.deepEqual(await rows.extendJobLease(id, { workerId: "w2", attempt: 1 }, now, 1000), { held: false, cancelRequested: false });
    assert.equal((await rows.findJob("default", id))?.status, "running", "nothing changed");
    // The lease expires; another worker resumes the job and the first loses it.
    const resumed = await rows.claimJob({ workerId: "w2", pools: ["default"], now: now + 2000, leaseMs: 1000 });
    assert.equal(resumed?.id, id);
    assert.equal(resumed?.attempts, 2);
    assert.equal(await rows.completeJob(id, { workerId: "w1", attempt: 1 }, {}, now + 2000), false);
    assert.equal(await rows.completeJob(id, { workerId: "w2", attempt: 1 }, {}, now + 2000), false, "the right worker with an earlier attempt is refused too");
    assert.equal(await rows.completeJob(id, { workerId: "w2", attempt: 2 }, { ok: true }, now + 2000), true);
    const done = await rows.findJob("default", id);
    assert.equal(done?.status, "succeeded");
    assert.equal(done?.locked_by, null);
  });

  test(`${dialect}: a running job whose lease expired with no attempts left is failed with a reason, never lost`, async (t) => {
    const store = await openStore(t, dialect);
    const rows = store.rows;
    const id = await enqueueJob(rows, "default", job("t"));
    let now = Date.now();
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const claimed = await rows.claimJob({ workerId: `w${attempt}`, pools: ["default"], now, leaseMs: 100 });
      assert.equal(claimed?.attempts, attempt);
      now += 200;
    }
    assert.deepEqual(await rows.failAbandonedJobs(now), [id]);
    const failed = await rows.findJob("default", id);
    assert.equal(failed?.status, "failed");
    assert.match(failed?.last_error ?? "", /lease expired/);
    assert.equal(await rows.claimJob({ workerId: "w4", pools: ["default"], now, leaseMs: 100 }), undefined);
  });


  test(`${dialect}: the worker retries a transient failure after a backoff, fails a permanent one at once, and releases jobs on stop`, async (t) => {
    const store = await openStore(t, dialect);
    const engine = new Engine({ storages: new Storages() });
    const registry = new CatalogRegistry(store, engine, path.join(tempRoot(), "databases"));
    let flakyRuns = 0;
    let slowStarted = false;
    const handlers = new Map<string, JobHandler>([
      ["flaky", { run: async () => {
        flakyRuns += 1;
        if (flakyRuns === 1) throw new CatalogError(17, "storage is busy");
        return { runs: flakyRuns };
      } }],
      ["broken", { run: async () => { throw new PermanentJobError("the source table is gone", "load"); } }],
      ["slow", { run: async (ctx) => {
        slowStarted = true;
        for (;;) {
          ctx.checkpoint();
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      } }],
    ]);
    // A backoff long enough that a loaded machine's polls still see the job waiting out its retry.
    const settings = jobSettings({ pollMs: 10, leaseMs: 600, backoffBaseMs: 1500, backoffCapMs: 3000 }, {});
    const worker = new JobWorker(store, registry, handlers, settings);
    t.after(async () => {
      await worker.stop();
      engine.close();
    });
    const flaky = await enqueueJob(store.rows, "default", { ...job("a"), kind: "flaky" });
    const broken = await enqueueJob(store.rows, "default", { ...job("b"), kind: "broken" });
    worker.start();

    const retried = await until(async () => {
      const row = await store.rows.findJob("default", flaky);
      return row?.status === "queued" && row.attempts === 1 ? row : undefined;
    });
    assert.equal(retried.last_error, "storage is busy");
    assert.ok(retried.run_at >= retried.updated_at + 1500, "due again only after the backoff");
    const succeeded = await until(async () => {
      const row = await store.rows.findJob("default", flaky);
      return row?.status === "succeeded" ? row : undefined;
    });
    assert.equal(succeeded.attempts, 2);
    assert.deepEqual(succeeded.result, { runs: 2 });

    const failed = await until(async () => {
      const row = await store.rows.findJob("default", broken);
      return row?.status === "failed" ? row : undefined;
    });
    assert.equal(failed.attempts, 1, "a permanent failure is not retried");
    assert.equal(failed.error_phase, "load");

    const slow = await enqueueJob(store.rows, "default", { ...job("c"), kind: "slow" });
    worker.wake();
    await until(async () => (slowStarted ? true : undefined));
    await worker.stop();
    const released = await store.rows.findJob("default", slow);
    assert.equal(released?.status, "running", "still owed: it resumes in the next process");
    assert.equal(released?.locked_by, null);
    const next = await store.rows.claimJob({ workerId: "next", pools: ["default"], now: Date.now(), leaseMs: 1000 });
    assert.equal(next?.id, slow, "claimable at once, without waiting for the lease");
  });
}
