// CloneTable (`POST /v1/table/{id}/clone`): a shallow clone of another table's version or tag,
// through the LanceDB Cloud client and over plain HTTP.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";

const ids = async (table: lancedb.Table) => (await table.query().toArray()).map((row) => Number(row.id)).sort((a, b) => a - b);

test("the Cloud client's cloneTable reads the source's rows at the cloned version; writes to either leave the other unchanged", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const source = await db.createTable("source", [{ id: 1 }, { id: 2 }]);
  await source.add([{ id: 3 }]);
  await source.tags().then((tags) => tags.create("first", 1));
  const { location } = await expectJson(await server.post("/v1/table/source/describe", {}));

  const atVersion = await db.cloneTable("at_version", location, { sourceVersion: 1 });
  assert.deepEqual(await ids(atVersion), [1, 2]);
  const atTag = await db.cloneTable("at_tag", location, { sourceTag: "first" });
  assert.deepEqual(await ids(atTag), [1, 2]);
  const latest = await db.cloneTable("latest", location);
  assert.deepEqual(await ids(latest), [1, 2, 3]);
  assert.deepEqual(await db.tableNames(), ["at_tag", "at_version", "latest", "source"]);

  await atVersion.add([{ id: 10 }]);
  await atVersion.delete("id = 1");
  assert.deepEqual(await ids(atVersion), [2, 10]);
  assert.deepEqual(await ids(await db.openTable("source")), [1, 2, 3], "the source is unchanged");
  assert.deepEqual(await ids(atTag), [1, 2], "another clone is unchanged");

  await source.delete("id = 2");
  assert.deepEqual(await ids(await db.openTable("latest")), [1, 2, 3], "a clone is unchanged by writes to its source");

  const described = await expectJson(await server.post("/v1/table/latest/describe", {}));
  assert.notEqual(described.location, location, "the clone has its own location");
});

test("CloneTable over HTTP → 200 with location and version; refusals leave no table and no files behind", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  await db.createTable("source", [{ id: 1 }]);
  const { location } = await expectJson(await server.post("/v1/table/source/describe", {}));
  await expectJson(await server.post("/v1/namespace/team/create", {}));

  const cloned = await expectJson(await server.post("/v1/table/team$copy/clone", { source_location: location, is_shallow: true }));
  assert.equal(cloned.version, 1);
  assert.equal((await expectJson(await server.post("/v1/table/team$copy/describe", {}))).location, cloned.location);
  const tablesDir = path.dirname(location);
  const before = readdirSync(tablesDir).sort();

  const deep = await expectError(await server.post("/v1/table/deep/clone", { source_location: location, is_shallow: false }), 406, 0);
  assert.match(deep.error, /deep clone/);
  await expectError(await server.post("/v1/table/x/clone", { source_location: path.join(tablesDir, "nothing.lance") }), 404, 4);
  await expectError(await server.post("/v1/table/x/clone", { source_location: "/etc/elsewhere.lance" }), 400, 13);
  await expectError(await server.post("/v1/table/x/clone", { source_location: location, source_version: 7 }), 404, 11);
  await expectError(await server.post("/v1/table/x/clone", { source_location: location, source_tag: "none" }), 404, 8);
  await expectError(await server.post("/v1/table/x/clone", { source_location: location, source_version: 1, source_tag: "t" }), 400, 13);
  await expectError(await server.post("/v1/table/source/clone", { source_location: location }), 409, 5);
  await expectError(await server.post("/v1/table/nowhere$x/clone", { source_location: location }), 404, 1);

  assert.deepEqual(readdirSync(tablesDir).sort(), before, "no files left by refused clones");
  assert.deepEqual((await expectJson(await server.get("/v1/table"))).tables.sort(), ["source", "team$copy"]);
});
