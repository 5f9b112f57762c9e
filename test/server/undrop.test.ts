// Undrop (`--drop-retention`): a dropped table is kept for its retention, listed by
// ListDroppedTables and restored by UndropTable with its rows, versions, tags and properties;
// the purge deletes its data after the retention; without a retention a drop deletes at once.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import * as lancedb from "@lancedb/lancedb";
import { purgeDroppedTables } from "../../src/catalog/tables/dropped-tables.js";
import { sweepOnce } from "../../src/catalog/tables/orphan-sweeper.js";
import { arrowStream } from "../helpers/arrow.js";
import { declaredTable, stageVersion } from "../versions/fixtures.js";
import { type TestServer, expectError, expectJson, startTestServer } from "../helpers/test-server.js";

const rows = () => arrowStream({ id: Int32Array.from([1, 2, 3]) });

/** Runs the server's purge of kept drops as if the time were `now`. */
const purgeAt = (server: TestServer, now: number) => purgeDroppedTables(server.runtime.store, server.runtime.registry, now);

/** Waits until `check` holds, polling; fails after `ms`. */
async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await sleep(100);
  }
}

test("DropTable under a drop retention keeps the table: the name is free and unlisted, ListDroppedTables shows it, UndropTable brings back rows, versions, tags and properties", async (t) => {
  const server = await startTestServer({ dropRetentionMs: 60 * 60 * 1000 });
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/shop/create", {}));
  const created = await expectJson(await server.upload("/v1/table/shop$orders/create?properties=%7B%22team%22%3A%22eng%22%7D", rows()));
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const orders = await db.openTable("orders", ["shop"]);
  await orders.add([{ id: 4 }]);
  await (await orders.tags()).create("first", 1);
  const versionsBefore = (await expectJson(await server.post("/v1/table/shop$orders/version/list", {}))).versions.length;

  await expectJson(await server.post("/v1/table/shop$orders/drop"));
  assert.ok(existsSync(created.location), "the data stays on disk");
  assert.deepEqual((await expectJson(await server.get("/v1/namespace/shop/table/list"))).tables, []);
  assert.deepEqual((await expectJson(await server.get("/v1/table"))).tables, []);
  await expectError(await server.post("/v1/table/shop$orders/describe", {}), 404, 4);

  const listed = await expectJson(await server.get("/v1/namespace/shop/dropped_tables"));
  assert.equal(listed.tables.length, 1);
  const [entry] = listed.tables;
  assert.deepEqual(entry.id, ["shop", "orders"]);
  assert.equal(entry.name, "orders");
  assert.equal(entry.location, created.location);
  assert.ok(Date.parse(entry.purge_at) - Date.parse(entry.dropped_at) === 60 * 60 * 1000, "purge_at is the drop time plus the retention");
  assert.equal(typeof entry.dropped_by, "string");

  const restored = await expectJson(await server.post("/v1/table/shop$orders/undrop", {}));
  assert.equal(restored.location, created.location);
  assert.deepEqual(restored.properties, { team: "eng" });
  assert.deepEqual((await expectJson(await server.get("/v1/namespace/shop/dropped_tables"))).tables, []);
  const back = await db.openTable("orders", ["shop"]);
  assert.equal(await back.countRows(), 4);
  assert.equal(await (await back.tags()).getVersion("first"), 1);
  await back.checkout("first");
  assert.equal(await back.countRows(), 3, "the tagged version reads as before the drop");
  assert.equal((await expectJson(await server.post("/v1/table/shop$orders/version/list", {}))).versions.length, versionsBefore);
  assert.deepEqual((await expectJson(await server.post("/v1/table/shop$orders/describe", {}))).properties, { team: "eng" });
});

test("UndropTable onto a name a new table took → 409, code 5; with dropped_id it picks one of several kept drops; unknown → 404, code 4; missing namespace → 404, code 1", async (t) => {
  const server = await startTestServer({ dropRetentionMs: 60 * 60 * 1000 });
  t.after(() => server.close());
  await expectJson(await server.upload("/v1/table/t/create", rows()));
  await expectJson(await server.post("/v1/table/t/drop"));
  await expectJson(await server.upload("/v1/table/t/create", arrowStream({ id: Int32Array.from([7]) })));
  await expectError(await server.post("/v1/table/t/undrop", {}), 409, 5);
  await expectJson(await server.post("/v1/table/t/drop"));

  const kept = (await expectJson(await server.get("/v1/namespace/$/dropped_tables?limit=1"))).tables;
  assert.equal(kept.length, 1, "the listing is paged");
  const all = (await expectJson(await server.get("/v1/namespace/$/dropped_tables"))).tables;
  assert.equal(all.length, 2);
  const older = all.reduce((a: any, b: any) => (Date.parse(a.dropped_at) <= Date.parse(b.dropped_at) ? a : b));
  await expectError(await server.post("/v1/table/t/undrop", { dropped_id: "no-such-drop" }), 404, 4);
  await expectJson(await server.post("/v1/table/t/undrop", { dropped_id: older.dropped_id }));
  const count = await expectJson(await server.post("/v1/table/t/count_rows", {}));
  assert.equal(count, 3, "the older drop, with its three rows, is back");
  await expectError(await server.post("/v1/table/nowhere$t/undrop", {}), 404, 1);
  await expectError(await server.post("/v1/table/never/undrop", {}), 404, 4);
});

