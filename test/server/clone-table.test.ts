// CloneTable (`POST /v1/table/{id}/clone`): a shallow clone of another table's version or tag,
// through the LanceDB Cloud client and over plain HTTP; a clone keeps reading its source's files
// after the source is dropped or cleaned up.
import assert from "node:assert/strict";
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import * as lancedb from "@lancedb/lancedb";
import { expectError, expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";

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

test("DropTable of a clone's source → 200; the clones still read every row, the name is free again, and the last clone's drop removes the kept folder", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const source = await db.createTable("source", [{ id: 1 }, { id: 2 }]);
  await source.add([{ id: 3 }]);
  const sourceLocation = (await expectJson(await server.post("/v1/table/source/describe", {}))).location as string;
  const first = await db.cloneTable("first", sourceLocation, { sourceVersion: 1 });
  const firstLocation = (await expectJson(await server.post("/v1/table/first/describe", {}))).location as string;
  await db.cloneTable("second", firstLocation);

  await db.dropTable("source");
  assert.deepEqual(await db.tableNames(), ["first", "second"], "the source leaves the catalog at once");
  assert.deepEqual(await ids(await db.openTable("first")), [1, 2]);
  assert.equal(await first.countRows(), 2);
  assert.equal(await first.countRows("id > 1"), 1);
  const described = await expectJson(await server.post("/v1/table/first/describe", {}));
  assert.equal(described.version, 1);
  assert.deepEqual(described.schema.fields.map((field: { name: string }) => field.name), ["id"]);
  assert.equal(existsSync(sourceLocation), true, "the source's folder is kept while clones read it");

  const again = await db.createTable("source", [{ id: 7 }]);
  assert.deepEqual(await ids(again), [7], "the source's name can be used again");
  assert.notEqual((await expectJson(await server.post("/v1/table/source/describe", {}))).location, sourceLocation);

  // The clone of the clone reads files in both folders.
  await db.dropTable("first");
  assert.deepEqual(await ids(await db.openTable("second")), [1, 2]);
  assert.equal(existsSync(sourceLocation), true);
  assert.equal(existsSync(firstLocation), true);
  await db.dropTable("second");
  assert.equal(existsSync(sourceLocation), false, "the last clone's drop removes the source's folder");
  assert.equal(existsSync(firstLocation), false, "and the dropped clone's");
  assert.deepEqual(await db.tableNames(), ["source"]);
});

test("DropNamespace with Cascade of a clone's source → 200; the clone elsewhere still reads, and a clone dropped with its source leaves nothing", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  await expectJson(await server.post("/v1/namespace/team/create", {}));
  await expectJson(await server.post("/v1/namespace/gone/create", {}));
  await db.createTable("source", [{ id: 1 }, { id: 2 }], ["team"]);
  const sourceLocation = (await expectJson(await server.post("/v1/table/team$source/describe", {}))).location as string;
  await expectJson(await server.post("/v1/table/outside/clone", { source_location: sourceLocation }));
  await expectJson(await server.post("/v1/table/team$inside/clone", { source_location: sourceLocation }));

  await expectJson(await server.post("/v1/namespace/team/drop", { behavior: "Cascade" }));
  assert.deepEqual(await ids(await db.openTable("outside")), [1, 2]);
  assert.equal(existsSync(sourceLocation), true);
  await db.dropTable("outside");
  assert.equal(existsSync(sourceLocation), false);
  assert.deepEqual(readdirSync(path.dirname(sourceLocation)), [], "no folder is left");
});

test("A restart's orphan sweep keeps a dropped source's folder that a clone reads, and removes one no clone reads any more", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const before = await startTestServer({ root });
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: before.url });
  await db.createTable("source", [{ id: 1 }, { id: 2 }]);
  const sourceLocation = (await expectJson(await before.post("/v1/table/source/describe", {}))).location as string;
  await expectJson(await before.post("/v1/table/copy/clone", { source_location: sourceLocation }));
  await expectJson(await before.post("/v1/table/source/drop", {}));
  await before.close();

  const after = await startTestServer({ root, orphanGraceMs: 0 });
  t.after(() => after.close());
  assert.equal(existsSync(sourceLocation), true);
  const reopened = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: after.url });
  assert.deepEqual(await ids(await reopened.openTable("copy")), [1, 2]);

  // The clone's row goes without the release that a drop does (a crash in between).
  const clone = await after.runtime.store.rows.findTableByName("default", "", "copy");
  await after.runtime.store.rows.deleteTable(clone?.id as string);
  await after.close();
  const last = await startTestServer({ root, orphanGraceMs: 0 });
  t.after(() => last.close());
  assert.equal(existsSync(sourceLocation), false, "a kept folder no clone reads is swept");
});

