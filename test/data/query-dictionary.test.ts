import assert from "node:assert/strict";
import { test } from "node:test";
import { tableFromArrays, tableToIPC } from "apache-arrow-21";
import { readArrow, rowsOf } from "../helpers/arrow.js";
import { expectJson, startTestServer } from "../helpers/test-server.js";

// apache-arrow JS encodes string arrays as dictionaries; each fragment then keeps its own
// dictionary, which one Arrow IPC file cannot carry: the answer decodes them to plain strings.
test("QueryTable over several fragments of a dictionary-encoded string column → 200 with every row", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const upload = (ids: number[], names: string[]) => tableToIPC(tableFromArrays({ id: Int32Array.from(ids), name: names }), "stream");
  await expectJson(await server.upload("/v1/table/t/create", upload([1, 2], ["a", "b"])));
  await expectJson(await server.upload("/v1/table/t/insert", upload([3, 4], ["c", "a"])));

  const response = await server.post("/v1/table/t/query", { k: 10, vector: null });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "application/vnd.apache.arrow.file");
  const rows = rowsOf(await readArrow(response)).sort((a, b) => (a.id as number) - (b.id as number));
  assert.deepEqual(rows, [
    { id: 1, name: "a" },
    { id: 2, name: "b" },
    { id: 3, name: "c" },
    { id: 4, name: "a" },
  ]);
});