test("the purge after the drop retention removes the dropped table's folder and its listing entry; UndropTable then → 404, code 4", async (t) => {
  const server = await startTestServer({ dropRetentionMs: 2000, dropPurgeIntervalMs: 300 });
  t.after(() => server.close());
  const created = await expectJson(await server.upload("/v1/table/gone/create", rows()));
  await expectJson(await server.post("/v1/table/gone/drop"));
  assert.ok(existsSync(created.location));
  await eventually(async () => !existsSync(created.location), 10_000, "the folder is purged");
  assert.deepEqual((await expectJson(await server.get("/v1/namespace/$/dropped_tables"))).tables, []);
  await expectError(await server.post("/v1/table/gone/undrop", {}), 404, 4);
});

test("DropTable without a drop retention deletes the data at once and keeps nothing to undrop → 404, code 4", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const created = await expectJson(await server.upload("/v1/table/t/create", rows()));
  await expectJson(await server.post("/v1/table/t/drop"));
  assert.equal(existsSync(created.location), false);
  assert.deepEqual((await expectJson(await server.get("/v1/namespace/$/dropped_tables"))).tables, []);
  await expectError(await server.post("/v1/table/t/undrop", {}), 404, 4);
});

test("a dropped clone source under a drop retention: its purge keeps the folder while the clone reads it, and the clone's drop then removes it", async (t) => {
  const server = await startTestServer({ dropRetentionMs: 1000, dropPurgeIntervalMs: 200 });
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  await db.createTable("source", [{ id: 1 }, { id: 2 }]);
  const sourceLocation = (await expectJson(await server.post("/v1/table/source/describe", {}))).location as string;
  await db.cloneTable("copy", sourceLocation);
  await expectJson(await server.post("/v1/table/source/drop"));
  await eventually(async () => (await expectJson(await server.get("/v1/namespace/$/dropped_tables"))).tables.length === 0, 10_000, "the source is purged");
  await sleep(500);
  assert.ok(existsSync(sourceLocation), "the clone still reads the purged source's files");
  assert.equal(await (await db.openTable("copy")).countRows(), 2);

  const copyLocation = (await expectJson(await server.post("/v1/table/copy/describe", {}))).location as string;
  await expectJson(await server.post("/v1/table/copy/drop"));
  await eventually(async () => !existsSync(copyLocation) && !existsSync(sourceLocation), 10_000, "the clone's and the source's folders are purged");
});

test("DropNamespace with Cascade under a drop retention keeps its tables; UndropTable needs the namespace back (404, code 1), then restores", async (t) => {
  const server = await startTestServer({ dropRetentionMs: 60 * 60 * 1000 });
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/team/create", {}));
  const created = await expectJson(await server.upload("/v1/table/team$t/create", rows()));
  await expectJson(await server.post("/v1/namespace/team/drop", { behavior: "Cascade" }));
  assert.ok(existsSync(created.location));
  await expectError(await server.post("/v1/table/team$t/undrop", {}), 404, 1);
  await expectJson(await server.post("/v1/namespace/team/create", {}));
  assert.equal((await expectJson(await server.get("/v1/namespace/team/dropped_tables"))).tables.length, 1);
  await expectJson(await server.post("/v1/table/team$t/undrop", {}));
  assert.equal(await expectJson(await server.post("/v1/table/team$t/count_rows", {})), 3);
});

test("UndropTable in a database under managed versioning: the versions list as before and new writes commit on top", async (t) => {
  const server = await startTestServer({ managedVersioning: true, dropRetentionMs: 60 * 60 * 1000 });
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const table = await db.createTable("t", [{ id: 1 }]);
  await table.add([{ id: 2 }]);
  const before = (await expectJson(await server.post("/v1/table/t/version/list", {}))).versions.map((v: any) => v.version);
  assert.deepEqual(before.length, 2);
  await expectJson(await server.post("/v1/table/t/drop"));
  await expectJson(await server.post("/v1/table/t/undrop", {}));
  const after = (await expectJson(await server.post("/v1/table/t/version/list", {}))).versions.map((v: any) => v.version);
  assert.deepEqual(after, before);
  const back = await db.openTable("t");
  await back.add([{ id: 3 }]);
  assert.equal(await back.countRows(), 3);
  assert.equal((await expectJson(await server.post("/v1/table/t/version/list", {}))).versions.length, 3);
});

