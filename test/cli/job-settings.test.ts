// The job system's environment settings, each seen through a `quiver serve` process: worker
// pools, how often an idle worker looks for jobs, how many it runs at once, and how long a dead
// worker's claim holds a job.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Field, Int32, Schema } from "apache-arrow-21";
import { openLocalCatalog } from "../../src/catalog/runtime/local-catalog.js";
import { type EnvChanges, type ServeProcess, cliEntry, runNode, spawnServe } from "../helpers/cli-process.js";
import { expectError, expectJson, tempRoot } from "../helpers/test-server.js";
import { schemaBase64, streamOf, waitForJob } from "../helpers/views.js";

type After = { after(fn: () => unknown): void };

/** The servers started on each root, stopped when the root is removed: one could still be writing in it. */
const serversOn = new Map<string, ServeProcess[]>();

/** A root holding table `docs` (ids 0..rows-1) and a query view of it per name, made without a server; removed after the test, once its servers are stopped. */
async function preparedRoot(t: After, rows: number, views: string[]): Promise<string> {
  const root = tempRoot();
  t.after(async () => {
    await Promise.all((serversOn.get(root) ?? []).map((server) => server.stop("SIGKILL")));
    rmSync(root, { recursive: true, force: true });
  });
  const local = await openLocalCatalog({ root });
  try {
    await local.catalog.createTable({ id: ["docs"] }, streamOf({ id: Int32Array.from({ length: rows }, (_, i) => i) }));
    for (const name of views) {
      await local.catalog.createMaterializedView({
        id: [name],
        kind: "query",
        source_query: JSON.stringify({ source: ["docs"], projections: ["id"] }),
        output_schema: schemaBase64(new Schema([new Field("id", new Int32())])),
      });
    }
  } finally {
    await local.close();
  }
  return root;
}

/** Queues a refresh of each view straight in the root's store, as another process would: no worker is told. */
async function queueRefreshes(root: string, views: string[], sourceTaskSize: number): Promise<string[]> {
  const local = await openLocalCatalog({ root });
  try {
    const ids: string[] = [];
    for (const name of views) ids.push((await local.catalog.refreshMaterializedView({ id: [name], source_task_size: sourceTaskSize })).job_id);
    return ids;
  } finally {
    await local.close();
  }
}

async function serve(root: string, env: EnvChanges): Promise<ServeProcess & { get(route: string): Promise<Response> }> {
  const server = await spawnServe(["--port", "0", "--root", root], env);
  serversOn.set(root, [...(serversOn.get(root) ?? []), server]);
  return { ...server, get: (route: string) => fetch(server.url + route) };
}

