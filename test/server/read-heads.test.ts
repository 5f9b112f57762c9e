// Reads of a table's newest version trust what the catalog knows of it: a table written through
// Quiver in a managed-versioning database is read from the kept handle with no listing of its
// versions on the store, replicas see each other's commits at their next read, and a database's
// read-consistency interval lets reads skip the look for commits clients make directly, for that
// long and no longer. The store is Azurite behind a proxy that counts the requests.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { azuriteAccount } from "../helpers/azurite.js";
import { type LatencyProxy, startLatencyProxy, versionListings } from "../helpers/latency-proxy.js";
import { sharedAzurite } from "../helpers/test-backend.js";
import { type TestServer, expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";

const rowsFrom = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: from + i, label: `row ${from + i}` }));

async function idsOf(table: lancedb.Table, filter?: string): Promise<number[]> {
  const query = filter ? table.query().where(filter) : table.query();
  return (await query.toArray()).map((row) => Number(row.id)).sort((a, b) => a - b);
}

/** Quiver replicas on one root and store, their tables on Azurite reached through `proxy`. */
async function replicasBehind(proxy: LatencyProxy, count: number): Promise<TestServer[]> {
  const azurite = await sharedAzurite();
  const root = tempRoot();
  const data = `az://heads${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}/data`;
  const storageOptions = { ...azurite.storageOptions, azure_endpoint: `${proxy.origin}/${azuriteAccount}` };
  const servers: TestServer[] = [];
  // Static vending: namespace clients of either database get the account key (scoped credentials are withheld where databases share a container).
  const vending = { mode: "static" as const, ttlSeconds: 600 };
  for (let i = 0; i < count; i += 1) servers.push(await startTestServer({ root, data, storageOptions, vending }));
  const close = servers[0]!.close;
  servers[0]!.close = async () => {
    await close();
    rmSync(root, { recursive: true, force: true });
  };
  return servers;
}

let proxy: LatencyProxy;
let first: TestServer;
let second: TestServer;

before(async () => {
  const azurite = await sharedAzurite();
  proxy = await startLatencyProxy(new URL(azurite.endpoint).origin);
  [first, second] = (await replicasBehind(proxy, 2)) as [TestServer, TestServer];
  await expectJson(await first.post("/v1/admin/databases", { name: "managed", managed_versioning: true }), 201);
});

after(async () => {
  await second.close();
  await first.close();
  await proxy.close();
});

test("warm reads of a managed-versioning table written through Quiver list nothing on the store, before and after the next write", async () => {
  const db = await lancedb.connect("db://managed", { apiKey: "any", hostOverride: first.url });
  const table = await db.createTable("events", rowsFrom(0, 3));
  await table.add(rowsFrom(10, 2));
  assert.equal(await table.countRows(), 5);
  proxy.reset();
  for (let round = 0; round < 3; round += 1) {
    assert.equal(await table.countRows(), 5);
    assert.deepEqual(await idsOf(table, "id >= 10"), [10, 11]);
  }
  assert.equal(versionListings(proxy), 0, "warm reads look at no listing");
  await table.add(rowsFrom(20, 1));
  assert.deepEqual(await idsOf(table, "id >= 20"), [20], "the write is read at once");
  proxy.reset();
  assert.equal(await table.countRows(), 6);
  assert.equal(versionListings(proxy), 0, "and the reads after it list nothing again");
});

test("a write through one replica of a managed-versioning database is read by the other at its next read, without a listing", async () => {
  const viaFirst = await (await lancedb.connect("db://managed", { apiKey: "any", hostOverride: first.url })).createTable("shared", rowsFrom(0, 2));
  const viaSecond = await (await lancedb.connect("db://managed", { apiKey: "any", hostOverride: second.url })).openTable("shared");
  assert.equal(await viaSecond.countRows(), 2);
  for (let round = 1; round <= 3; round += 1) {
    await viaFirst.add(rowsFrom(round * 10, 2));
    proxy.reset();
    assert.deepEqual(await idsOf(viaSecond, `id >= ${round * 10}`), [round * 10, round * 10 + 1], `round ${round}`);
    assert.equal(versionListings(proxy), 0, "the other replica moves to the catalog's version without listing");
  }
  await viaSecond.delete("id >= 20");
  assert.deepEqual(await idsOf(viaFirst), [0, 1, 10, 11]);
});

