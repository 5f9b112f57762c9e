// GET /metrics: Prometheus text whose counters move with requests, commits and jobs, labelled by
// operation id and never by table name.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRowsTable, range, rowsTable, streamOf } from "../data/fixtures.js";
import { parsePrometheusText, sumOf, type Sample } from "../helpers/prometheus-text.js";
import { expectError, expectJson, startTestServer, type TestServer } from "../helpers/test-server.js";
import { waitForJob } from "../helpers/views.js";

async function scrape(server: TestServer): Promise<{ samples: Sample[]; types: Map<string, string>; text: string }> {
  const response = await server.get("/metrics");
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  return { ...parsePrometheusText(text), text };
}

test("GET /metrics", async (t) => {
  const server = await startTestServer({ jobs: { pollMs: 20 } });
  t.after(() => server.close());
  const before = await scrape(server);

  const table = "orders_for_metrics";
  await expectJson(await server.post("/v1/namespace/shop_for_metrics/create", {}));
  await createRowsTable(server, table, 50);
  const insertBody = streamOf(rowsTable(range(50, 60)));
  await expectJson(await server.upload(`/v1/table/${table}/insert`, insertBody));
  await expectError(await server.post("/v1/table/no_such_table_here/describe", {}), 404, 4);
  const jobId = (await expectJson(await server.post(`/v1/table/${table}/create_scalar_index?wait=false`, { column: "id", index_type: "BTREE" }), 202)).job_id;
  assert.equal((await waitForJob(server, jobId)).status, "succeeded");
  const after = await scrape(server);
  const moved = (name: string, labels: Record<string, string> = {}) => sumOf(after.samples, name, labels) - sumOf(before.samples, name, labels);

  await t.test("parses as Prometheus text, with a TYPE for each Quiver metric and the process metrics", () => {
    assert.equal(after.types.get("quiver_http_requests_total"), "counter");
    assert.equal(after.types.get("quiver_http_request_duration_seconds"), "histogram");
    assert.equal(after.types.get("quiver_jobs"), "gauge");
    assert.ok(after.samples.some((s) => s.name === "quiver_process_cpu_user_seconds_total"), "process CPU time");
    assert.ok(after.samples.some((s) => s.name === "quiver_process_resident_memory_bytes"), "process memory");
  });

  await t.test("request counters move per operation id and status; the latency histogram counts them too", () => {
    assert.equal(moved("quiver_http_requests_total", { operation: "CreateNamespace", status: "200" }), 1);
    assert.equal(moved("quiver_http_requests_total", { operation: "InsertIntoTable", status: "200" }), 1);
    assert.equal(moved("quiver_http_requests_total", { operation: "DescribeTable", status: "404" }), 1);
    assert.equal(moved("quiver_http_request_duration_seconds_count", { operation: "InsertIntoTable", status: "200" }), 1);
    assert.equal(moved("quiver_http_request_bytes_total", { operation: "InsertIntoTable" }), insertBody.length);
    assert.ok(moved("quiver_http_response_bytes_total", { operation: "DescribeTable" }) > 0);
  });

  await t.test("commits, engine and store calls are counted", () => {
    assert.ok(moved("quiver_commits_total", { kind: "write" }) >= 2, "create and insert each commit a version");
    assert.ok(moved("quiver_engine_call_duration_seconds_count") > 0);
    assert.ok(moved("quiver_store_call_duration_seconds_count", { call: "transaction" }) > 0);
  });

  await t.test("jobs are counted when queued and when they finish, and the gauge reads the store", () => {
    assert.equal(moved("quiver_jobs_queued_total", { kind: "create_index" }), 1);
    assert.equal(moved("quiver_jobs_finished_total", { kind: "create_index", state: "succeeded" }), 1);
    assert.equal(moved("quiver_job_duration_seconds_count", { kind: "create_index", state: "succeeded" }), 1);
    assert.ok(sumOf(after.samples, "quiver_jobs", { state: "succeeded" }) >= 1);
  });

  await t.test("describe counts the credentials handed out, by mode and backend", async () => {
    const was = sumOf((await scrape(server)).samples, "quiver_credentials_vended_total");
    await expectJson(await server.post(`/v1/table/${table}/describe`, {}));
    assert.equal(sumOf((await scrape(server)).samples, "quiver_credentials_vended_total") - was, 1);
  });

  await t.test("no label names a table or namespace", () => {
    assert.doesNotMatch(after.text, /orders_for_metrics|shop_for_metrics|no_such_table_here/);
  });
});
