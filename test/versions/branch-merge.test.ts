// Branch diff and cherry-pick, which the LanceDB Cloud client offers: Lance provides them only
// on its managed tables, so Quiver refuses them as unsupported once the table and branch exist.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";

test("DiffTableBranch and CherryPickTableBranch → 406 code 0 saying why, through the Cloud client and over HTTP; nothing changes; unknown branch → 404 code 22", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const table = await db.createTable("t", [{ id: 1 }, { id: 2 }]);
  const branches = await table.branches();
  const dev = await branches.create("dev");
  await dev.add([{ id: 3 }]);

  await assert.rejects(branches.diff("dev"), /diffing branches is not supported/);
  await assert.rejects(branches.cherryPick("dev", false), /cherry-picking a branch is not supported/);

  const diff = await expectError(await server.post("/v1/table/t/branches/diff/", { from_branch: "dev" }), 406, 0);
  assert.match(diff.error, /Enterprise/);
  await expectError(await server.post("/v1/table/t/branches/cherry_pick/", { from_branch: "dev", dry_run: true }), 406, 0);
  await expectError(await server.post("/v1/table/t/branches/diff", { from_branch: "ghost" }), 404, 22);
  await expectError(await server.post("/v1/table/t/branches/cherry_pick", { from_branch: "ghost" }), 404, 22);
  await expectError(await server.post("/v1/table/missing/branches/diff", { from_branch: "dev" }), 404, 4);
  await expectError(await server.post("/v1/table/t/branches/cherry_pick", {}), 400, 13);

  assert.equal(await (await db.openTable("t")).countRows(), 2, "main is unchanged");
  assert.equal((await expectJson(await server.post("/v1/table/t/describe", {}))).version, 1);
});
