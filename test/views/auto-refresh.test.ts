// Auto refresh: views created with auto_refresh true are refreshed by the job system when their
// source moves beyond the deployment's thresholds (rows or versions), once per change, after a
// cooldown; views without it never are.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Field, Int32, Schema, Utf8, vectorFromArray } from "apache-arrow-21";
import { expectJson, startTestServer, type TestServer } from "../helpers/test-server.js";
import { TableData, createSource, schemaBase64, streamOf, waitForJob } from "../helpers/views.js";

const viewSchema = new Schema([new Field("id", new Int32()), new Field("title", new Utf8())]);

function rowsOf(from: number, count: number) {
  const ids = Array.from({ length: count }, (_, i) => from + i);
  return { id: Int32Array.from(ids), title: vectorFromArray(ids.map((i) => `t${i}`), new Utf8()) };
}

async function createView(server: TestServer, id: string, source: string, autoRefresh: boolean): Promise<string> {
  const body = await expectJson(
    await server.post(`/v1/materialized_view/${id}/create`, {
      kind: "query",
      source_query: JSON.stringify({ source, projections: ["id", "title"] }),
      output_schema: schemaBase64(viewSchema),
      auto_refresh: autoRefresh,
      with_no_data: false,
    }),
    201,
  );
  return (await waitForJob(server, body.job_id)).job_id as string;
}

async function refreshJobsOf(server: TestServer, id: string): Promise<{ job_id: string; status: string }[]> {
  const listed = await expectJson(await server.post("/v1/jobs/list", { table: id.split("$") }));
  return listed.jobs.filter((job: { job_type: string }) => job.job_type === "refresh_materialized_view");
}

async function insert(server: TestServer, id: string, columns: Record<string, unknown>): Promise<void> {
  await expectJson(await server.upload(`/v1/table/${id}/insert`, streamOf(columns)));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(40);
  }
}

test("auto refresh by changed rows, on the job system's timer", async (t) => {
  const server = await startTestServer({ jobs: { pollMs: 20, autoRefresh: { rows: 5, versions: 0, cooldownMs: 0, intervalMs: 50 } } });
  const data = new TableData();
  t.after(async () => {
    data.close();
    await server.close();
  });
  await expectJson(await server.post("/v1/namespace/ar/create", {}));
  await createSource(server, "ar$docs", rowsOf(1, 4));
  const autoFirst = await createView(server, "ar$auto", "ar$docs", true);
  const manualFirst = await createView(server, "ar$manual", "ar$docs", false);
  const autoLocation = (await expectJson(await server.post("/v1/table/ar$auto/describe", {}))).location as string;
  const manualLocation = (await expectJson(await server.post("/v1/table/ar$manual/describe", {}))).location as string;

  await t.test("a source insert below the threshold (3 rows < 5) queues no refresh", async () => {
    await insert(server, "ar$docs", rowsOf(5, 3));
    // Several timer rounds, then one more run here so a round surely saw the insert.
    await sleep(300);
    const outcomes = [...(await server.runtime.jobs.autoRefresher!.checkOnce()).values()];
    assert.deepEqual(outcomes, [{ action: "skipped", reason: "below-threshold" }], "only the auto view is checked");
    assert.deepEqual((await refreshJobsOf(server, "ar$auto")).map((j) => j.job_id), [autoFirst]);
    assert.equal((await data.rows(autoLocation)).length, 4, "the view still reflects its last refresh");
  });

  await t.test("crossing the threshold (3 + 3 = 6 row changes ≥ 5) queues exactly one refresh, which brings the view up to date", async () => {
    await insert(server, "ar$docs", rowsOf(8, 3));
    const second = await waitUntil("an auto refresh job", async () => (await refreshJobsOf(server, "ar$auto")).find((j) => j.job_id !== autoFirst));
    const job = await waitForJob(server, second.job_id);
    assert.equal(job.status, "succeeded", JSON.stringify(job));
    assert.equal(job.spec.auto_refresh.rows_changed, 6);
    assert.match(job.spec.auto_refresh.reason, /6 source row changes \(threshold 5\)/);
    assert.equal(job.result.mode, "incremental");
    assert.equal(job.result.rows_written, 6);
    const ids = (await data.rows(autoLocation)).map((row) => row.id as number).sort((a, b) => a - b);
    assert.deepEqual(ids, Array.from({ length: 10 }, (_, i) => i + 1));
    // More rounds after the refresh: the view is current, nothing more is queued.
    await sleep(400);
    assert.equal((await refreshJobsOf(server, "ar$auto")).length, 2);
  });

  await t.test("a view with auto_refresh false is never refreshed, whatever the source does", async () => {
    assert.deepEqual((await refreshJobsOf(server, "ar$manual")).map((j) => j.job_id), [manualFirst]);
    assert.equal((await data.rows(manualLocation)).length, 4);
  });
});

test("auto refresh by committed versions, and the cooldown", async (t) => {
  // The timer is off (interval 0): rounds run here, with a chosen clock.
  const server = await startTestServer({ jobs: { pollMs: 20, autoRefresh: { rows: 0, versions: 2, cooldownMs: 3_600_000, intervalMs: 0 } } });
  t.after(() => server.close());
  const refresher = server.runtime.jobs.autoRefresher!;
  await expectJson(await server.post("/v1/namespace/av/create", {}));
  await createSource(server, "av$docs", rowsOf(1, 2));
  const first = await createView(server, "av$view", "av$docs", true);
  const later = () => Date.now() + 3_600_001;

  await t.test("one version committed (< 2) → no refresh, even after the cooldown", async () => {
    await insert(server, "av$docs", rowsOf(3, 1));
    const [outcome] = [...(await refresher.checkOnce(later())).values()];
    assert.deepEqual(outcome, { action: "skipped", reason: "below-threshold" });
  });

  await t.test("two versions committed but within the cooldown of the last refresh → no refresh", async () => {
    await insert(server, "av$docs", rowsOf(4, 1));
    const [outcome] = [...(await refresher.checkOnce()).values()];
    assert.deepEqual(outcome, { action: "skipped", reason: "cooldown" });
    assert.equal((await refreshJobsOf(server, "av$view")).length, 1);
  });

  await t.test("two versions committed once the cooldown passed → one refresh; a second round while it is pending queues none", async () => {
    const outcomes = [...(await refresher.checkOnce(later())).values()];
    assert.equal(outcomes.length, 1);
    const [outcome] = outcomes;
    assert.equal(outcome?.action, "queued");
    const again = [...(await refresher.checkOnce(later())).values()];
    const jobs = await refreshJobsOf(server, "av$view");
    assert.equal(jobs.length, 2, JSON.stringify(again));
    const job = await waitForJob(server, jobs.find((j) => j.job_id !== first)!.job_id);
    assert.equal(job.status, "succeeded");
    assert.equal(job.spec.auto_refresh.versions_committed, 2);
    assert.equal(job.result.rows_written, 2);
  });
});