test("the orphan sweep leaves the folder of a table kept by the drop retention, however old", async (t) => {
  const server = await startTestServer({ dropRetentionMs: 60 * 60 * 1000, orphanGraceMs: 0 });
  t.after(() => server.close());
  const created = await expectJson(await server.upload("/v1/table/t/create", rows()));
  await expectJson(await server.post("/v1/table/t/drop"));
  await sleep(50);
  const report = await sweepOnce(server.runtime.store, server.runtime.engine, { graceMs: 0, dataLocation: server.dataLocation }, { removed: () => undefined, failed: () => undefined });
  assert.deepEqual(report?.removed, []);
  assert.ok(existsSync(created.location));
  await expectJson(await server.post("/v1/table/t/undrop", {}));
  assert.equal(await expectJson(await server.post("/v1/table/t/count_rows", {})), 3);
});

test("a kept clone holds its kept source's purge back: the source stays listed and keeps its files, and the clone restored reads every row", async (t) => {
  const server = await startTestServer({ dropRetentionMs: 60 * 60 * 1000, dropPurgeIntervalMs: 0 });
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  await db.createTable("source", [{ id: 1 }, { id: 2 }]);
  const sourceLocation = (await expectJson(await server.post("/v1/table/source/describe", {}))).location as string;
  await db.cloneTable("copy", sourceLocation);
  await expectJson(await server.post("/v1/table/source/drop"));
  await sleep(20);
  await expectJson(await server.post("/v1/table/copy/drop"));
  const kept = (await expectJson(await server.get("/v1/namespace/$/dropped_tables"))).tables;
  const source = kept.find((entry: any) => entry.name === "source");
  await purgeAt(server, Date.parse(source.purge_at));
  assert.ok(existsSync(sourceLocation), "the kept clone's source keeps its files");
  assert.equal((await expectJson(await server.get("/v1/namespace/$/dropped_tables"))).tables.length, 2, "the source stays listed past its purge time");

  await expectJson(await server.post("/v1/table/copy/undrop", {}));
  assert.equal(await (await db.openTable("copy")).countRows(), 2);
  await purgeAt(server, Date.now() + 2 * 60 * 60 * 1000);
  assert.deepEqual((await expectJson(await server.get("/v1/namespace/$/dropped_tables"))).tables, []);
  assert.ok(existsSync(sourceLocation), "the restored clone still reads the purged source's files");
  assert.equal(await (await db.openTable("copy")).countRows(), 2);
});

test("a kept drop's folder registered again as another table: UndropTable → 409, code 5, and the purge leaves the registered table's data", async (t) => {
  const server = await startTestServer({ dropRetentionMs: 60 * 60 * 1000, dropPurgeIntervalMs: 0 });
  t.after(() => server.close());
  const created = await expectJson(await server.upload("/v1/table/t/create", rows()));
  await expectJson(await server.post("/v1/table/t/drop"));
  await expectJson(await server.post("/v1/table/again/register", { location: created.location }));
  await expectError(await server.post("/v1/table/t/undrop", {}), 409, 5);
  await purgeAt(server, Date.now() + 2 * 60 * 60 * 1000);
  assert.deepEqual((await expectJson(await server.get("/v1/namespace/$/dropped_tables"))).tables, []);
  assert.ok(existsSync(created.location));
  assert.equal(await expectJson(await server.post("/v1/table/again/count_rows", {})), 3);
});

test("UndropTable brings back the versions clients committed through CreateTableVersion, with their metadata", async (t) => {
  const server = await startTestServer({ dropRetentionMs: 60 * 60 * 1000 });
  t.after(() => server.close());
  const location = await declaredTable(server, "m");
  const staged = await stageVersion(location, [1, 2]);
  await expectJson(await server.post("/v1/table/m/version/create", { id: ["m"], version: staged.version, manifest_path: staged.manifest_path, naming_scheme: "V2", metadata: { who: "test" } }));
  const listed = async () => (await expectJson(await server.post("/v1/table/m/version/list"))).versions.map((v: { version: number; metadata: unknown }) => [v.version, v.metadata]);
  const before = await listed();
  assert.deepEqual(before, [[1, { who: "test" }]]);
  await expectJson(await server.post("/v1/table/m/drop"));
  await expectJson(await server.post("/v1/table/m/undrop", {}));
  assert.deepEqual(await listed(), before);
});

