/**
 * The real LanceDB client in mode A (`connectNamespace("rest")`) against a database with managed
 * versioning: every commit must go through version/create and be found through version/list.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { joinLocation, objectPathOf } from "../../src/storage/locations.js";
import { namesUnder, testStorages } from "../helpers/test-backend.js";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";

test("managed versioning with the real namespace client", async (t) => {
  const server = await startTestServer({ managedVersioning: true });
  t.after(() => server.close());

  await t.test("DeclareTable reports managed_versioning: true", async () => {
    const declared = await expectJson(await server.post("/v1/table/probe/declare", {}));
    assert.equal(declared.managed_versioning, true);
    const described = await expectJson(await server.post("/v1/table/probe/describe", {}));
    assert.equal(described.managed_versioning, true);
  });

  await t.test("create + three adds commit versions 1..4 through version/create; a fresh connection sees version 4", async () => {
    const db = await lancedb.connectNamespace("rest", { uri: server.url });
    const table = await db.createTable("events", [{ id: 1, name: "a" }]);
    for (let i = 2; i <= 4; i += 1) await table.add([{ id: i, name: `r${i}` }]);
    assert.equal(await table.version(), 4);

    // The server's records: four versions, each with its manifest at the final V2 name.
    const listed = await expectJson(await server.post("/v1/table/events/version/list", null));
    assert.deepEqual(listed.versions.map((v: { version: number }) => v.version), [1, 2, 3, 4]);
    const table4 = await expectJson(await server.post("/v1/table/events/version/describe", { version: 4 }));
    const stored = await server.runtime.store.rows.findTableByName("default", "", "events");
    assert.equal(
      table4.version.manifest_path,
      objectPathOf(joinLocation(stored!.location, "_versions", "18446744073709551611.manifest")),
      "the object path Lance opens the manifest by",
    );
    const records = await server.runtime.store.rows.listTableVersions(stored!.id, "");
    assert.deepEqual(records.map((row) => [Number(row.version), row.staged_path]), [[1, null], [2, null], [3, null], [4, null]]);
    // Only version/create writes these records: each commit went through it, as its own transaction.
    for (const row of records) {
      const transaction = await expectJson(await server.post(`/v1/transaction/${row.transaction_id}/describe`, {}));
      assert.equal(transaction.status, "Succeeded");
      assert.equal(transaction.properties.operation, "CreateTableVersion");
      assert.equal(transaction.properties.version, String(row.version));
    }
    // Staged manifests were moved out of the way once final.
    const files = await namesUnder(joinLocation(stored!.location, "_versions"));
    assert.deepEqual(files.filter((name) => name.includes(".manifest-")), []);

    const fresh = await lancedb.connectNamespace("rest", { uri: server.url });
    const reopened = await fresh.openTable("events");
    assert.equal(await reopened.version(), 4);
    assert.equal(await reopened.countRows(), 4);
    await reopened.checkout(2);
    assert.equal(await reopened.countRows(), 2, "time travel reads version 2 through version/describe");
  });

  await t.test("the server itself reads a managed table at its latest version", async () => {
    const described = await expectJson(await server.post("/v1/table/events/describe", { load_detailed_metadata: true }));
    assert.equal(described.version, 4);
  });

  await t.test("branches.create forks a branch whose first version commits through version/create; it stays isolated from main", async () => {
    const db = await lancedb.connectNamespace("rest", { uri: server.url });
    const table = await db.createTable("forked", [{ id: 1, name: "a" }]);
    await table.add([{ id: 2, name: "b" }]);
    await table.add([{ id: 3, name: "c" }]);

    const dev = await (await table.branches()).create("dev");
    assert.equal(await dev.countRows(), 3);
    await dev.add([{ id: 4, name: "d" }]);
    assert.equal(await dev.countRows(), 4);
    assert.equal(await table.countRows(), 3, "main is untouched by the branch's write");

    const listed = await expectJson(await server.post("/v1/table/forked/branches/list", {}));
    assert.deepEqual(Object.keys(listed.branches), ["dev"]);
    assert.equal(listed.branches.dev.parentVersion, 3);
    assert.equal(listed.branches.dev.parentBranch, undefined, "forked from main");
    const devVersions = await expectJson(await server.post("/v1/table/forked/version/list?branch=dev", null));
    assert.deepEqual(devVersions.versions.map((v: { version: number }) => v.version), [3, 4]);
    const mainVersions = await expectJson(await server.post("/v1/table/forked/version/list", null));
    assert.deepEqual(mainVersions.versions.map((v: { version: number }) => v.version), [1, 2, 3]);

    const fresh = await lancedb.connectNamespace("rest", { uri: server.url });
    const reopened = await fresh.openTable("forked");
    const devAgain = await (await reopened.branches()).checkout("dev");
    assert.equal(await devAgain.version(), 4);
    assert.equal(await devAgain.countRows(), 4);
    assert.equal(await reopened.countRows(), 3);
  });

  await t.test("a branch forks from an older version, and from another branch", async () => {
    const db = await lancedb.connectNamespace("rest", { uri: server.url });
    const table = await db.openTable("forked");
    const branches = await table.branches();
    const old = await branches.create("old", "main", 1);
    assert.equal(await old.countRows(), 1);
    await old.add([{ id: 9, name: "z" }]);
    assert.equal(await old.countRows(), 2);
    const nested = await branches.create("nested", "dev");
    assert.equal(await nested.countRows(), 4);
    const listed = await expectJson(await server.post("/v1/table/forked/branches/list", {}));
    assert.deepEqual(Object.keys(listed.branches), ["dev", "nested", "old"]);
    assert.equal(listed.branches.old.parentVersion, 1);
    assert.equal(listed.branches.nested.parentBranch, "dev");
    assert.equal(listed.branches.nested.parentVersion, 4);
  });

  await t.test("creating a branch that exists is refused, and the branch keeps its versions", async () => {
    const db = await lancedb.connectNamespace("rest", { uri: server.url });
    const table = await db.openTable("forked");
    await assert.rejects((await table.branches()).create("dev"));
    const dev = await (await table.branches()).checkout("dev");
    assert.equal(await dev.countRows(), 4);
  });

  await t.test("a branch the client deleted can be forked again under the same name", async () => {
    const db = await lancedb.connectNamespace("rest", { uri: server.url });
    const table = await db.openTable("forked");
    const branches = await table.branches();
    await branches.delete("old");
    const again = await branches.create("old", "main", 2);
    assert.equal(await again.countRows(), 2);
    const versions = await expectJson(await server.post("/v1/table/forked/version/list?branch=old", null));
    assert.deepEqual(versions.versions.map((v: { version: number }) => v.version), [2], "the deleted branch's versions are gone");
  });

  await t.test("version/create on a branch that does not exist, with a manifest outside the branch's folder → 404, code 22", async () => {
    const stored = await server.runtime.store.rows.findTableByName("default", "", "forked");
    const staged = joinLocation(stored!.location, "_versions", "18446744073709551610.manifest-stray");
    const copied = joinLocation(stored!.location, "_versions", "18446744073709551612.manifest");
    await testStorages.for(staged).put(staged, (await testStorages.for(copied).read(copied))!);
    await expectError(
      await server.post("/v1/table/forked/version/create", { version: 5, branch: "ghost", manifest_path: objectPathOf(staged), naming_scheme: "V2" }),
      404,
      22,
    );
    const listed = await expectJson(await server.post("/v1/table/forked/branches/list", {}));
    assert.equal(listed.branches.ghost, undefined);
  });
});
