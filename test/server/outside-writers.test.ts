// Who else can commit to a table's store decides whether a strong read looks at it. A namespace
// client given write credentials commits directly and the very next read through Quiver sees it;
// once those credentials have expired, reads answer from the catalog's head and list nothing on the
// store; a database declared to have outside writers always looks; a commit no one recorded is found
// and recorded with its change event; the LanceDB client's freshness headers are honoured. The store
// is Azurite behind a proxy that counts the listings of a table's versions.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { apiKey } from "../auth/auth-helpers.js";
import { type Azurite, azuriteAccount, startAzurite } from "../helpers/azurite.js";
import { type LatencyProxy, startLatencyProxy, versionListings } from "../helpers/latency-proxy.js";
import { type TestServer, expectError, expectJson, startTestServer } from "../helpers/test-server.js";

const rowsFrom = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: from + i, label: `row ${from + i}` }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The periodic check of databases with outside writers lists their tables at any moment, so a
// check of one database's reads counts the listings of its own tables (`versionListings`).

/** Credentials vended for this long, so a test can outlive them. */
const credentialSeconds = 4;

let azurite: Azurite;
let proxy: LatencyProxy;
let server: TestServer;
let admin: Record<string, string>;
let writerKey: string;
let storeOptions: Record<string, string>;

before(async () => {
  azurite = await startAzurite();
  proxy = await startLatencyProxy(new URL(azurite.endpoint).origin);
  storeOptions = { ...azurite.storageOptions, azure_endpoint: `${proxy.origin}/${azuriteAccount}` };
  const data = `az://w${randomUUID().replaceAll("-", "").slice(0, 24)}/data`;
  server = await startTestServer({
    data,
    storageOptions: storeOptions,
    auth: { mode: "required" },
    vending: { mode: "scoped", ttlSeconds: credentialSeconds },
    outsideCommitCheckIntervalMs: 500,
  });
  admin = { "x-api-key": await apiKey(server, null, "admin") };
  writerKey = await apiKey(server, "default", "write");
});

after(async () => {
  await server.close();
  await proxy.close();
  await azurite.stop();
});

interface ChangeEventOnWire {
  type: string;
  subject: string;
  data: Record<string, unknown>;
}

async function newestEvents(count = 50): Promise<ChangeEventOnWire[]> {
  return (await expectJson<{ events: ChangeEventOnWire[] }>(await server.get(`/v1/events?tail=${count}`, admin))).events;
}