const refresh = (url: string, view: string, body: Record<string, unknown>) =>
  fetch(`${url}/v1/materialized_view/${view}/refresh`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

// Each case has roots and servers of its own, and most of its time is spent waiting on them:
// they run side by side.
describe("the job settings of quiver serve", { concurrency: true }, () => {
  test("QUIVER_WORKER_POOLS names the clusters a refresh may ask for, the first being the default, and the worker runs jobs of each", { timeout: 60_000 }, async (t) => {
    const [pooledRoot, plainRoot] = await Promise.all([preparedRoot(t, 50, ["v"]), preparedRoot(t, 50, ["v"])]);
    const [pooled, plain] = await Promise.all([serve(pooledRoot, { QUIVER_WORKER_POOLS: "cpu, gpu" }), serve(plainRoot, { QUIVER_WORKER_POOLS: undefined })]);

    const onGpu = await waitForJob(pooled, (await expectJson(await refresh(pooled.url, "v", { cluster: "gpu" }), 202)).job_id, 20_000);
    assert.deepEqual([onGpu.status, onGpu.cluster], ["succeeded", "gpu"]);
    const byDefault = await waitForJob(pooled, (await expectJson(await refresh(pooled.url, "v", {}), 202)).job_id, 20_000);
    assert.deepEqual([byDefault.status, byDefault.cluster], ["succeeded", "cpu"]);

    await expectError(await refresh(plain.url, "v", { cluster: "gpu" }), 400, 13);
    const plainJob = await waitForJob(plain, (await expectJson(await refresh(plain.url, "v", {}), 202)).job_id, 20_000);
    assert.deepEqual([plainJob.status, plainJob.cluster], ["succeeded", "default"]);
  });

  test("QUIVER_JOB_POLL_MS sets how soon an idle worker finds a job another process queued", { timeout: 60_000 }, async (t) => {
    const [slowRoot, quickRoot] = await Promise.all([preparedRoot(t, 50, ["v"]), preparedRoot(t, 50, ["v"])]);
    const [slow, quick] = await Promise.all([serve(slowRoot, { QUIVER_JOB_POLL_MS: "600000" }), serve(quickRoot, { QUIVER_JOB_POLL_MS: "100" })]);
    // Both workers have made their first look by now; the jobs appear after it.
    const [[slowJob], [quickJob]] = await Promise.all([queueRefreshes(slowRoot, ["v"], 1000), queueRefreshes(quickRoot, ["v"], 1000)]);

    const done = await waitForJob(quick, quickJob as string, 10_000);
    assert.equal(done.status, "succeeded");
    await sleep(1500);
    assert.equal((await expectJson(await slow.get(`/v1/jobs/${slowJob}`))).status, "queued", "the next look is ten minutes away");
  });

  test("QUIVER_JOB_CONCURRENCY=1 runs two queued jobs one after the other, =2 runs them at the same time", { timeout: 60_000 }, async (t) => {
    const runs = await Promise.all(
      ["1", "2"].map(async (concurrency) => {
        const root = await preparedRoot(t, 300, ["a", "b"]);
        // Queued before the server starts, so its first look finds both.
        const ids = await queueRefreshes(root, ["a", "b"], 20);
        const server = await serve(root, { QUIVER_JOB_CONCURRENCY: concurrency });
        const jobs = [];
        for (const id of ids) jobs.push(await waitForJob(server, id, 30_000));
        for (const job of jobs) assert.equal(job.status, "succeeded", JSON.stringify(job));
        return jobs as { started_at_ms: number; finished_at_ms: number }[];
      }),
    );
    const overlap = ([x, y]: { started_at_ms: number; finished_at_ms: number }[]) =>
      x !== undefined && y !== undefined && x.started_at_ms < y.finished_at_ms && y.started_at_ms < x.finished_at_ms;
    assert.equal(overlap(runs[0] ?? []), false, `one at a time: ${JSON.stringify(runs[0])}`);
    assert.equal(overlap(runs[1] ?? []), true, `two at once: ${JSON.stringify(runs[1])}`);
  });

  test("QUIVER_JOB_LEASE_MS=1000: the running job of a killed server is resumed by the next one within seconds", { timeout: 60_000 }, async (t) => {
    const root = await preparedRoot(t, 1000, ["v"]);
    const [jobId] = await queueRefreshes(root, ["v"], 10);
    const first = await serve(root, { QUIVER_JOB_LEASE_MS: "1000", QUIVER_JOB_POLL_MS: "50" });
    for (;;) {
      const job = await expectJson(await first.get(`/v1/jobs/${jobId}`));
      assert.notEqual(job.status, "succeeded", "the job must still be running when its server is killed");
      if (job.status === "running" && job.progress.items_done >= 1) break;
      await sleep(10);
    }
    await first.stop("SIGKILL");
    const killedAt = Date.now();

    // Under the default lease (15 s, renewed every 5 s) the claim would hold for 10 s at least.
    const second = await serve(root, { QUIVER_JOB_POLL_MS: "50" });
    let job = await expectJson(await second.get(`/v1/jobs/${jobId}`));
    while (job.attempts < 2 && Date.now() - killedAt < 9000) {
      await sleep(50);
      job = await expectJson(await second.get(`/v1/jobs/${jobId}`));
    }
    const waited = Date.now() - killedAt;
    assert.equal(job.attempts, 2, `resumed by the second server: ${JSON.stringify(job)}`);
    assert.ok(waited < 8000, `resumed ${waited} ms after the kill`);
  });

  test("a job setting that is set but not a valid integer stops serve at start-up with exit code 1, naming it", { timeout: 60_000 }, async (t) => {
    const root = tempRoot();
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const cases: [string, string, string][] = [
      ["QUIVER_JOB_CONCURRENCY", "0", "at least 1"],
      ["QUIVER_JOB_LEASE_MS", "soon", "at least 1"],
      ["QUIVER_AUTO_REFRESH_ROWS", "-5", "at least 0"],
    ];
    // The settings are checked before the root is opened, so the starts need not wait for each other.
    const started = await Promise.all(cases.map(([name, value]) => runNode(cliEntry, ["serve", "--port", "0", "--root", root], { [name]: value }, 20_000)));
    cases.forEach(([name, value, bound], i) => {
      const { code, stderr } = started[i] as { code: number | null; stderr: string };
      assert.equal(code, 1, `${name}=${value}: ${stderr}`);
      assert.ok(stderr.includes(`${name} must be an integer of ${bound}, got '${value}'`), stderr);
    });
  });
});
