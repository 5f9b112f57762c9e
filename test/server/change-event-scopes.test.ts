// What a tenant reads of the change-event feed (docs/change-events.md), on a server with two
// databases and `--auth required`: a key of database a pages by a's own event numbers, which
// b's changes never move; what each role sees of an event is what it may read elsewhere: key
// administration for admins only, table locations and kept drops for writers and admins.
import assert from "node:assert/strict";
import { test } from "node:test";
import { arrowStream } from "../helpers/arrow.js";
import { expectError, expectJson } from "../helpers/test-server.js";
import { addDatabase, apiKey, startAuthServer } from "../auth/auth-helpers.js";

interface Event {
  type: string;
  subject: string;
  data: Record<string, unknown>;
}
interface Page {
  events: Event[];
  next: string;
}

const server = await startAuthServer({ dropRetentionMs: 60 * 60 * 1000 });
await addDatabase(server, "a");
await addDatabase(server, "b");
const deploymentAdmin = { "x-api-key": await apiKey(server, null, "admin") };
const aAdmin = { "x-api-key": await apiKey(server, "a", "admin") };
const aWriter = { "x-api-key": await apiKey(server, "a", "write") };
const aReader = { "x-api-key": await apiKey(server, "a", "read") };
const bWriter = { "x-api-key": await apiKey(server, "b", "write") };

test.after(() => server.close());

const page = async (headers: Record<string, string>, after: string, limit = 1000): Promise<Page> =>
  expectJson(await server.get(`/v1/events?after=${encodeURIComponent(after)}&limit=${limit}`, headers));

/** Every event the caller may read, from the oldest kept, and the cursor after them. */
async function everything(headers: Record<string, string>): Promise<Page> {
  const all: Event[] = [];
  let cursor = "";
  for (;;) {
    const read = await page(headers, cursor);
    if (read.events.length === 0) return { events: all, next: read.next };
    all.push(...read.events);
    cursor = read.next;
  }
}

const createTable = (database: Record<string, string>, id: string) =>
  fetch(`${server.url}/v1/table/${id}/create`, { method: "POST", headers: { "content-type": "application/vnd.apache.arrow.stream", ...database }, body: arrowStream({ id: Int32Array.from([1]) }) });

test("GET /v1/events with a key of database a while b changes → a's cursor counts a's events alone, one number each (a:n, a:n+1, …); a deployment-wide admin's stays one number across databases", async () => {
  const start = (await everything(aReader)).next;
  const match = /^a:(\d+)$/.exec(start);
  assert.ok(match, `a's key gets a cursor of database a: ${start}`);
  const first = Number(match[1]);
  const bStart = (await everything(bWriter)).next;
  const adminStart = (await everything(deploymentAdmin)).next;
  assert.match(adminStart, /^\d+$/);

  for (const round of [1, 2, 3]) {
    await expectJson(await server.post(`/v1/namespace/a_${round}/create`, {}, aWriter));
    for (const other of [1, 2]) await expectJson(await server.post(`/v1/namespace/b_${round}_${other}/create`, {}, bWriter));
  }
  const cursors: string[] = [];
  let cursor = start;
  for (let read = 0; read < 3; read += 1) {
    const one = await page(aReader, cursor, 1);
    assert.equal(one.events.length, 1);
    cursor = one.next;
    cursors.push(cursor);
  }
  assert.deepEqual(cursors, [`a:${first + 1}`, `a:${first + 2}`, `a:${first + 3}`], "b's six events between a's three moved nothing");
  assert.deepEqual(await page(aReader, cursor), { events: [], next: cursor });
  assert.equal((await expectJson<Page>(await server.get("/v1/events?tail=1", aReader))).next, cursor, "tail's cursor is a's newest number too");
  assert.equal((await everything(bWriter)).next, `b:${Number(bStart.slice(2)) + 6}`);
  assert.equal((await everything(deploymentAdmin)).next, String(Number(adminStart) + 9), "every database's events, in one sequence");
});

