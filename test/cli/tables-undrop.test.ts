// `quiver serve --drop-retention` keeps dropped tables; `quiver tables dropped` lists them and
// `quiver tables undrop` restores one beside the running server. Real processes: the server and
// the CLI (and PostgreSQL under QUIVER_TEST_STORE=postgres).
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { test } from "node:test";
import { arrowStream } from "../helpers/arrow.js";
import { runCli, spawnServe } from "../helpers/cli-process.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";
import { testStoreUrl } from "../helpers/test-store.js";

test("quiver serve --drop-retention 7d keeps a dropped table; quiver tables dropped lists it and quiver tables undrop restores its rows; a second undrop → exit 1, no drop being kept any more", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const store = await testStoreUrl(root);
  const target = ["--root", root, ...(store ? ["--store", store] : [])];
  const server = await spawnServe(["--port", "0", ...target, "--drop-retention", "7d"]);
  t.after(() => server.stop());
  const post = (route: string, body?: string | Uint8Array, type = "application/json") =>
    fetch(server.url + route, { method: "POST", headers: body === undefined ? {} : { "content-type": type }, body });
  await expectJson(await post("/v1/namespace/shop/create", "{}"));
  const created = await expectJson(await post("/v1/table/shop$orders/create", arrowStream({ id: Int32Array.from([1, 2, 3]) }), "application/vnd.apache.arrow.stream"));
  await expectJson(await post("/v1/table/shop$orders/drop"));
  assert.ok(existsSync(created.location));

  const listed = await runCli(["tables", "dropped", "shop", ...target]);
  assert.equal(listed.code, 0, listed.stderr);
  const entries = listed.stdout.trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(entries.length, 1);
  assert.deepEqual(entries[0].id, ["shop", "orders"]);
  assert.equal(Date.parse(entries[0].purge_at) - Date.parse(entries[0].dropped_at), 7 * 24 * 60 * 60 * 1000);

  const restored = await runCli(["tables", "undrop", "shop$orders", ...target]);
  assert.equal(restored.code, 0, restored.stderr);
  assert.equal(await expectJson(await post("/v1/table/shop$orders/count_rows", "{}")), 3);

  const again = await runCli(["tables", "undrop", "shop$orders", ...target]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /no dropped table/);
});
