/**
 * The real LanceDB client in mode A (`connectNamespace("rest")`) against a database with managed
 * versioning: every commit must go through version/create and be found through version/list.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { expectJson, startTestServer } from "../helpers/test-server.js";

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
    assert.equal(table4.version.manifest_path, path.join(stored!.location, "_versions", "18446744073709551611.manifest"), "an absolute path, like the location");
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
    const files = readdirSync(path.join(stored!.location, "_versions"));
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
});
