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