test("the purge of a kept drop whose folder a later kept drop holds (registered there again, then dropped) keeps the folder: UndropTable of the later one reads every row", async (t) => {
  const server = await startTestServer({ dropRetentionMs: 60 * 60 * 1000, dropPurgeIntervalMs: 0 });
  t.after(() => server.close());
  const created = await expectJson(await server.upload("/v1/table/t/create", rows()));
  await expectJson(await server.post("/v1/table/t/drop"));
  await expectJson(await server.post("/v1/table/again/register", { location: created.location }));
  await sleep(20);
  await expectJson(await server.post("/v1/table/again/drop"));
  const kept = (await expectJson(await server.get("/v1/namespace/$/dropped_tables"))).tables;
  const first = kept.find((entry: any) => entry.name === "t");
  const later = kept.find((entry: any) => entry.name === "again");
  assert.ok(Date.parse(first.purge_at) < Date.parse(later.purge_at));

  await purgeAt(server, Date.parse(first.purge_at));
  assert.deepEqual((await expectJson(await server.get("/v1/namespace/$/dropped_tables"))).tables.map((entry: any) => entry.name), ["again"]);
  assert.ok(existsSync(created.location), "the later kept drop keeps the folder");
  await expectJson(await server.post("/v1/table/again/undrop", {}));
  assert.equal(await expectJson(await server.post("/v1/table/again/count_rows", {})), 3);

  await expectJson(await server.post("/v1/table/again/drop"));
  await purgeAt(server, Date.now() + 2 * 60 * 60 * 1000);
  assert.equal(existsSync(created.location), false, "the last kept drop of the folder takes it");
});

test("the purge of a kept drop leaves its folder while a live table lies inside it or around it; that table reads every row", async (t) => {
  const server = await startTestServer({ dropRetentionMs: 60 * 60 * 1000, dropPurgeIntervalMs: 0 });
  t.after(() => server.close());
  const outer = await expectJson(await server.upload("/v1/table/outer/create", rows()));
  await expectJson(await server.post("/v1/table/outer/drop"));
  const inside = `${outer.location}/inner.lance`;
  await expectJson(await server.post("/v1/table/inner/declare", { location: inside }));
  await expectJson(await server.upload("/v1/table/inner/create", rows()));
  await purgeAt(server, Date.now() + 2 * 60 * 60 * 1000);
  assert.deepEqual((await expectJson(await server.get("/v1/namespace/$/dropped_tables"))).tables, [], "the drop is forgotten");
  assert.ok(existsSync(inside), "the live table inside the purged folder keeps its data");
  assert.equal(await expectJson(await server.post("/v1/table/inner/count_rows", {})), 3);

  // Around: the table holding the folder is restored; the kept drop at a folder inside it goes without its files.
  await expectJson(await server.post("/v1/table/inner/drop"));
  const around = await expectJson(await server.upload("/v1/table/around/create", rows()));
  await expectJson(await server.post("/v1/table/around/drop"));
  const nested = `${around.location}/nested.lance`;
  await expectJson(await server.post("/v1/table/nested/declare", { location: nested }));
  await expectJson(await server.upload("/v1/table/nested/create", rows()));
  await expectJson(await server.post("/v1/table/nested/drop"));
  await expectJson(await server.post("/v1/table/around/undrop", {}));
  await purgeAt(server, Date.now() + 2 * 60 * 60 * 1000);
  assert.ok(existsSync(nested), "a folder inside a live table's folder is that table's to keep");
  assert.equal(await expectJson(await server.post("/v1/table/around/count_rows", {})), 3);
});

test("UndropTable of a folder's first drop while a later drop of it is kept, then DropTable again: purging the later drop keeps the folder for the one kept since; UndropTable reads every row", async (t) => {
  const server = await startTestServer({ dropRetentionMs: 60 * 60 * 1000, dropPurgeIntervalMs: 0 });
  t.after(() => server.close());
  const created = await expectJson(await server.upload("/v1/table/t/create", rows()));
  await expectJson(await server.post("/v1/table/t/drop"));
  await expectJson(await server.post("/v1/table/again/register", { location: created.location }));
  await expectJson(await server.post("/v1/table/again/drop"));
  await expectJson(await server.post("/v1/table/t/undrop", {}));
  await sleep(20);
  await expectJson(await server.post("/v1/table/t/drop"));
  const kept = (await expectJson(await server.get("/v1/namespace/$/dropped_tables"))).tables;
  const later = kept.find((entry: any) => entry.name === "again");

  await purgeAt(server, Date.parse(later.purge_at));
  assert.deepEqual((await expectJson(await server.get("/v1/namespace/$/dropped_tables"))).tables.map((entry: any) => entry.name), ["t"]);
  assert.ok(existsSync(created.location), "the drop kept since keeps the folder");
  await expectJson(await server.post("/v1/table/t/undrop", {}));
  assert.equal(await expectJson(await server.post("/v1/table/t/count_rows", {})), 3);
});
