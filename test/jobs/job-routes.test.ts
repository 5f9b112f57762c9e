// Job routes over HTTP and through the real LanceDB Cloud client (mode B): describe, list,
// cancel (queued and running), query_events.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { Field, Int32, Schema, Utf8, tableFromIPC } from "apache-arrow-21";
import { expectError, expectJson, startTestServer, type TestServer } from "../helpers/test-server.js";
import { TableData, canonicalRows, chunkerSpec, createSource, schemaBase64, waitForJob } from "../helpers/views.js";

const chunkView = {
  kind: "chunker",
  source_query: JSON.stringify({ source: ["docs"], projections: ["id"] }),
  output_schema: schemaBase64(new Schema([new Field("id", new Int32()), new Field("chunk", new Utf8()), new Field("chunk_index", new Int32())])),
  udtf_spec: chunkerSpec({ chunker: "split_characters", column: "body", size: 8, overlap: 2 }),
};
const docs = (from: number, n: number) => ({
  id: Int32Array.from({ length: n }, (_, i) => from + i),
  body: Array.from({ length: n }, (_, i) => `document number ${from + i} with some text to split`),
});

async function waitUntil(server: TestServer, jobId: string, ready: (job: any) => boolean): Promise<any> {
  for (let i = 0; i < 600; i += 1) {
    const job = await expectJson(await server.get(`/v1/jobs/${jobId}`));
    if (ready(job)) return job;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`job ${jobId} never reached the awaited state`);
}