test("CleanupTableVersions on a clone's source keeps the version the clone was made from; cleanup and version deletes on either leave the clone readable", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const source = await db.createTable("source", [{ id: 1 }, { id: 2 }]);
  await source.add([{ id: 3 }]);
  const sourceLocation = (await expectJson(await server.post("/v1/table/source/describe", {}))).location as string;
  const clone = await db.cloneTable("copy", sourceLocation, { sourceVersion: 1 });
  // Rewrite every file of the source, so that only old versions reference the clone's files.
  await source.delete("id = 1");
  await expectJson(await server.post("/v1/table/source/compact", {}));
  await sleep(20);

  // Deleting the cloned version's manifest is skipped like a tagged version's.
  const deleted = await expectJson(await server.post("/v1/table/source/version/delete", { ranges: [{ start_version: 1, end_version: 2 }] }));
  assert.equal(deleted.deleted_count, 0, JSON.stringify(deleted));
  const cleaned = await expectJson(await server.post("/v1/table/source/cleanup", { older_than_seconds: 0 }));
  assert.equal(cleaned.versions_removed, 0, "the cloned version 1 is the oldest: nothing before it goes");
  assert.deepEqual(await ids(await db.openTable("copy")), [1, 2]);
  assert.equal(await clone.countRows(), 2);

  // Cleanup on the clone removes its own old files only.
  await clone.add([{ id: 10 }]);
  await clone.delete("id = 2");
  await expectJson(await server.post("/v1/table/copy/compact", {}));
  await sleep(20);
  await expectJson(await server.post("/v1/table/copy/cleanup", { older_than_seconds: 0 }));
  assert.deepEqual(await ids(await db.openTable("copy")), [1, 10]);
  assert.deepEqual(await ids(await db.openTable("source")), [2, 3]);

  // With the clone gone, cleanup on the source may take the old versions.
  await db.dropTable("copy");
  const later = await expectJson(await server.post("/v1/table/source/cleanup", { older_than_seconds: 0 }));
  assert.ok(later.versions_removed >= 1, JSON.stringify(later));
  assert.deepEqual(await ids(await db.openTable("source")), [2, 3]);
});

test("QueryTable of a table whose data file was removed outside Quiver → 409, code 19, naming the file", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  await db.createTable("broken", [{ id: 1 }, { id: 2 }]);
  const location = (await expectJson(await server.post("/v1/table/broken/describe", {}))).location as string;
  const [file] = readdirSync(path.join(location, "data"));
  rmSync(path.join(location, "data", file));

  const answer = await expectError(await server.post("/v1/table/broken/query", { vector: [], k: 10 }), 409, 19);
  assert.match(answer.error, /table 'broken' cannot be read/);
  assert.ok(answer.error.includes(file), answer.error);
  await assert.rejects(db.openTable("broken").then((table) => table.query().toArray()), /cannot be read/);
});

test("DeleteTableBranch of a branch a clone reads → 409, code 19, naming the clone; the clone still reads, and the branch goes once the clone is dropped", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  await db.createTable("source", [{ id: 1 }]);
  const location = (await expectJson(await server.post("/v1/table/source/describe", {}))).location as string;
  // A client writing the branch straight to the table's folder, as namespace clients do.
  const direct = await lancedb.connect(path.dirname(location));
  const dev = await (await (await direct.openTable(path.basename(location, ".lance"))).branches()).create("dev");
  await dev.add([{ id: 2 }]);
  await expectJson(await server.post("/v1/table/source/tags/create", { tag: "trial", version: await dev.version(), branch: "dev" }));
  await expectJson(await server.post("/v1/table/trial_copy/clone", { source_location: location, source_tag: "trial" }));
  await expectJson(await server.post("/v1/table/source/tags/delete", { tag: "trial" }));

  const refused = await expectError(await server.post("/v1/table/source/branches/delete", { name: "dev" }), 409, 19);
  assert.match(refused.error, /trial_copy/);
  assert.deepEqual(await ids(await db.openTable("trial_copy")), [1, 2]);
  await db.dropTable("trial_copy");
  await expectJson(await server.post("/v1/table/source/branches/delete", { name: "dev" }));
  assert.deepEqual(await ids(await db.openTable("source")), [1]);
});
