// The real LanceDB client in namespace mode (connectNamespace "rest"): the server owns the
// catalog, the client writes and reads table data itself at the location the server returns.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { startTestServer } from "../helpers/test-server.js";

test("LanceDB namespace client (mode A) against Quiver", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connectNamespace("rest", { uri: server.url });

  await t.test("creates nested namespaces and lists them", async () => {
    await db.createNamespace(["analytics"]);
    await db.createNamespace(["analytics", "daily"], { properties: { owner: "ops" } });
    assert.deepEqual((await db.listNamespaces(["analytics"])).namespaces, ["daily"]);
    assert.deepEqual((await db.describeNamespace(["analytics", "daily"])).properties, { owner: "ops" });
  });

  await t.test("creates a table with rows, reopens it and reads the rows back", async () => {
    const rows = [
      { id: 1, city: "Lyon" },
      { id: 2, city: "Oslo" },
    ];
    await db.createTable("visits", rows, ["analytics", "daily"]);
    assert.deepEqual(await db.tableNames(["analytics", "daily"]), ["visits"]);
    const reopened = await db.openTable("visits", ["analytics", "daily"]);
    const read = (await reopened.query().toArray()).map((r) => ({ id: r.id, city: r.city }));
    assert.deepEqual(read.sort((a, b) => a.id - b.id), rows);
  });

  await t.test("a second create of the same table is refused as already existing", async () => {
    await assert.rejects(db.createTable("visits", [{ id: 3, city: "Rome" }], ["analytics", "daily"]), /already exists/i);
  });

  await t.test("renames the table into another namespace without moving data, then drops it", async () => {
    const before = (await (await fetch(`${server.url}/v1/table/analytics$daily$visits/describe`, { method: "POST" })).json()) as { location: string };
    await db.renameTable("visits", "visits_2026", { namespacePath: ["analytics", "daily"], newNamespacePath: ["analytics"] });
    assert.deepEqual(await db.tableNames(["analytics", "daily"]), []);
    const moved = await db.openTable("visits_2026", ["analytics"]);
    assert.equal(await moved.countRows(), 2);
    const after = (await (await fetch(`${server.url}/v1/table/analytics$visits_2026/describe`, { method: "POST" })).json()) as { location: string };
    assert.equal(after.location, before.location);
    await db.dropTable("visits_2026", ["analytics"]);
    assert.deepEqual(await db.tableNames(["analytics"]), []);
    await assert.rejects(db.openTable("visits_2026", ["analytics"]), /not found/i);
  });

  await t.test("drops namespaces; a missing one is reported as not found", async () => {
    await db.dropNamespace(["analytics", "daily"]);
    await assert.rejects(db.describeNamespace(["analytics", "daily"]), /not found|does not exist/i);
  });
});
