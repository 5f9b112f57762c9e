// Index builds and drops as jobs: `wait: false` (body), `wait=false` (query) or the
// `x-quiver-wait: false` header answer 202 with a job_id; what can be checked up front is
// refused at once with the spec's code; what only the build can tell fails the job.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { jobSettings } from "../../src/jobs/job-settings.js";
import { startJobSystem } from "../../src/jobs/job-system.js";
import { createRowsTable } from "../data/fixtures.js";
import { expectError, expectJson, startTestServer, type TestServer } from "../helpers/test-server.js";
import { waitForJob } from "../helpers/views.js";

async function indexNames(server: TestServer, table: string): Promise<string[]> {
  const listed = await expectJson(await server.post(`/v1/table/${table}/index/list`, {}));
  return listed.indexes.map((index: { index_name: string }) => index.index_name).sort();
}

async function jobCount(server: TestServer): Promise<number> {
  return (await expectJson(await server.post("/v1/jobs/list", {}))).jobs.length;
}

/** A 202 answer's job id, checking that it names the index the job works on. */
async function acceptedJob(response: Response, indexName: string): Promise<string> {
  const body = await expectJson(response, 202);
  assert.deepEqual(Object.keys(body).sort(), ["index_name", "job_id"]);
  assert.equal(body.index_name, indexName);
  assert.equal(typeof body.job_id, "string");
  return body.job_id as string;
}

