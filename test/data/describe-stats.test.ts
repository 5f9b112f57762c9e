import assert from "node:assert/strict";
import { test } from "node:test";
import { arrowStream } from "../helpers/arrow.js";
import { expectJson, startTestServer } from "../helpers/test-server.js";

test("DescribeTable stats count deleted rows until they are compacted away", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.upload("/v1/table/t/create", arrowStream({ id: Int32Array.from({ length: 10 }, (_, i) => i) })));
  const fresh = await expectJson(await server.post("/v1/table/t/describe", {}));
  assert.deepEqual(fresh.stats, { num_deleted_rows: 0, num_fragments: 1 });

  await expectJson(await server.post("/v1/table/t/delete", { predicate: "id < 3" }));
  const after = await expectJson(await server.post("/v1/table/t/describe", {}));
  assert.deepEqual(after.stats, { num_deleted_rows: 3, num_fragments: 1 });
  const older = await expectJson(await server.post("/v1/table/t/describe", { version: 1 }));
  assert.equal(older.stats.num_deleted_rows, 0, "an older version is described as it was");
});

test("row writes answer a transaction id that DescribeTransaction knows as Succeeded", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.upload("/v1/table/t/create", arrowStream({ id: Int32Array.from([1, 2, 3]) })));
  const inserted = await expectJson(await server.upload("/v1/table/t/insert", arrowStream({ id: Int32Array.from([4]) })));
  const deleted = await expectJson(await server.post("/v1/table/t/delete", { predicate: "id = 1" }));
  const updated = await expectJson(await server.post("/v1/table/t/update", { updates: [["id", "id + 10"]] }));
  for (const [answer, operation] of [[inserted, "InsertIntoTable"], [deleted, "DeleteFromTable"], [updated, "UpdateTable"]] as const) {
    assert.ok(answer.transaction_id, `${operation} answers a transaction id`);
    const described = await expectJson(await server.post(`/v1/transaction/${answer.transaction_id}/describe`, {}));
    assert.equal(described.status, "Succeeded");
    assert.equal(described.properties.operation, operation);
    assert.equal(described.properties.version, String(answer.version));
  }
});
