import assert from "node:assert/strict";
import { test } from "node:test";
import { Field, FixedSizeList, Float32, Int32, Table, vectorFromArray } from "apache-arrow-21";
import { readArrow, rowsOf } from "../helpers/arrow.js";
import { type TestServer, expectError, expectJson, startTestServer } from "../helpers/test-server.js";
import { createRowsTable, dim, range, rowsTable, streamOf, vectorOf } from "./fixtures.js";

function idsOf(table: Awaited<ReturnType<typeof readArrow>>): number[] {
  return [...(table.getChild("id")?.toArray() ?? [])].map(Number);
}

async function query(server: TestServer, body: Record<string, unknown>, table = "t") {
  const response = await server.post(`/v1/table/${table}/query/`, body);
  if (response.status !== 200) throw new Error(`query failed: ${response.status} ${await response.text()}`);
  return response;
}

test("QueryTable answers an Arrow IPC file with its content type, filtered, projected, limited and offset → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 20);
  const response = await query(server, { k: 3, offset: 2, vector: null, filter: "id >= 10", columns: { column_names: ["id", "meta.x"] } });
  assert.equal(response.headers.get("content-type"), "application/vnd.apache.arrow.file");
  assert.equal(response.headers.get("x-lancedb-version"), "1");
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(Buffer.from(bytes.subarray(0, 6)).toString(), "ARROW1");
  assert.equal(Buffer.from(bytes.subarray(bytes.length - 6)).toString(), "ARROW1");
  const table = await readArrow(new Response(bytes));
  assert.deepEqual(table.schema.fields.map((f) => f.name), ["id", "meta.x"]);
  assert.deepEqual(idsOf(table), [12, 13, 14]);
});