/** Waits until an event of table `subject` for `version` is recorded; answers it. */
async function eventOfVersion(subject: string, version: number, withinMs = 15_000): Promise<ChangeEventOnWire> {
  const until = Date.now() + withinMs;
  for (;;) {
    const found = (await newestEvents()).find((event) => event.subject === subject && event.type === "io.quiver.table.version.created" && event.data.version === version);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no event of ${subject} version ${version} within ${withinMs} ms`);
    await sleep(200);
  }
}

async function describedVersion(id: string, database = "default"): Promise<number> {
  return (await expectJson<{ version: number }>(await server.post(`/v1/table/${id}/describe`, {}, { ...admin, "x-lancedb-database": database }))).version;
}

/** Opens table `id` of `database` directly on the store with the account key, as a writer holding its own keys does. */
async function openWithOwnKeys(id: string, database = "default"): Promise<lancedb.Table> {
  const { location } = await expectJson<{ location: string }>(await server.post(`/v1/table/${id}/describe`, { vend_credentials: false }, { ...admin, "x-lancedb-database": database }));
  const slash = location.lastIndexOf("/");
  const direct = await lancedb.connect(location.slice(0, slash), { storageOptions: storeOptions });
  return direct.openTable(location.slice(slash + 1, -".lance".length));
}

test("a namespace client's direct commits with vended write credentials are read at once, recorded with an event naming Lance's operation; once the credentials expire, reads list nothing", async () => {
  const writer = await lancedb.connectNamespace("rest", { uri: server.url, headers: { "x-api-key": writerKey } });
  const reader = await lancedb.connect("db://default", { apiKey: writerKey, hostOverride: server.url });
  const written = await writer.createTable("vended", rowsFrom(0, 2));
  const read = await reader.openTable("vended");
  assert.equal(await read.countRows(), 2);
  // The managed-deployment client is vended nothing (below); the same key asking plainly, without
  // its trailing slash, is. Checked before other databases share the container, which stops vending.
  const described = await expectJson<{ storage_options: Record<string, string> }>(await server.post("/v1/table/vended/describe", {}, { "x-api-key": writerKey }));
  assert.ok(described.storage_options.azure_storage_sas_token);
  // The table's first version was committed by the client: it is found and recorded.
  await eventOfVersion("default/vended", 1);
  for (let round = 1; round <= 2; round += 1) {
    await written.add(rowsFrom(round * 10, 2));
    assert.equal(await read.countRows(), 2 + round * 2, `the direct commit of round ${round} is read by the very next read`);
    const event = await eventOfVersion("default/vended", 1 + round);
    assert.equal(event.data.operation, "ExternalCommit");
    assert.equal(event.data.lance_operation, "Append");
  }
  assert.equal(await describedVersion("vended"), 3, "the head was raised to what the client committed");

  // The client's credentials run out and it asks for no new ones: nothing can commit around Quiver.
  await sleep(credentialSeconds * 1000 + 500);
  // A periodic check or a look begun before they ran out may still be listing on a loaded machine:
  // within a few seconds, a run of reads lists nothing.
  const deadline = Date.now() + 15_000;
  let listed: number;
  do {
    proxy.reset();
    for (let i = 0; i < 5; i += 1) assert.equal(await read.countRows(), 6);
    assert.deepEqual((await read.query().where("id >= 20").toArray()).map((row) => Number(row.id)).sort((a, b) => a - b), [20, 21]);
    listed = versionListings(proxy);
  } while (listed > 0 && Date.now() < deadline);
  assert.equal(listed, 0, "reads after the credentials expired look at no listing");
});

test("a database declared to have outside writers looks at the store on every read and reads a commit made with the account key at once; a database without lists nothing on warm reads", async () => {
  await expectJson(await server.post("/v1/admin/databases", { name: "ownkeys", outside_writers: true }, admin), 201);
  await expectJson(await server.post("/v1/admin/databases", { name: "quiet" }, admin), 201);
  const described = await expectJson<{ outside_writers: boolean }>(await server.get("/v1/admin/databases", admin)).then((answer) => answer);
  assert.ok(JSON.stringify(described).includes('"outside_writers":true'));
  const ownKeys = await (await lancedb.connect("db://ownkeys", { apiKey: admin["x-api-key"] as string, hostOverride: server.url })).createTable("events", rowsFrom(0, 2));
  const quiet = await (await lancedb.connect("db://quiet", { apiKey: admin["x-api-key"] as string, hostOverride: server.url })).createTable("events", rowsFrom(0, 2));
  await ownKeys.add(rowsFrom(10, 1));
  await quiet.add(rowsFrom(10, 1));
  assert.equal(await quiet.countRows(), 3);
  assert.equal(await ownKeys.countRows(), 3);

  proxy.reset();
  for (let i = 0; i < 3; i += 1) assert.equal(await quiet.countRows(), 3);
  assert.equal(versionListings(proxy, "quiet"), 0, "no one else can write the quiet database's table: its reads list nothing");

  proxy.reset();
  for (let i = 0; i < 3; i += 1) assert.equal(await ownKeys.countRows(), 3);
  const looks = versionListings(proxy, "ownkeys");
  assert.ok(looks >= 3, `every read of the outside writers' database looks (${looks} listings)`);
  const direct = await openWithOwnKeys("events", "ownkeys");
  await direct.add(rowsFrom(20, 2));
  assert.equal(await ownKeys.countRows(), 5, "a commit made with the account key is read at once");

  // Turned off, the same database's reads trust the head again.
  const changed = await expectJson<{ outside_writers: boolean }>(await server.post("/v1/admin/databases/ownkeys/settings", { outside_writers: false }, admin));
  assert.equal(changed.outside_writers, false);
  await eventOfVersion("ownkeys/events", 3);
  proxy.reset();
  assert.equal(await ownKeys.countRows(), 5);
  assert.equal(versionListings(proxy, "ownkeys"), 0);
});