test("GET /v1/events with a cursor a's key was never given → 400 code 13: one number across every database (an admin's, or from before per-database numbers), or past a's newest event", async () => {
  const newest = (await everything(aReader)).next;
  await expectError(await server.get("/v1/events?after=5", aReader), 400, 13);
  await expectError(await server.get(`/v1/events?after=a:${Number(newest.slice(2)) + 1}`, aReader), 400, 13);
  await expectError(await server.get("/v1/events?after=a:1", deploymentAdmin), 400, 13);
  // b's position in a's cursor is passed over: a's key reads a alone.
  assert.deepEqual(await page(aReader, `${newest},b:99`), { events: [], next: newest });
});

test("GET /v1/events by role → a read key sees a's table and namespace events without key events, table locations or kept drops; a writer adds locations; a's admin and a deployment-wide admin see the key events too", async () => {
  const from = { reader: (await everything(aReader)).next, writer: (await everything(aWriter)).next, admin: (await everything(aAdmin)).next, deployment: (await everything(deploymentAdmin)).next };
  await expectJson(await server.post("/v1/namespace/shop/create", {}, aWriter));
  await expectJson(await createTable(aWriter, "shop$orders"));
  const key = await expectJson(await server.post("/v1/admin/databases/a/api-keys", { role: "read", description: "indexer" }, aAdmin), 201);
  await expectJson(await server.post(`/v1/admin/databases/a/api-keys/${key.key_id}/revoke`, {}, aAdmin));
  await expectJson(await server.post("/v1/table/shop$orders/drop", {}, aWriter));

  const typesOf = (events: Event[]) => events.map((event) => event.type.replace(/^io\.quiver\./, ""));
  const tableEvents = ["namespace.created", "table.created", "table.dropped"];
  const everyEvent = ["namespace.created", "table.created", "key.created", "key.revoked", "table.dropped"];
  const read = async (headers: Record<string, string>, after: string) => (await page(headers, after)).events;

  const reader = await read(aReader, from.reader);
  assert.deepEqual(typesOf(reader), tableEvents);
  for (const event of reader) {
    for (const field of ["location", "dropped_id", "purge_at"]) assert.ok(!(field in event.data), `${event.type} shows a reader no ${field}`);
  }
  assert.ok(!JSON.stringify(reader).includes(key.key_id), "nothing names the key");

  const writer = await read(aWriter, from.writer);
  assert.deepEqual(typesOf(writer), tableEvents);
  const [, created, dropped] = writer;
  assert.equal(typeof created?.data.location, "string");
  assert.deepEqual([typeof dropped?.data.location, typeof dropped?.data.dropped_id, typeof dropped?.data.purge_at], ["string", "string", "string"]);

  // Key administration is numbered apart, so the reader's numbers run on with no gap for it.
  assert.equal((await page(aReader, from.reader)).next, `a:${Number(from.reader.slice(2)) + 3}`);
  assert.match((await page(aAdmin, from.admin)).next, /^a:\d+,a\/admin:\d+$/);

  for (const [admin, after] of [[aAdmin, from.admin], [deploymentAdmin, from.deployment]] as const) {
    const seen = await read(admin, after);
    assert.deepEqual(typesOf(seen), everyEvent);
    assert.deepEqual(seen[2]?.data, { database: "a", kind: "api-key", key_id: key.key_id, role: "read", description: "indexer" });
    assert.equal(seen[1]?.data.location, created?.data.location);
  }

  // tail answers alike.
  const tail = await expectJson<Page>(await server.get("/v1/events?tail=3", aReader));
  assert.deepEqual(typesOf(tail.events), tableEvents);
  assert.ok(tail.events.every((event) => !("location" in event.data)));
});

test("GET /v1/events with a deployment-wide read key → every database's events but no key events and no table locations", async () => {
  const deploymentReader = { "x-api-key": await apiKey(server, null, "read") };
  const from = (await everything(deploymentReader)).next;
  await expectJson(await createTable(aWriter, "shop$wide"));
  const key = await expectJson(await server.post("/v1/admin/databases/b/api-keys", { role: "read" }, deploymentAdmin), 201);
  await expectJson(await server.post("/v1/namespace/wide/create", {}, bWriter));
  const seen = (await page(deploymentReader, from)).events;
  assert.deepEqual(seen.map((event) => [event.type, event.subject]), [
    ["io.quiver.table.created", "a/shop$wide"],
    ["io.quiver.namespace.created", "b/wide"],
  ]);
  assert.ok(!("location" in (seen[0]?.data ?? {})));
  assert.ok(!JSON.stringify(seen).includes(key.key_id));
});