test("QueryTable across several fragments joins every batch into one file; k ≥ 2^53 means no limit → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 10);
  await expectJson(await server.upload("/v1/table/t/insert", streamOf(rowsTable(range(10, 25)), { lz4: true })));
  await expectJson(await server.upload("/v1/table/t/insert", streamOf(rowsTable(range(25, 40)))));
  // The Cloud client's "no limit" (i64::MAX) does not survive JSON number precision.
  const raw = await fetch(`${server.url}/v1/table/t/query/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"k":9223372036854775807,"prefilter":true,"vector":[],"version":null,"with_row_id":true}',
  });
  const table = await readArrow(raw);
  assert.deepEqual(idsOf(table).sort((a, b) => a - b), range(0, 40));
  assert.ok(table.schema.fields.some((f) => f.name === "_rowid"));
});

test("QueryTable with column aliases, in the spec's and the Cloud client's forms → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 3);
  const spec = rowsOf(await readArrow(await query(server, { k: 2, vector: null, columns: { column_aliases: { ident: "id", inner: "meta.`a.b`" } } })));
  assert.deepEqual(spec, [
    { ident: 0, inner: "s0" },
    { ident: 1, inner: "s1" },
  ]);
  const cloud = rowsOf(await readArrow(await query(server, { k: 2, vector: [], columns: { double: "id * 2", n: "id" } })));
  assert.deepEqual(cloud, [
    { double: 0, n: 0 },
    { double: 2, n: 1 },
  ]);
  const list = await readArrow(await query(server, { k: 1, vector: [], columns: ["text"] }));
  assert.deepEqual(list.schema.fields.map((f) => f.name), ["text"]);
});

test("QueryTable vector search, single and multi, spec and Cloud shapes, with distance type and bounds → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 50);
  const single = await readArrow(await query(server, { k: 3, vector: { single_vector: vectorOf(7) }, vector_column: "vector", columns: { column_names: ["id"] } }));
  assert.equal(idsOf(single)[0], 7);
  assert.ok(single.schema.fields.some((f) => f.name === "_distance"));
  const cloud = await readArrow(await query(server, { k: 2, vector: vectorOf(9), distance_type: "cosine", nprobes: 20, ef: null, refine_factor: null, lower_bound: null, upper_bound: null, columns: ["id"] }));
  assert.equal(idsOf(cloud)[0], 9);
  const multi = await readArrow(await query(server, { k: 1, vector: { multi_vector: [vectorOf(3), vectorOf(30)] }, columns: { column_names: ["id"] } }));
  assert.deepEqual(idsOf(multi).sort((a, b) => a - b), [3, 30]);
  assert.ok(multi.schema.fields.some((f) => f.name === "query_index"));
  const bounded = await readArrow(await query(server, { k: 10, vector: vectorOf(7), upper_bound: 0.0001, bypass_vector_index: true, columns: ["id"] }));
  assert.deepEqual(idsOf(bounded), [7]);
  const postfiltered = await readArrow(await query(server, { k: 5, vector: vectorOf(7), prefilter: false, filter: "id <> 7", columns: ["id"] }));
  assert.ok(!idsOf(postfiltered).includes(7));
  assert.ok(idsOf(postfiltered).length <= 4);
});

test("QueryTable full-text search on an FTS index, string and structured forms → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 30);
  await expectJson(await server.post("/v1/table/t/create_index", { column: "text", index_type: "FTS", with_position: true }));
  const fish = range(0, 30).filter((id) => id % 3 === 0);
  const plain = await readArrow(await query(server, { k: 100, vector: null, full_text_query: { string_query: { query: "fish" } }, columns: { column_names: ["id"] } }));
  assert.deepEqual(idsOf(plain).sort((a, b) => a - b), fish);
  const structured = await readArrow(
    await query(server, {
      k: 100,
      vector: null,
      full_text_query: {
        structured_query: { query: { boolean: { must: [{ match: { terms: "fish", column: "text" } }], should: [], must_not: [{ phrase: { terms: "number 3", column: "text" } }] } } },
      },
      columns: { column_names: ["id"] },
    }),
  );
  assert.deepEqual(idsOf(structured).sort((a, b) => a - b), fish.filter((id) => id !== 3));
  const cloud = await readArrow(await query(server, { k: 2, vector: [], full_text_query: { query: { match: { column: "text", terms: "bird", boost: 1, fuzziness: 0, max_expansions: 50, operator: "Or", prefix_length: 0 } } } }));
  assert.equal(cloud.numRows, 2);
  assert.ok(cloud.schema.fields.some((f) => f.name === "_score"));
});

test("QueryTable on an older version reads that version → 200; a missing version → 404, code 11", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 3);
  await expectJson(await server.post("/v1/table/t/delete", { predicate: "id = 0" }));
  assert.deepEqual(idsOf(await readArrow(await query(server, { k: 10, vector: null, version: 1 }))), [0, 1, 2]);
  assert.deepEqual(idsOf(await readArrow(await query(server, { k: 10, vector: null }))), [1, 2]);
  await expectError(await server.post("/v1/table/t/query", { k: 10, vector: null, version: 99 }), 404, 11);
});

test("QueryTable errors: missing table → 404 code 4; bad filter → 400 code 13; unknown column → 404 code 12; bad vector → 400 code 13", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectError(await server.post("/v1/table/missing/query", { k: 1, vector: null }), 404, 4);
  await createRowsTable(server, "t", 3);
  const bad = await expectError(await server.post("/v1/table/t/query", { k: 1, vector: null, filter: "id >>> 1" }), 400, 13);
  assert.match(bad.error, /sql parser error/);
  await expectError(await server.post("/v1/table/t/query", { k: 1, vector: null, filter: "nope = 1" }), 404, 12);
  await expectError(await server.post("/v1/table/t/query", { k: 1, vector: null, columns: { column_names: ["nope"] } }), 404, 12);
  await expectError(await server.post("/v1/table/t/query", { k: 1, vector: { single_vector: ["a"] } }), 400, 13);
  await expectError(await server.post("/v1/table/t/query", { k: -1, vector: null }), 400, 13);
  await expectError(await server.post("/v1/table/t/query", { k: 1, vector: null, full_text_query: { structured_query: { query: { match: { terms: "x" }, phrase: { terms: "y" } } } } }), 400, 13);
});

test("QueryTable vector search that cannot choose a vector column → 400, code 13, with Lance's reason; naming the column → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const ids = range(0, 4);
  const vectorType = new FixedSizeList(dim, new Field("item", new Float32(), true));
  const vectors = () => vectorFromArray(ids.map(vectorOf), vectorType);
  const twoVectors = new Table({ id: vectorFromArray(ids, new Int32()), vector: vectors(), other: vectors() });
  await expectJson(await server.upload("/v1/table/two/create", streamOf(twoVectors)));
  for (const route of ["/v1/table/two/query", "/v1/table/two/query/"]) {
    const refused = await expectError(await server.post(route, { k: 2, vector: vectorOf(1) }), 400, 13);
    assert.match(refused.error, /more than one vector column/i);
  }
  const chosen = await readArrow(await query(server, { k: 2, vector: vectorOf(1), vector_column: "other", columns: { column_names: ["id"] } }, "two"));
  assert.equal(idsOf(chosen)[0], 1);

  await expectJson(await server.upload("/v1/table/none/create", streamOf(new Table({ id: vectorFromArray(ids, new Int32()) }))));
  await expectError(await server.post("/v1/table/none/query", { k: 2, vector: vectorOf(1) }), 400, 13);
});

test("Reads, updates and deletes of a declared-only table → 409, code 19; counting it → 0; describing it → no version", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/table/d/declare", {}));
  await expectError(await server.post("/v1/table/d/query", { k: 1, vector: null }), 409, 19);
  await expectError(await server.post("/v1/table/d/explain_plan", { query: { k: 1, vector: null } }), 409, 19);
  await expectError(await server.post("/v1/table/d/stats", {}), 409, 19);
  await expectError(await server.post("/v1/table/d/update", { updates: [["id", "1"]] }), 409, 19);
  await expectError(await server.post("/v1/table/d/delete", { predicate: "true" }), 409, 19);
  assert.equal(await (await server.post("/v1/table/d/count_rows", {})).text(), "0");
  const described = await expectJson(await server.post("/v1/table/d/describe", { check_declared: true }));
  assert.equal(described.is_only_declared, true);
  assert.equal(described.version, undefined);
  // The first insert creates it; reads then see it at once.
  await expectJson(await server.upload("/v1/table/d/insert", streamOf(new Table({ id: vectorFromArray([1, 2], new Int32()) }))));
  assert.equal(await (await server.post("/v1/table/d/count_rows", {})).text(), "2");
  assert.equal((await expectJson(await server.post("/v1/table/d/describe", { check_declared: true }))).is_only_declared, false);
});

test("CountTableRows by POST with a predicate and by GET without a body → 200 bare integers", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 10);
  const post = await server.post("/v1/table/t/count_rows/", { version: null, predicate: "id < 4" });
  assert.equal(post.headers.get("content-type")?.startsWith("application/json"), true);
  assert.equal(await post.text(), "4");
  assert.equal(await (await server.get("/v1/table/t/count_rows?delimiter=%24")).text(), "10");
  await expectJson(await server.post("/v1/table/t/delete", { predicate: "id < 2" }));
  assert.equal(await (await server.post("/v1/table/t/count_rows", { version: 1 })).text(), "10");
  assert.equal(await (await server.post("/v1/table/t/count_rows", {})).text(), "8");
  await expectError(await server.post("/v1/table/t/count_rows", { predicate: "id <" }), 400, 13);
  await expectError(await server.get("/v1/table/missing/count_rows"), 404, 4);
});

test("ExplainTableQueryPlan and AnalyzeTableQueryPlan answer JSON strings → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 10);
  const explained = await server.post("/v1/table/t/explain_plan/", { verbose: false, query: { k: 5, vector: [], filter: "id > 2" } });
  assert.equal(explained.status, 200);
  const plan = JSON.parse(await explained.text());
  assert.equal(typeof plan, "string");
  assert.match(plan, /LanceRead|LanceScan|Filter/);
  // The files a plan reads show as absolute paths, like the table's location.
  const { location } = await expectJson(await server.post("/v1/table/t/describe", {}));
  assert.ok(plan.includes(`uri=${location}/data`), plan);
  const analyzed = JSON.parse(await (await server.post("/v1/table/t/analyze_plan/", { k: 5, vector: null, filter: "id > 2" })).text());
  assert.equal(typeof analyzed, "string");
  assert.match(analyzed, /metrics|output_rows|elapsed/i);
  assert.ok(analyzed.includes(`uri=${location}/data`), analyzed);
  await expectError(await server.post("/v1/table/t/explain_plan", { query: { k: 1, vector: null, filter: "id >>> 1" } }), 400, 13);
  await expectError(await server.post("/v1/table/t/explain_plan", {}), 400, 13);
  await expectError(await server.post("/v1/table/missing/analyze_plan", { k: 1, vector: null }), 404, 4);
});

test("GetTableStats by POST and GET → 200 with sizes, rows and fragment statistics", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 10);
  await expectJson(await server.upload("/v1/table/t/insert", streamOf(rowsTable(range(10, 14)))));
  const stats = await expectJson(await server.post("/v1/table/t/stats/"));
  assert.equal(stats.num_rows, 14);
  assert.equal(stats.num_indices, 0);
  assert.ok(stats.total_bytes > 0);
  assert.equal(stats.fragment_stats.num_fragments, 2);
  assert.deepEqual(Object.keys(stats.fragment_stats.lengths).sort(), ["max", "mean", "min", "p25", "p50", "p75", "p99"]);
  assert.equal(stats.fragment_stats.lengths.max, 10);
  assert.deepEqual(await expectJson(await server.get("/v1/table/t/stats")), stats);
  await expectError(await server.get("/v1/table/missing/stats"), 404, 4);
});
