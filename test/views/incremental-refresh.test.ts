// Incremental refresh: after source inserts, updates and deletes, an incremental refresh gives
// exactly the rows a full rebuild gives; concurrent refreshes never duplicate rows.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Field, Int32, Schema, Utf8 } from "apache-arrow-21";
import { expectJson, startTestServer, type TestServer } from "../helpers/test-server.js";
import { TableData, canonicalRows, chunkerSpec, createSource, schemaBase64, waitForJob } from "../helpers/views.js";

const count = 300;
const sourceColumns = () => ({
  id: Int32Array.from({ length: count }, (_, i) => i),
  kind: Array.from({ length: count }, (_, i) => (i % 3 === 0 ? "keep" : "skip")),
  body: Array.from({ length: count }, (_, i) => `doc ${i} has words ${"w ".repeat(i % 7)}end`),
});

const queryView = {
  kind: "query",
  source_query: JSON.stringify({ source: ["src"], projections: [["id", "id"], ["text", "concat(kind, ':', body)"]], filter: "kind = 'keep'" }),
  output_schema: schemaBase64(new Schema([new Field("id", new Int32()), new Field("text", new Utf8())])),
};
const chunkView = {
  kind: "chunker",
  source_query: JSON.stringify({ source: ["src"], projections: ["id", "kind"], filter: "id % 2 = 0" }),
  output_schema: schemaBase64(new Schema([new Field("id", new Int32()), new Field("kind", new Utf8()), new Field("chunk", new Utf8()), new Field("chunk_index", new Int32())])),
  udtf_spec: chunkerSpec({ chunker: "split_words", column: "body", size: 4, overlap: 1 }),
};

async function refresh(server: TestServer, view: string, body: object = {}) {
  const { job_id } = await expectJson(await server.post(`/v1/materialized_view/${view}/refresh`, body), 202);
  const job = await waitForJob(server, job_id);
  assert.equal(job.status, "succeeded", JSON.stringify(job));
  return job;
}

async function locationOf(server: TestServer, table: string): Promise<string> {
  return (await expectJson(await server.post(`/v1/table/${table}/describe`, {}))).location;
}

test("incremental refresh matches a full rebuild", async (t) => {
  const server = await startTestServer({ jobs: { pollMs: 20 } });
  const data = new TableData();
  t.after(async () => {
    data.close();
    await server.close();
  });
  const source = await createSource(server, "src", sourceColumns());
  for (const [name, definition] of [["q", queryView], ["c", chunkView]] as const) {
    await expectJson(await server.post(`/v1/materialized_view/${name}/create`, definition), 201);
    await refresh(server, name, { source_task_size: 64 });
  }

  /** A new view with the same definition, filled by a full rebuild, to compare against. */
  async function rebuilt(name: string, definition: object): Promise<string[]> {
    const created = await expectJson(await server.post(`/v1/materialized_view/${name}/create`, { ...definition, with_no_data: false }), 201);
    const job = await waitForJob(server, created.job_id);
    assert.equal(job.result.mode, "rebuild");
    return canonicalRows(await data.rows(await locationOf(server, name)));
  }

  await t.test("after inserts, updates and deletes, the incremental refresh of a query view equals a rebuild", async () => {
    await data.append(source, { id: Int32Array.from([1000, 1001, 1002]), kind: ["keep", "skip", "keep"], body: ["new a", "new b", "new c"] });
    await data.update(source, "id = 3", [["body", "'changed body'"]]);
    await data.update(source, "id = 4", [["kind", "'keep'"]]);
    await data.update(source, "id = 6", [["kind", "'skip'"]]);
    await data.delete(source, "id IN (9, 12, 1001)");
    const before = (await data.rows(await locationOf(server, "q"))).length;
    const job = await refresh(server, "q", { source_task_size: 2 });
    assert.equal(job.result.mode, "incremental");
    // ids 1000 and 1002 new; 3 changed; 4 moved into the filter: 4 source rows processed.
    assert.equal(job.result.source_rows_added, 4);
    // 3 (changed), 6 (left the filter), 9 and 12 (deleted) go.
    assert.equal(job.result.rows_deleted, 4);
    assert.equal(job.result.work_items, 2);
    const incremental = canonicalRows(await data.rows(await locationOf(server, "q")));
    assert.equal(incremental.length, before + 4 - 4);
    assert.deepEqual(incremental, await rebuilt("q_full", queryView));
    assert.ok(incremental.includes(JSON.stringify({ id: 3, text: "keep:changed body" })));
  });

  await t.test("the incremental refresh of a chunker view equals a rebuild, chunk for chunk", async () => {
    const job = await refresh(server, "c", { source_task_size: 5 });
    assert.equal(job.result.mode, "incremental");
    assert.ok(job.result.rows_deleted > 0);
    const incremental = canonicalRows(await data.rows(await locationOf(server, "c")));
    assert.deepEqual(incremental, await rebuilt("c_full", chunkView));
  });

  await t.test("two concurrent refreshes of one view never duplicate rows and never overlap", async () => {
    await data.append(source, { id: Int32Array.from({ length: 40 }, (_, i) => 2000 + i), kind: Array(40).fill("keep"), body: Array(40).fill("x y z w v u") });
    await data.delete(source, "id < 30");
    const posts = await Promise.all([0, 1].map(() => server.post("/v1/materialized_view/c/refresh", { concurrency: 2, source_task_size: 8 })));
    const jobs = await Promise.all(posts.map(async (r) => waitForJob(server, (await expectJson(r, 202)).job_id)));
    for (const job of jobs) assert.equal(job.status, "succeeded", JSON.stringify(job));
    const [first, second] = [...jobs].sort((a, b) => a.started_at_ms - b.started_at_ms);
    assert.ok(first.finished_at_ms <= second.started_at_ms, "the second refresh started after the first finished");
    assert.equal(second.result.rows_written, 0, "the second found nothing left to do");
    const rows = await data.rows(await locationOf(server, "c"));
    const keys = rows.map((r) => `${r.__source_row_id}:${r.chunk_index}`);
    assert.equal(new Set(keys).size, keys.length, "no (source row, chunk) pair appears twice");
    assert.deepEqual(canonicalRows(rows), await rebuilt("c_full2", chunkView));
  });
});
