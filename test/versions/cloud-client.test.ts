/**
 * The real LanceDB Cloud client (mode B: `connect("db://…", {hostOverride})`) driving versions,
 * tags and branches, with rows written on a branch through the client's own insert.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { expectJson, startTestServer } from "../helpers/test-server.js";
import { tableWithVersions, versionNumbers } from "./fixtures.js";

test("versions, tags and branches with the real Cloud client", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const location = await tableWithVersions(server, "t", 3);
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const table = await db.openTable("t");

  await t.test("listVersions → versions 1..3 with timestamps", async () => {
    const versions = await table.listVersions();
    assert.deepEqual(versions.map((v) => v.version), [1, 2, 3]);
    for (const v of versions) assert.ok(Math.abs(v.timestamp.getTime() - Date.now()) < 120_000, `timestamp of version ${v.version}`);
  });

  await t.test("checkout by version reads that version; checkoutLatest returns", async () => {
    await table.checkout(1);
    assert.equal(await table.version(), 1);
    const schemaAt1 = await table.schema();
    assert.deepEqual(schemaAt1.fields.map((field) => field.name), ["id"]);
    await table.checkoutLatest();
    assert.equal(await table.version(), 3);
  });

  await t.test("tags create / list / update / getVersion / checkout by tag / delete", async () => {
    const tags = await table.tags();
    await tags.create("first", 1);
    await tags.create("second", 2);
    const listed = await tags.list();
    assert.deepEqual(Object.keys(listed).sort(), ["first", "second"]);
    assert.equal(listed.first!.version, 1);
    assert.ok(listed.first!.manifestSize > 0);
    await tags.update("first", 3);
    assert.equal(await tags.getVersion("first"), 3);
    await table.checkout("second");
    assert.equal(await table.version(), 2);
    await table.checkoutLatest();
    await tags.delete("second");
    assert.deepEqual(Object.keys(await tags.list()), ["first"]);
    await assert.rejects(tags.create("first", 1), /already|400/, "a taken tag name is refused without retry loops");
  });

  await t.test("restore a checked-out version → a new latest version with its content", async () => {
    await table.checkout(2);
    await table.restore();
    await table.checkoutLatest();
    assert.equal(await table.version(), 4);
    assert.equal(await (await server.runtime.engine.openTable(location)).countRows(null), 2, "version 4 holds version 2's rows");
    assert.deepEqual((await table.listVersions()).map((v) => v.version), [1, 2, 3, 4]);
  });

  await t.test("branches create / list / delete; rows written on a branch are invisible on main", async () => {
    const branches = await table.branches();
    await branches.create("dev");
    const listed = await branches.list();
    assert.deepEqual(Object.keys(listed), ["dev"]);
    assert.equal(listed.dev!.parentVersion, 4);

    const onDev = await branches.checkout("dev");
    await onDev.add([{ id: 7 }, { id: 8 }, { id: 9 }]);
    assert.equal(await onDev.version(), 5, "the branch's own write is its version 5");
    assert.equal(await table.version(), 4, "main has no new version");
    assert.equal(await onDev.countRows(), 5);
    assert.equal(await table.countRows(), 2, "main does not see the branch's rows");
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/t/version/list"))), [1, 2, 3, 4]);

    await branches.delete("dev");
    assert.deepEqual(await branches.list(), {});
  });
});
