// QueryTable as a scan path: `order_by`, vector-less queries and `k` = 0, over raw HTTP.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { Float64, Int32, Table, Utf8, vectorFromArray } from "apache-arrow-21";
import { readArrow, rowsOf } from "../helpers/arrow.js";
import { type TestServer, expectError, expectJson, startTestServer } from "../helpers/test-server.js";
import { createRowsTable, streamOf, vectorOf } from "./fixtures.js";

/** id, a group letter with ties, and a score with nulls; inserted out of order. */
const rows = [
  { id: 3, grp: "b", score: 2.5 },
  { id: 1, grp: "a", score: null },
  { id: 4, grp: "a", score: 1.0 },
  { id: 0, grp: "c", score: 9.0 },
  { id: 2, grp: "b", score: null },
  { id: 5, grp: "c", score: 0.5 },
];

let server: TestServer;

before(async () => {
  server = await startTestServer();
  const table = new Table({
    id: vectorFromArray(rows.map((row) => row.id), new Int32()),
    grp: vectorFromArray(rows.map((row) => row.grp), new Utf8()),
    score: vectorFromArray(rows.map((row) => row.score), new Float64()),
  });
  await expectJson(await server.upload("/v1/table/scores/create", streamOf(table)));
  await createRowsTable(server, "vectors", 12);
});

after(() => server.close());

async function ids(body: Record<string, unknown>, table = "scores"): Promise<number[]> {
  const response = await server.post(`/v1/table/${table}/query`, body);
  if (response.status !== 200) throw new Error(`query failed: ${response.status} ${await response.text()}`);
  return rowsOf(await readArrow(response)).map((row) => Number(row.id));
}

test("QueryTable with order_by ascending on an integer column, no vector → 200, rows in ascending order", async () => {
  assert.deepEqual(await ids({ order_by: [{ column_name: "id", ascending: true }] }), [0, 1, 2, 3, 4, 5]);
});

test("QueryTable with order_by and no `ascending` sorts ascending → 200", async () => {
  assert.deepEqual(await ids({ order_by: [{ column_name: "id" }] }), [0, 1, 2, 3, 4, 5]);
});

test("QueryTable with order_by descending → 200, rows in descending order", async () => {
  assert.deepEqual(await ids({ order_by: [{ column_name: "id", ascending: false }] }), [5, 4, 3, 2, 1, 0]);
});

test("QueryTable with order_by on a column with nulls puts the nulls last by default, ascending and descending → 200", async () => {
  const ascending = await ids({ order_by: [{ column_name: "score" }] });
  assert.deepEqual(ascending.slice(0, 4), [5, 4, 3, 0]);
  assert.deepEqual(ascending.slice(4).sort(), [1, 2]);
  const descending = await ids({ order_by: [{ column_name: "score", ascending: false }] });
  assert.deepEqual(descending.slice(0, 4), [0, 3, 4, 5]);
  assert.deepEqual(descending.slice(4).sort(), [1, 2]);
});

test("QueryTable with order_by nulls_first → 200, the null rows first then ascending", async () => {
  const ordered = await ids({ order_by: [{ column_name: "score", ascending: true, nulls_first: true }] });
  assert.deepEqual(ordered.slice(0, 2).sort(), [1, 2]);
  assert.deepEqual(ordered.slice(2), [5, 4, 3, 0]);
  const explicitLast = await ids({ order_by: [{ column_name: "score", ascending: true, nulls_first: false }] });
  assert.deepEqual(explicitLast.slice(0, 4), [5, 4, 3, 0]);
});

test("QueryTable with order_by on several columns breaks ties with the next column → 200", async () => {
  assert.deepEqual(await ids({ order_by: [{ column_name: "grp" }, { column_name: "id", ascending: false }] }), [4, 1, 3, 2, 5, 0]);
  assert.deepEqual(await ids({ order_by: [{ column_name: "grp", ascending: false }, { column_name: "id" }] }), [0, 5, 2, 3, 1, 4]);
});

test("QueryTable with order_by, offset and k orders first, then skips and limits → 200", async () => {
  assert.deepEqual(await ids({ order_by: [{ column_name: "id", ascending: false }], offset: 1, k: 3 }), [4, 3, 2]);
  assert.deepEqual(await ids({ order_by: [{ column_name: "id" }], offset: 4 }), [4, 5]);
  assert.deepEqual(await ids({ order_by: [{ column_name: "id" }], k: 2, filter: "grp = 'b' OR grp = 'c'" }), [0, 2]);
});

test("QueryTable with order_by in the Cloud client's shape (vector [], k as i64::MAX) → 200, every row ordered", async () => {
  const response = await fetch(`${server.url}/v1/table/scores/query/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"k":9223372036854775807,"order_by":[{"column_name":"id","ascending":false,"nulls_first":false}],"prefilter":true,"vector":[],"version":null}',
  });
  assert.equal(response.status, 200);
  assert.deepEqual(rowsOf(await readArrow(response)).map((row) => Number(row.id)), [5, 4, 3, 2, 1, 0]);
});

test("QueryTable without vector (absent, null, [] or an empty single_vector) scans every row → 200", async () => {
  for (const vector of [undefined, null, [], { single_vector: [] }]) {
    const body = vector === undefined ? {} : { vector };
    assert.deepEqual((await ids(body)).sort(), [0, 1, 2, 3, 4, 5], JSON.stringify(body));
  }
});

test("QueryTable with k = 0 answers no rows with the table's columns → 200", async () => {
  const response = await server.post("/v1/table/scores/query", { k: 0, order_by: [{ column_name: "id" }] });
  const table = await readArrow(response);
  assert.equal(table.numRows, 0);
  assert.deepEqual(table.schema.fields.map((field) => field.name), ["id", "grp", "score"]);
});

test("QueryTable with order_by on a column the table lacks → 404, code 12", async () => {
  await expectError(await server.post("/v1/table/scores/query", { order_by: [{ column_name: "missing" }] }), 404, 12);
});

test("QueryTable with order_by and a vector search → 200, the k nearest rows in the order asked", async () => {
  const nearest = await ids({ vector: vectorOf(1), k: 3 }, "vectors");
  const ordered = await ids({ vector: vectorOf(1), k: 3, order_by: [{ column_name: "id", ascending: false }] }, "vectors");
  assert.deepEqual(ordered, [...nearest].sort((a, b) => b - a));
});

test("QueryTable with order_by on a hybrid query (vector and full_text_query) → 400, code 13", async () => {
  const body = { vector: vectorOf(1), k: 3, full_text_query: { string_query: { query: "fish" } }, order_by: [{ column_name: "id" }] };
  const refused = await expectError(await server.post("/v1/table/vectors/query", body), 400, 13);
  assert.match(refused.error, /hybrid/);
});

test("QueryTable with order_by with an empty column name → 400, code 13", async () => {
  await expectError(await server.post("/v1/table/scores/query", { order_by: [{ column_name: "" }] }), 400, 13);
});

test("the LanceDB client's orderBy with offset and limit, and with nulls first → the rows Quiver ordered", async () => {
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const table = await db.openTable("scores");
  const page = await table.query().orderBy({ columnName: "id", ascending: false }).offset(1).limit(3).toArray();
  assert.deepEqual(page.map((row) => Number(row.id)), [4, 3, 2]);
  const nullsFirst = await table.query().orderBy([{ columnName: "score", nullsFirst: true }, { columnName: "id" }]).toArray();
  assert.deepEqual(nullsFirst.map((row) => Number(row.id)), [1, 2, 5, 4, 3, 0]);
});