test("a commit no one recorded (made with the account key, no read after it) is found by the periodic check and recorded: raised head, and its change event with Lance's operation", async () => {
  await expectJson(await server.post("/v1/admin/databases", { name: "unrecorded", outside_writers: true }, admin), 201);
  const table = await (await lancedb.connect("db://unrecorded", { apiKey: admin["x-api-key"] as string, hostOverride: server.url })).createTable("orders", rowsFrom(0, 3));
  const direct = await openWithOwnKeys("orders", "unrecorded");
  await direct.delete("id = 0");
  const event = await eventOfVersion("unrecorded/orders", 2);
  assert.equal(event.data.operation, "ExternalCommit");
  assert.equal(event.data.lance_operation, "Delete");
  assert.equal(event.data.detail, "id = 0");
  assert.equal((await newestEvents()).filter((e) => e.subject === "unrecorded/orders" && e.data.version === 2).length, 1, "one event per version");
  // The head the check raised is what every replica's reads now trust.
  await expectJson(await server.post("/v1/admin/databases/unrecorded/settings", { outside_writers: false }, admin));
  proxy.reset();
  assert.equal(await table.countRows(), 2);
  assert.equal(versionListings(proxy, "unrecorded"), 0);
});

test("the freshness headers: x-lancedb-version names the version a count or query read; x-lancedb-min-version or min-read-version past the head looks at the store and reads it, past the store → 404, code 11; x-lancedb-min-timestamp looks within an interval", async () => {
  await expectJson(await server.post("/v1/admin/databases", { name: "hinted", outside_writers: true, read_consistency_interval_ms: 600_000 }, admin), 201);
  const headers = { ...admin, "x-lancedb-database": "hinted" };
  const table = await (await lancedb.connect("db://hinted", { apiKey: admin["x-api-key"] as string, hostOverride: server.url })).createTable("hints", rowsFrom(0, 2));
  const count = async (extra: Record<string, string> = {}) => {
    const answer = await server.post("/v1/table/hints/count_rows", {}, { ...headers, ...extra });
    assert.equal(answer.status, 200, await answer.clone().text());
    return { rows: Number(await answer.text()), version: answer.headers.get("x-lancedb-version") };
  };
  assert.deepEqual(await count(), { rows: 2, version: "1" });
  const direct = await openWithOwnKeys("hints", "hinted");
  await direct.add(rowsFrom(10, 1));
  assert.deepEqual(await count(), { rows: 2, version: "1" }, "within the interval the direct commit is not looked for");
  assert.deepEqual(await count({ "x-lancedb-min-version": "2" }), { rows: 3, version: "2" }, "a version asked for past the kept one is looked for");
  await direct.add(rowsFrom(20, 1));
  assert.deepEqual(await count({ "x-lancedb-min-read-version": "3" }), { rows: 4, version: "3" });
  await direct.add(rowsFrom(30, 1));
  assert.deepEqual(await count({ "x-lancedb-min-timestamp": new Date().toISOString() }), { rows: 5, version: "4" }, "a look older than the timestamp is not trusted");
  const query = await server.post("/v1/table/hints/query", { k: 10, vector: [], columns: ["id"] }, { ...headers, "x-lancedb-min-version": "4" });
  assert.equal(query.status, 200);
  assert.equal(query.headers.get("x-lancedb-version"), "4");
  await expectError(await server.post("/v1/table/hints/count_rows", {}, { ...headers, "x-lancedb-min-version": "9" }), 404, 11);
  await expectError(await server.post("/v1/table/hints/describe", {}, { ...headers, "x-lancedb-min-read-version": "9" }), 404, 11);
  assert.equal(await table.countRows(), 5);
});

test("CreateTable by the LanceDB client in managed-deployment mode answers no credentials (it never opens the store itself), so its table's warm reads list nothing", async () => {
  const db = await lancedb.connect("db://default", { apiKey: writerKey, hostOverride: server.url });
  const table = await db.createTable("managed_client", rowsFrom(0, 2));
  await table.add(rowsFrom(10, 1));
  assert.equal(await table.countRows(), 3);
  proxy.reset();
  for (let i = 0; i < 3; i += 1) assert.equal(await table.countRows(), 3);
  assert.equal(versionListings(proxy, "default"), 0);
});