test("jobs", async (t) => {
  const server = await startTestServer({ jobs: { pollMs: 20, maxConcurrentJobs: 1, leaseMs: 3000 } });
  const data = new TableData();
  t.after(async () => {
    data.close();
    await server.close();
  });
  const source = await createSource(server, "docs", docs(0, 20));
  await expectJson(await server.post("/v1/materialized_view/chunks/create", chunkView), 201);
  const first = await waitForJob(server, (await expectJson(await server.post("/v1/materialized_view/chunks/refresh", {}), 202)).job_id);
  const viewLocation = (await expectJson(await server.post("/v1/table/chunks/describe", {}))).location;
  const goodRows = canonicalRows(await data.rows(viewLocation));
  const goodVersion = await data.version(viewLocation);

  await t.test("DescribeJob and GET /v1/jobs/{id} → the record with status, progress, spec and result", async () => {
    const described = await expectJson(await server.post("/v1/jobs/describe", { job_id: first.job_id }));
    assert.deepEqual(described, first);
    assert.equal(described.job_type, "refresh_materialized_view");
    assert.deepEqual(described.table, ["chunks"]);
    assert.equal(described.progress.items_total, 1);
    assert.equal(described.progress.items_done, 1);
    assert.equal(described.progress.rows_written, goodRows.length);
    assert.equal(described.attempts, 1);
    assert.equal(described.cluster, "default");
    assert.equal(described.failure, null);
  });

  await t.test("DescribeJob, GET and CancelJob of an unknown job → 404, code 10", async () => {
    await expectError(await server.post("/v1/jobs/describe", { job_id: "nope" }), 404, 10);
    await expectError(await server.get("/v1/jobs/nope"), 404, 10);
    await expectError(await server.post("/v1/jobs/cancel", { job_id: "nope" }), 404, 10);
    await expectError(await server.post("/v1/jobs/describe", {}), 400, 13);
  });

  await t.test("CancelJob of a running refresh → it stops, and the view is back at its last good content", async () => {
    await data.append(source, docs(1000, 6000));
    const { job_id } = await expectJson(await server.post("/v1/materialized_view/chunks/refresh", { source_task_size: 50 }), 202);
    const running = await waitUntil(server, job_id, (job) => job.progress.items_done >= 2);
    assert.equal(running.status, "running");
    assert.ok((await data.version(viewLocation)) > goodVersion, "the refresh has written to the view");
    const cancelled = await expectJson(await server.post("/v1/jobs/cancel", { job_id }));
    assert.equal(cancelled.job_id, job_id);
    const job = await waitForJob(server, job_id);
    assert.equal(job.status, "cancelled");
    assert.equal(job.job_state, "CANCELLED");
    assert.ok(job.progress.items_done < job.progress.items_total, "work stopped before the end");
    assert.deepEqual(canonicalRows(await data.rows(viewLocation)), goodRows, "the view holds its content from before the job");
    const again = await expectJson(await server.post("/v1/jobs/cancel", { job_id }));
    assert.equal(again.status, "cancelled", "cancelling a finished job changes nothing");
  });

  await t.test("CancelJob of a queued job → cancelled at once, never run", async () => {
    const long = (await expectJson(await server.post("/v1/materialized_view/chunks/refresh", { source_task_size: 50 }), 202)).job_id;
    await waitUntil(server, long, (job) => job.status === "running");
    const queued = (await expectJson(await server.post("/v1/materialized_view/chunks/refresh", {}), 202)).job_id;
    const answer = await expectJson(await server.post("/v1/jobs/cancel", { job_id: queued }));
    assert.equal(answer.status, "cancelled");
    const job = await expectJson(await server.get(`/v1/jobs/${queued}`));
    assert.equal(job.attempts, 0);
    assert.equal(job.started_at_ms, null);
    await expectJson(await server.post("/v1/jobs/cancel", { job_id: long }));
    assert.equal((await waitForJob(server, long)).status, "cancelled");
  });

  await t.test("ListJobs pages newest first; filters by table and status", async () => {
    const all = await expectJson(await server.post("/v1/jobs/list", {}));
    assert.equal(all.jobs.length, 4);
    assert.deepEqual(all.jobs.map((j: any) => j.status), ["cancelled", "cancelled", "cancelled", "succeeded"]);
    // A listed job's state is keyed as in a described one (`job_state`), and as `state` for the LanceDB client.
    assert.deepEqual(all.jobs.map((j: any) => [j.job_state, j.state]), [["CANCELLED", "CANCELLED"], ["CANCELLED", "CANCELLED"], ["CANCELLED", "CANCELLED"], ["DONE", "DONE"]]);
    assert.equal(all.jobs.at(-1).job_id, first.job_id);
    const page1 = await expectJson(await server.post("/v1/jobs/list", { limit: 3 }));
    assert.equal(page1.jobs.length, 3);
    const page2 = await expectJson(await server.post("/v1/jobs/list", { limit: 3, page_token: page1.page_token }));
    assert.deepEqual(page2.jobs.map((j: any) => j.job_id), [first.job_id]);
    assert.equal(page2.page_token, undefined);
    const done = await expectJson(await server.post("/v1/jobs/list", { status: "succeeded", table: ["chunks"] }));
    assert.equal(done.jobs.length, 1);
    await expectError(await server.post("/v1/jobs/list", { table: ["ghost"] }), 404, 4);
  });

  await t.test("QueryJobEvents → an Arrow stream of lifecycle and work-item events; filters on state", async () => {
    const response = await server.post("/v1/jobs/query_events", { job_id: first.job_id });
    assert.equal(response.headers.get("content-type"), "application/vnd.apache.arrow.stream");
    const events = tableFromIPC(new Uint8Array(await response.arrayBuffer()));
    const states = events.getChild("state")?.toArray() as string[];
    assert.deepEqual(states, ["queued", "running", "planned", "claim", "claim_complete", "succeeded"]);
    const claims = await server.post("/v1/jobs/query_events", { job_id: first.job_id, filter: "state = 'claim_complete'" });
    const claimTable = tableFromIPC(new Uint8Array(await claims.arrayBuffer()));
    assert.equal(claimTable.numRows, 1);
    assert.equal(Number(claimTable.getChild("rows_processed")?.get(0)), goodRows.length);
    await expectError(await server.post("/v1/jobs/query_events", { filter: "state LIKE 'c%'" }), 400, 13);
  });

  await t.test("/openapi.json documents the view and job operations", async () => {
    const doc = await expectJson(await server.get("/openapi.json"));
    assert.equal(doc.paths["/v1/materialized_view/{id}/create"].post.operationId, "CreateMaterializedView");
    assert.equal(doc.paths["/v1/materialized_view/{id}/refresh"].post.operationId, "RefreshMaterializedView");
    assert.equal(doc.paths["/v1/jobs/{job_id}"].get.operationId, "GetJob");
    assert.equal(doc.paths["/v1/jobs/query_events"].post.operationId, "QueryJobEvents");
    assert.ok(doc.paths["/v1/jobs/query_events"].post.responses["200"].content["application/vnd.apache.arrow.stream"]);
    for (const path of ["/v1/jobs/describe", "/v1/jobs/list", "/v1/jobs/cancel", "/v1/table/{id}/backfill_column"]) assert.ok(doc.paths[path]?.post, path);
  });

  await t.test("the LanceDB Cloud client (mode B) lists, opens, waits on and cancels Quiver's jobs", async () => {
    const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
    const listed = await db.listJobs();
    assert.equal(listed.length, 4);
    const oldest = listed.find((job) => job.jobId === first.job_id);
    assert.deepEqual(
      oldest && { table: oldest.table, jobType: oldest.jobType, state: oldest.state, createdAtMillis: oldest.createdAtMillis },
      { table: "chunks", jobType: "refresh_materialized_view", state: "finished", createdAtMillis: first.creation_ms },
    );
    assert.deepEqual(new Set(listed.map((job) => job.state)), new Set(["finished", "cancelled"]));

    const job = await db.openJob(first.job_id);
    assert.equal(job.id, first.job_id);
    assert.equal(job.state, "finished");
    assert.equal(job.jobType, "refresh_materialized_view");
    assert.equal(job.result.rows_written, goodRows.length);
    await job.wait();
    const events = await job.events({ limit: 2 });
    assert.equal(events.numRows, 2);

    const { job_id } = await expectJson(await server.post("/v1/materialized_view/chunks/refresh", {}), 202);
    const fresh = await db.openJob(job_id);
    await fresh.wait();
    assert.equal(await fresh.status(), "finished");
    assert.equal(await db.cancelJob(job_id), true);
    assert.equal(await db.cancelJob("no-such-job"), false);
  });
});
