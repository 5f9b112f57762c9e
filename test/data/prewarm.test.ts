// Cache prewarming the LanceDB Cloud client asks for: `index/{name}/prewarm` loads an index
// into the server's index cache; `page_cache/prewarm` is refused as unsupported, saying why.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";

test("PrewarmTableIndex: the Cloud client's prewarmIndex succeeds for an index and fails as not found for a missing one; over HTTP → 200, 404 code 6 / 4 / 22", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const table = await db.createTable("t", Array.from({ length: 300 }, (_, i) => ({ id: i, label: `n${i % 7}` })));
  await table.createIndex("id");

  await table.prewarmIndex("id_idx");
  await assert.rejects(table.prewarmIndex("nope"), /not found/i);
  assert.deepEqual(await table.query().where("id = 42").toArray().then((rows) => rows.map((r) => Number(r.id))), [42], "searches still answer after prewarming");

  assert.deepEqual(await expectJson(await server.post("/v1/table/t/index/id_idx/prewarm/")), {});
  await expectError(await server.post("/v1/table/t/index/nope/prewarm"), 404, 6);
  await expectError(await server.post("/v1/table/missing/index/id_idx/prewarm"), 404, 4);
  await expectError(await server.post("/v1/table/t/index/id_idx/prewarm?branch=ghost"), 404, 22);
});

test("PrewarmTablePageCache: the Cloud client's prewarmData fails with the reason; over HTTP → 406 code 0 saying what is unsupported, missing table → 404 code 4", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const table = await db.createTable("t", [{ id: 1 }]);

  await assert.rejects(table.prewarmData(["id"]), /prewarming the page cache is not supported/);
  const refused = await expectError(await server.post("/v1/table/t/page_cache/prewarm/", { columns: [] }), 406, 0);
  assert.match(refused.error, /only for remote tables/);
  await expectError(await server.post("/v1/table/missing/page_cache/prewarm", { columns: ["id"] }), 404, 4);
});
