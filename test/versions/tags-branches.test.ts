/**
 * Tags and branches over HTTP (spec/endpoints.md §8–9, spec/concepts.md §7).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ipcStreamToFile } from "../../src/engine/arrow-ipc.js";
import { arrowStream } from "../helpers/arrow.js";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";
import { declaredTable, tableWithVersions, versionNumbers } from "./fixtures.js";
import { pathName } from "../../src/model/path-names.js";

test("tags", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await tableWithVersions(server, "t", 3);

  await t.test("CreateTableTag → 200 with a transaction_id; GetTableTagVersion answers its version", async () => {
    const created = await expectJson(await server.post("/v1/table/t/tags/create", { tag: "v1", version: 1 }));
    assert.equal(typeof created.transaction_id, "string");
    assert.deepEqual(await expectJson(await server.post("/v1/table/t/tags/version", { tag: "v1" })), { version: 1, branch: "main" });
  });

  await t.test("CreateTableTag with version -1 → 400, code 13; no tag is created", async () => {
    await expectError(await server.post("/v1/table/t/tags/create", { tag: "neg", version: -1 }), 400, 13);
    await expectError(await server.post("/v1/table/t/tags/version", { tag: "neg" }), 404, 8);
  });

  await t.test("CreateTableTag on a missing version → 404, code 11", async () => {
    await expectError(await server.post("/v1/table/t/tags/create", { tag: "future", version: 9 }), 404, 11);
  });

  await t.test("CreateTableTag with a taken name → 409, code 9 (400 on the Cloud client's route, code kept)", async () => {
    await expectError(await server.post("/v1/table/t/tags/create", { tag: "v1", version: 2 }), 409, 9);
    await expectError(await server.post("/v1/table/t/tags/create/", { tag: "v1", version: 2 }), 400, 9);
    assert.deepEqual(await expectJson(await server.post("/v1/table/t/tags/version", { tag: "v1" })), { version: 1, branch: "main" });
  });

  await t.test("CreateTableTag with a bad name, or on a declared-only table → 400 code 13, 404 code 11", async () => {
    await expectError(await server.post("/v1/table/t/tags/create", { tag: "../x", version: 1 }), 400, 13);
    await declaredTable(server, "empty");
    await expectError(await server.post("/v1/table/empty/tags/create", { tag: "a", version: 1 }), 404, 11);
  });

  await t.test("ListTableTags by GET and POST → camelCase map; paging by name", async () => {
    await expectJson(await server.post("/v1/table/t/tags/create", { tag: "v3", version: 3 }));
    const viaGet = await expectJson(await server.get("/v1/table/t/tags/list"));
    assert.deepEqual(Object.keys(viaGet.tags), ["v1", "v3"]);
    assert.equal(viaGet.tags.v3.version, 3);
    assert.ok(viaGet.tags.v3.manifestSize > 0);
    const page = await expectJson(await server.post("/v1/table/t/tags/list?limit=1"));
    assert.deepEqual(Object.keys(page.tags), ["v1"]);
    const rest = await expectJson(await server.post(`/v1/table/t/tags/list?limit=1&page_token=${page.page_token}`));
    assert.deepEqual(Object.keys(rest.tags), ["v3"]);
    assert.equal(rest.page_token, undefined);
    const bare = await expectJson(await server.post("/v1/table/t/tags/list/"));
    assert.deepEqual(Object.keys(bare), ["v1", "v3"], "the Cloud client's route answers the bare map it parses");
  });

  await t.test("UpdateTableTag re-points a tag; missing tag → 404 code 8; missing version → 404 code 11", async () => {
    await expectJson(await server.post("/v1/table/t/tags/update", { tag: "v1", version: 2 }));
    assert.deepEqual(await expectJson(await server.post("/v1/table/t/tags/version", { tag: "v1" })), { version: 2, branch: "main" });
    await expectError(await server.post("/v1/table/t/tags/update", { tag: "ghost", version: 2 }), 404, 8);
    await expectError(await server.post("/v1/table/t/tags/update", { tag: "v1", version: 99 }), 404, 11);
    assert.deepEqual(await expectJson(await server.post("/v1/table/t/tags/version", { tag: "v1" })), { version: 2, branch: "main" });
  });

  await t.test("DeleteTableTag removes the tag, not its version; a missing tag → 404, code 8", async () => {
    await expectJson(await server.post("/v1/table/t/tags/delete", { tag: "v3" }));
    await expectError(await server.post("/v1/table/t/tags/version", { tag: "v3" }), 404, 8);
    await expectError(await server.post("/v1/table/t/tags/delete", { tag: "v3" }), 404, 8);
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/t/version/list"))), [1, 2, 3]);
    assert.deepEqual(Object.keys((await expectJson(await server.get("/v1/table/t/tags/list"))).tags), ["v1"]);
  });

  await t.test("tag operations on a missing table → 404, code 4", async () => {
    await expectError(await server.get("/v1/table/ghost/tags/list"), 404, 4);
    await expectError(await server.post("/v1/table/ghost/tags/create", { tag: "a", version: 1 }), 404, 4);
  });
});

test("branches", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const location = await tableWithVersions(server, "t", 3);

  await t.test("CreateTableBranch from main at version 2 → listed with parentVersion 2, createAt in seconds", async () => {
    const created = await expectJson(await server.post("/v1/table/t/branches/create", { name: "dev", from_version: 2 }));
    assert.equal(typeof created.transaction_id, "string");
    const listed = await expectJson(await server.post("/v1/table/t/branches/list", { id: ["t"] }));
    assert.deepEqual(Object.keys(listed.branches), ["dev"]);
    const dev = listed.branches.dev;
    assert.equal(dev.parentVersion, 2);
    assert.equal(dev.parentBranch, undefined);
    assert.ok(Math.abs(dev.createAt - Date.now() / 1000) < 120);
    assert.ok(dev.manifestSize > 0);
  });

  await t.test("versions on a branch are its own; writes there are invisible on main", async () => {
    const table = await server.runtime.engine.openTable(location, { branch: pathName("branch", "dev") });
    await table.add((await ipcStreamToFile(arrowStream({ id: Int32Array.from([100, 101]) }))).file, "append");
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/t/version/list?branch=dev"))), [2, 3]);
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/t/version/list"))), [1, 2, 3]);
    const onDev = await expectJson(await server.post("/v1/table/t/describe", { branch: "dev", load_detailed_metadata: true }));
    const onMain = await expectJson(await server.post("/v1/table/t/describe", { load_detailed_metadata: true }));
    assert.equal(onDev.stats.num_fragments, 3);
    assert.equal(onMain.stats.num_fragments, 3);
    const mainRows = await (await server.runtime.engine.openTable(location)).countRows(null);
    const devRows = await table.countRows(null);
    assert.equal(mainRows, 3);
    assert.equal(devRows, 4);
  });

  await t.test("CreateTableBranch with a taken name → 409 code 23; from a missing branch → 404 code 22; missing version → 404 code 11", async () => {
    await expectError(await server.post("/v1/table/t/branches/create", { name: "dev" }), 409, 23);
    await expectError(await server.post("/v1/table/t/branches/create", { name: "x", from_branch: "ghost" }), 404, 22);
    await expectError(await server.post("/v1/table/t/branches/create", { name: "y", from_version: 42 }), 404, 11);
    await expectError(await server.post("/v1/table/t/branches/create", { name: "bad/name" }), 400, 13);
    assert.deepEqual(Object.keys((await expectJson(await server.post("/v1/table/t/branches/list"))).branches), ["dev"]);
  });

  await t.test("CreateTableBranch from another branch records parentBranch", async () => {
    await expectJson(await server.post("/v1/table/t/branches/create", { name: "feature", from_branch: "dev" }));
    const listed = await expectJson(await server.post("/v1/table/t/branches/list"));
    assert.equal(listed.branches.feature.parentBranch, "dev");
    assert.equal(listed.branches.feature.parentVersion, 3);
  });

  await t.test("a tag on a branch reports its branch; the tagged branch cannot be deleted (409, code 19)", async () => {
    await expectJson(await server.post("/v1/table/t/tags/create", { tag: "devtag", version: 3, branch: "dev" }));
    assert.deepEqual(await expectJson(await server.post("/v1/table/t/tags/version", { tag: "devtag" })), { version: 3, branch: "dev" });
    assert.equal((await expectJson(await server.get("/v1/table/t/tags/list"))).tags.devtag.branch, "dev");
    await expectError(await server.post("/v1/table/t/branches/delete", { name: "dev" }), 409, 19);
    await expectJson(await server.post("/v1/table/t/tags/delete", { tag: "devtag" }));
  });

  await t.test("DeleteTableBranch removes it; again → 404, code 22; main keeps every version", async () => {
    await expectJson(await server.post("/v1/table/t/branches/delete", { name: "feature" }));
    await expectJson(await server.post("/v1/table/t/branches/delete", { name: "dev" }));
    await expectError(await server.post("/v1/table/t/branches/delete", { name: "dev" }), 404, 22);
    await expectError(await server.post("/v1/table/t/version/list?branch=dev"), 404, 22);
    assert.deepEqual((await expectJson(await server.post("/v1/table/t/branches/list"))).branches, {});
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/t/version/list"))), [1, 2, 3]);
  });
});