test("a database's read-consistency interval: direct commits by a namespace client are read at once by default (16 reads at once sharing their looks), and within the interval once it is set", async () => {
  const server = first;
  const writer = await lancedb.connectNamespace("rest", { uri: server.url });
  const reader = await lancedb.connect("db://default", { apiKey: "any", hostOverride: server.url });
  const written = await writer.createTable("direct", rowsFrom(0, 2));
  const read = await reader.openTable("direct");
  assert.equal(await read.countRows(), 2);
  // Default: every read looks, so a direct commit is read at once, by every read; reads that
  // arrive together share their looks.
  await written.add(rowsFrom(10, 1));
  proxy.reset();
  // Each look waits on a store a region away, so the 16 reads arrive while the first is under way
  // however loaded the machine is.
  proxy.delayMs = 200;
  const together = await Promise.all(Array.from({ length: 16 }, () => read.countRows())).finally(() => (proxy.delayMs = 0));
  assert.deepEqual(together, Array.from({ length: 16 }, () => 3));
  assert.ok(versionListings(proxy) < 8, `16 reads at once made ${versionListings(proxy)} listings`);

  const intervalMs = 1500;
  const setting = await expectJson(await server.post("/v1/admin/databases/default/settings", { read_consistency_interval_ms: intervalMs }));
  assert.equal(setting.read_consistency_interval_ms, intervalMs);
  assert.equal(await read.countRows(), 3);
  const lookedAt = Date.now();
  proxy.reset();
  await written.add(rowsFrom(20, 1));
  const listedByWriter = versionListings(proxy);
  const counts = [await read.countRows(), await read.countRows()];
  if (Date.now() - lookedAt < intervalMs) {
    assert.equal(versionListings(proxy), listedByWriter, "within the interval reads do not look at the store");
    assert.deepEqual(counts, [3, 3], "within the interval reads answer from the kept handle");
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, lookedAt + intervalMs - Date.now()) + 50));
  assert.equal(await read.countRows(), 4, "once the interval has passed, the direct commit is read");

  // Back to the default: the next direct commit is read at once again.
  await expectJson(await server.post("/v1/admin/databases/default/settings", { read_consistency_interval_ms: null }));
  await written.add(rowsFrom(30, 1));
  assert.equal(await read.countRows(), 5);
});

test("UpdateDatabaseSettings refuses an interval out of range with 400, code 13, and an unknown database with 404, code 1", async () => {
  const server = first;
  const refused = await server.post("/v1/admin/databases/default/settings", { read_consistency_interval_ms: -1 });
  assert.equal(refused.status, 400);
  assert.equal(((await refused.json()) as { code: number }).code, 13);
  const missing = await server.post("/v1/admin/databases/nowhere/settings", { read_consistency_interval_ms: 10 });
  assert.equal(missing.status, 404);
  assert.equal(((await missing.json()) as { code: number }).code, 1);
});

test("DropTable then CreateTable of the same name → a new location, and reads show only the new table's rows", async () => {
  const db = await lancedb.connect("db://managed", { apiKey: "any", hostOverride: first.url });
  const location = async () => (await expectJson(await first.post("/v1/table/again/describe", {}, { "x-lancedb-database": "managed" }))).location as string;
  await db.createTable("again", rowsFrom(0, 2));
  const before = await location();
  await db.dropTable("again");
  const recreated = await db.createTable("again", rowsFrom(100, 1));
  assert.notEqual(await location(), before, "a dropped table's location is never given again");
  assert.deepEqual(await idsOf(recreated), [100]);
});
