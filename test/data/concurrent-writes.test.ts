// Concurrent writers on one table: upserts never duplicate a key, and a commit conflict is
// retried and, if it persists, answered 409 code 14, never a 5xx.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readArrow } from "../helpers/arrow.js";
import { type TestServer, expectJson, startTestServer } from "../helpers/test-server.js";
import { createRowsTable, range, rowsTable, streamOf } from "./fixtures.js";

const upsert = "merge_insert?on=id&when_matched_update_all=true&when_not_matched_insert_all=true";

async function ids(server: TestServer, table: string): Promise<number[]> {
  const result = await readArrow(await server.post(`/v1/table/${table}/query`, { k: 10_000, vector: null, columns: { column_names: ["id"] } }));
  return [...(result.getChild("id")?.toArray() ?? [])].map(Number).sort((a, b) => a - b);
}

test("8 concurrent upserts of the same keys leave each key once → every answer 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 1);
  const body = streamOf(rowsTable(range(1, 51)));
  const responses = await Promise.all(Array.from({ length: 8 }, () => server.upload(`/v1/table/t/${upsert}`, body)));
  const answers = await Promise.all(responses.map((response) => expectJson(response)));
  const found = await ids(server, "t");
  assert.equal(found.length, 51, "rows after the upserts");
  assert.equal(new Set(found).size, 51, "distinct ids after the upserts");
  // Exactly one upsert inserted the 50 new keys; the others matched them.
  assert.equal(answers.reduce((sum, answer) => sum + answer.num_inserted_rows, 0), 50);
  assert.equal(new Set(answers.map((answer) => answer.version)).size, 8, "each upsert commits its own version");
});

test("Concurrent upserts into a declared-only table create it once and never duplicate a key", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/table/d/declare", {}));
  const body = streamOf(rowsTable(range(0, 20)));
  const responses = await Promise.all(Array.from({ length: 8 }, () => server.upload(`/v1/table/d/${upsert}`, body)));
  await Promise.all(responses.map((response) => expectJson(response)));
  assert.deepEqual(await ids(server, "d"), range(0, 20));
});

test("Concurrent upserts on two tables keep each table's keys unique", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "a", 1);
  await createRowsTable(server, "b", 1);
  const body = streamOf(rowsTable(range(1, 11)));
  const responses = await Promise.all(["a", "b", "a", "b"].map((table) => server.upload(`/v1/table/${table}/${upsert}`, body)));
  await Promise.all(responses.map((response) => expectJson(response)));
  assert.deepEqual(await ids(server, "a"), range(0, 11));
  assert.deepEqual(await ids(server, "b"), range(0, 11));
});

test("Overwrites racing appends answer each writer 200 or 409 code 14, never 5xx", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 1);
  // Appends that read the table before an overwrite commits conflict with it; several rounds
  // make the race likely.
  for (let round = 1; round <= 3; round += 1) {
    const appends = (from: number) => Array.from({ length: 4 }, (_, i) => server.upload("/v1/table/t/insert", streamOf(rowsTable([from + i]))));
    const overwrite = server.upload("/v1/table/t/insert?mode=overwrite", streamOf(rowsTable([round * 100])));
    const responses = await Promise.all([...appends(round * 100 + 10), overwrite, ...appends(round * 100 + 20)]);
    for (const response of responses) {
      const body = (await response.json()) as { code?: number };
      if (response.status !== 200) assert.deepEqual({ status: response.status, code: body.code }, { status: 409, code: 14 }, JSON.stringify(body));
    }
    assert.ok((await ids(server, "t")).includes(round * 100), "the overwrite's row is kept");
  }
});