test("index builds and drops as jobs", async (t) => {
  const server = await startTestServer({ jobs: { pollMs: 20 } });
  t.after(() => server.close());
  await createRowsTable(server, "t", 300);

  await t.test("CreateTableIndex with wait false → 202 with a job_id; the job succeeds and the index is listed and covers every row", async () => {
    const jobId = await acceptedJob(
      await server.post("/v1/table/t/create_index", { column: "vector", index_type: "IVF_PQ", num_partitions: 2, num_sub_vectors: 2, wait: false }),
      "vector_idx",
    );
    const job = await waitForJob(server, jobId);
    assert.equal(job.status, "succeeded", JSON.stringify(job));
    assert.equal(job.job_type, "create_index");
    assert.equal(job.job_state, "DONE");
    assert.deepEqual(job.table, ["t"]);
    assert.equal(job.spec.request.column, "vector");
    assert.equal(job.spec.request.wait, undefined, "the switch itself is not part of the job's spec");
    assert.equal(job.result.index_name, "vector_idx");
    assert.deepEqual(await indexNames(server, "t"), ["vector_idx"]);
    const stats = await expectJson(await server.post("/v1/table/t/index/vector_idx/stats", {}));
    assert.equal(stats.num_indexed_rows, 300);
    assert.equal(stats.index_type, "IVF_PQ");
  });

  await t.test("CreateTableScalarIndex with ?wait=false → 202; the job builds the BTREE index", async () => {
    const jobId = await acceptedJob(await server.post("/v1/table/t/create_scalar_index?wait=false", { column: "id", index_type: "BTREE" }), "id_idx");
    assert.equal((await waitForJob(server, jobId)).status, "succeeded");
    assert.deepEqual(await indexNames(server, "t"), ["id_idx", "vector_idx"]);
  });

  await t.test("CreateTableIndex without the switch, or with wait true, still builds before answering → 200, no job", async () => {
    const before = await jobCount(server);
    const body = await expectJson(await server.post("/v1/table/t/create_index", { column: "text", index_type: "FTS", wait: true }));
    assert.equal(body.job_id, undefined);
    assert.equal(body.index_name, "text_idx");
    assert.deepEqual(await indexNames(server, "t"), ["id_idx", "text_idx", "vector_idx"]);
    assert.equal(await jobCount(server), before);
  });

  await t.test("async builds refused up front, no job queued: missing column → 404 code 12; taken name with replace false → 409 code 7; bad index_type → 400 code 13; missing table → 404 code 4", async () => {
    const before = await jobCount(server);
    const missing = await expectError(await server.post("/v1/table/t/create_index", { column: "nope", index_type: "BTREE", wait: false }), 404, 12);
    assert.match(missing.error, /no column 'nope'/);
    await expectError(await server.post("/v1/table/t/create_index", { column: "meta.nope", index_type: "BTREE", wait: false }), 404, 12);
    await expectError(await server.post("/v1/table/t/create_index", { column: "id", index_type: "BTREE", replace: false, wait: false }), 409, 7);
    await expectError(await server.post("/v1/table/t/create_index", { column: "id", index_type: "MAGIC", wait: false }), 400, 13);
    await expectError(await server.post("/v1/table/ghost/create_index", { column: "id", index_type: "BTREE", wait: false }), 404, 4);
    assert.equal(await jobCount(server), before);
    assert.deepEqual(await indexNames(server, "t"), ["id_idx", "text_idx", "vector_idx"]);
  });

  await t.test("an async build only the engine can refuse (IVF_PQ on a string column) → 202; the job fails for good with the reason, no index left", async () => {
    const jobId = await acceptedJob(await server.post("/v1/table/t/create_index", { column: "text", index_type: "IVF_PQ", name: "text_pq", wait: false }), "text_pq");
    const job = await waitForJob(server, jobId);
    assert.equal(job.status, "failed", JSON.stringify(job));
    assert.equal(job.job_state, "FAILED");
    assert.equal(job.attempts, 1, "a refused build is not retried");
    assert.equal(job.failure.retryable, false);
    assert.match(job.failure.message, /text/);
    assert.deepEqual(await indexNames(server, "t"), ["id_idx", "text_idx", "vector_idx"]);
    // The same refusal when waiting is the client's mistake too, not a server failure.
    await expectError(await server.post("/v1/table/t/create_index", { column: "text", index_type: "IVF_PQ", name: "text_pq" }), 400, 13);
  });

  await t.test("DropTableIndex with ?wait=false → 202; the job drops the index; a missing index → 404 code 6 at once", async () => {
    const jobId = await acceptedJob(await server.post("/v1/table/t/index/text_idx/drop?wait=false"), "text_idx");
    const job = await waitForJob(server, jobId);
    assert.equal(job.status, "succeeded", JSON.stringify(job));
    assert.equal(job.job_type, "drop_index");
    assert.deepEqual(await indexNames(server, "t"), ["id_idx", "vector_idx"]);
    await expectError(await server.post("/v1/table/t/index/text_idx/drop?wait=false"), 404, 6);
  });

  await t.test("LanceDB client (mode B) with the x-quiver-wait header: createIndexAsync returns the server's job, Job.wait resolves once the index is listed", async () => {
    const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url, clientConfig: { extraHeaders: { "x-quiver-wait": "false" } } });
    const table = await db.openTable("t");
    const job = await table.createIndexAsync("meta.x", { config: lancedb.Index.bitmap() });
    assert.equal(typeof job.id, "string");
    await job.wait();
    const record = await expectJson(await server.get(`/v1/jobs/${job.id}`));
    assert.equal(record.status, "succeeded");
    assert.ok((await table.listIndices()).some((index) => index.name === "meta.x_idx"));
    db.close();
  });
});

test("an async build whose column is dropped before the job runs → the job fails with the reason", async (t) => {
  // No worker at first: the job waits in the queue while the column goes away.
  const server = await startTestServer({ jobs: { runWorker: false } });
  let stopJobs = async (): Promise<void> => undefined;
  t.after(async () => {
    await stopJobs();
    await server.close();
  });
  await createRowsTable(server, "t", 50);
  const jobId = await acceptedJob(await server.post("/v1/table/t/create_index", { column: "text", index_type: "FTS" }, { "x-quiver-wait": "false" }), "text_idx");
  await expectJson(await server.post("/v1/table/t/drop_columns", { columns: ["text"] }));
  assert.equal((await expectJson(await server.get(`/v1/jobs/${jobId}`))).status, "queued");

  const jobs = startJobSystem(server.runtime.store, server.runtime.registry, jobSettings({ pollMs: 20, autoRefresh: { intervalMs: 0 } }, {}));
  stopJobs = () => jobs.stop();
  const job = await waitForJob(server, jobId);
  assert.equal(job.status, "failed", JSON.stringify(job));
  assert.equal(job.attempts, 1);
  assert.match(job.failure.message, /text/);
  assert.deepEqual((await expectJson(await server.post("/v1/table/t/index/list", {}))).indexes, []);
});
