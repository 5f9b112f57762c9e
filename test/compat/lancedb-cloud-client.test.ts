// The real LanceDB Cloud client (connect "db://...") with hostOverride: every table operation is
// an HTTP call, uploads are LZ4-compressed Arrow streams, routes end in "/".
import assert from "node:assert/strict";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { startTestServer } from "../helpers/test-server.js";

test("LanceDB Cloud client (mode B) against Quiver", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });

  await t.test("creates a table from rows and lists it", async () => {
    await db.createTable("people", [
      { id: 1, name: "ana", vector: [0.1, 0.2] },
      { id: 2, name: "bo", vector: [0.3, 0.4] },
    ]);
    assert.deepEqual(await db.tableNames(), ["people"]);
  });

  await t.test("opens the table and reads its schema with the right types", async () => {
    const table = await db.openTable("people");
    const schema = await table.schema();
    assert.deepEqual(schema.fields.map((f) => f.name), ["id", "name", "vector"]);
    assert.equal(String(schema.fields[2]?.type), "FixedSizeList[2]<Float32>");
    assert.equal(await table.version(), 1);
  });

  await t.test("creating it again fails as already existing; existOk opens it", async () => {
    await assert.rejects(db.createTable("people", [{ id: 3 }]), /already exists/);
    const again = await db.createTable("people", [{ id: 3, name: "cy", vector: [0.5, 0.6] }], { existOk: true });
    assert.equal(await again.version(), 1);
  });

  await t.test("creates an empty table from a schema", async () => {
    const table = await db.openTable("people");
    await db.createEmptyTable("people_copy", await table.schema());
    assert.deepEqual(await db.tableNames(), ["people", "people_copy"]);
  });

  await t.test("drops the tables; opening a dropped table fails as not found", async () => {
    await db.dropTable("people");
    await db.dropTable("people_copy");
    assert.deepEqual(await db.tableNames(), []);
    const fresh = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
    await assert.rejects(fresh.openTable("people"), /not found/i);
  });

  await t.test("namespaces through the cloud client (quoted modes)", async () => {
    await db.createNamespace(["team"]);
    await db.createNamespace(["team"], { mode: "exist_ok" });
    assert.deepEqual((await db.listNamespaces()).namespaces, ["team"]);
    await db.createTable("t", [{ a: 1 }], ["team"]);
    assert.deepEqual(await db.tableNames(["team"]), ["t"]);
    await db.dropNamespace(["team"], { behavior: "cascade" });
    assert.deepEqual((await db.listNamespaces()).namespaces, []);
  });
});
