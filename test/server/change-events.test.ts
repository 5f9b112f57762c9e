// Change events (docs/change-events.md): every committed change becomes one CloudEvent in the
// outbox, read back in commit order from GET /v1/events; a refused or rolled-back change writes
// none; a database's key reads only its database's events, an admin every one; a long poll
// answers as soon as an event commits.
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { purgeChangeEvents } from "../../src/catalog/events/event-retention.js";
import { Field, Int32, Schema } from "apache-arrow-21";
import { arrowStream } from "../helpers/arrow.js";
import { schemaBase64, waitForJob } from "../helpers/views.js";
import { expectError, expectJson } from "../helpers/test-server.js";
import { addDatabase, apiKey, startAuthServer } from "../auth/auth-helpers.js";

interface Event {
  specversion: string;
  id: string;
  source: string;
  type: string;
  subject: string;
  time: string;
  data: Record<string, any>;
}

const server = await startAuthServer({ dropRetentionMs: 60 * 60 * 1000 });
const admin = { "x-api-key": await apiKey(server, null, "admin") };
await addDatabase(server, "other");
const otherWriter = { "x-api-key": await apiKey(server, "other", "write") };
const defaultReader = { "x-api-key": await apiKey(server, "default", "read") };

test.after(() => server.close());

const post = (route: string, body: unknown = {}, headers = admin) => server.post(route, body, headers);
const upload = (route: string, columns: Parameters<typeof arrowStream>[0], headers = admin) =>
  fetch(server.url + route, { method: "POST", headers: { "content-type": "application/vnd.apache.arrow.stream", ...headers }, body: arrowStream(columns) });

async function events(after: string, headers = admin, query = ""): Promise<{ events: Event[]; next: string }> {
  return expectJson(await server.get(`/v1/events?after=${after}&limit=1000${query}`, headers));
}

/** The cursor after every event so far. */
async function now(headers = admin): Promise<string> {
  let cursor = "";
  for (;;) {
    const page = await events(cursor, headers);
    if (page.events.length === 0) return page.next;
    cursor = page.next;
  }
}

test("every kind of committed change writes one CloudEvent with its type, subject and data → GET /v1/events answers them in commit order", async () => {
  const start = await now();
  await expectJson(await post("/v1/admin/databases", { name: "scratch" }), 201);
  await expectJson(await post("/v1/namespace/shop/create"));
  await expectJson(await upload("/v1/table/shop$orders/create", { id: Int32Array.from([1, 2]) }));
  const inserted = await expectJson(await upload("/v1/table/shop$orders/insert", { id: Int32Array.from([3, 4, 5]) }));
  const merged = await expectJson(await upload("/v1/table/shop$orders/merge_insert?on=id&when_matched_update_all=true&when_not_matched_insert_all=true", { id: Int32Array.from([5, 6]) }));
  await expectJson(await post("/v1/table/shop$orders/update", { updates: [["id", "id + 100"]], predicate: "id = 1" }));
  await expectJson(await post("/v1/table/shop$orders/delete", { predicate: "id = 2" }));
  await expectJson(await post("/v1/table/shop$orders/add_columns", { new_columns: [{ name: "twice", expression: "id * 2" }] }));
  await expectJson(await post("/v1/table/shop$orders/create_scalar_index", { column: "id", index_type: "BTREE" }));
  await expectJson(await post("/v1/table/shop$orders/tags/create", { tag: "first", version: 1 }));
  await expectJson(await post("/v1/table/shop$orders/branches/create", { name: "dev" }));
  await expectJson(await post("/v1/table/shop$orders/restore", { version: 1 }));
  await expectJson(await post("/v1/table/shop$orders/rename", { new_table_name: "sales" }));
  const deregistered = await expectJson(await post("/v1/table/shop$sales/deregister"));
  await expectJson(await post("/v1/table/shop$sales/register", { location: deregistered.location }));
  await expectJson(await post("/v1/table/shop$sales/drop"));
  await expectJson(await post("/v1/table/shop$sales/undrop"));
  await expectJson(await post("/v1/namespace/shop/drop", { behavior: "Cascade" }));
  const key = await expectJson(await post("/v1/admin/databases/scratch/api-keys", { role: "read" }), 201);
  await expectJson(await post(`/v1/admin/databases/scratch/api-keys/${key.key_id}/revoke`));
  await expectJson(await post("/v1/admin/databases/scratch/drop"));

  const page = await events(start);
  const table = "default/shop$orders";
  const renamed = "default/shop$sales";
  assert.deepEqual(
    page.events.map((event) => [event.type.replace(/^io\.quiver\./, ""), event.subject]),
    [
      ["database.created", "scratch"],
      ["namespace.created", "default/shop"],
      ["table.created", table],
      ["table.version.created", table],
      ["table.version.created", table],
      ["table.version.created", table],
      ["table.version.created", table],
      ["table.schema.changed", table],
      ["table.index.created", table],
      ["table.tag.created", table],
      ["table.branch.created", table],
      ["table.restored", table],
      ["table.renamed", renamed],
      ["table.deregistered", renamed],
      ["table.registered", renamed],
      ["table.dropped", renamed],
      ["table.undropped", renamed],
      ["table.dropped", renamed],
      ["namespace.dropped", "default/shop"],
      ["key.created", `scratch/api-key/${key.key_id}`],
      ["key.revoked", `scratch/api-key/${key.key_id}`],
      ["database.dropped", "scratch"],
    ],
  );
  for (const event of page.events) {
    assert.equal(event.specversion, "1.0");
    assert.match(event.id, /^[0-9a-f-]{36}$/);
    assert.ok(event.source.startsWith("/quiver"), event.source);
    assert.ok(!Number.isNaN(Date.parse(event.time)));
  }
  assert.equal(new Set(page.events.map((event) => event.id)).size, page.events.length, "every event has its own id");
  const [, , created, insert, merge, update, remove, schema, index, tag, branch, restored, rename] = page.events as Event[];
  assert.deepEqual(created?.data.id, ["shop", "orders"]);
  assert.deepEqual(insert?.data, { database: "default", id: ["shop", "orders"], operation: "InsertIntoTable", version: inserted.version, mode: "append", num_inserted_rows: 3, transaction_id: inserted.transaction_id });
  assert.deepEqual([merge?.data.operation, merge?.data.version, merge?.data.num_inserted_rows, merge?.data.num_updated_rows], ["MergeInsertIntoTable", merged.version, 1, 1]);
  assert.deepEqual([update?.data.operation, update?.data.num_updated_rows], ["UpdateTable", 1]);
  assert.deepEqual([remove?.data.operation, remove?.data.num_deleted_rows], ["DeleteFromTable", 1]);
  assert.deepEqual(schema?.data.added, ["twice"]);
  assert.equal(index?.data.index_name, "id_idx");
  assert.deepEqual([tag?.data.tag, branch?.data.branch], ["first", "dev"]);
  assert.equal(restored?.data.operation, "RestoreTable");
  assert.deepEqual(rename?.data.from, ["shop", "orders"]);
  assert.equal(page.next, String(Number(start) + page.events.length));
});

test("CreateMaterializedView and its refresh job → view.created, then view.refreshed once the job commits, with its job and rows written", async () => {
  await expectJson(await post("/v1/namespace/views/create"));
  await expectJson(await upload("/v1/table/views$source/create", { id: Int32Array.from([1, 2, 3]) }));
  const start = await now();
  const sourceQuery = JSON.stringify({ source: ["views", "source"], projections: [["id", "id"]], filter: "id > 1" });
  const outputSchema = schemaBase64(new Schema([new Field("id", new Int32())]));
  await expectJson(await post("/v1/materialized_view/views$big/create", { kind: "query", source_query: sourceQuery, output_schema: outputSchema }), 201);
  const { job_id } = await expectJson(await post("/v1/materialized_view/views$big/refresh"), 202);
  assert.equal((await waitForJob({ get: (route) => server.get(route, admin) }, job_id)).status, "succeeded");
  const page = await events(start);
  assert.deepEqual(page.events.map((event) => [event.type, event.subject]), [
    ["io.quiver.view.created", "default/views$big"],
    ["io.quiver.view.refreshed", "default/views$big"],
  ]);
  assert.deepEqual([page.events[1]?.data.job_id, page.events[1]?.data.rows_written], [job_id, 2]);
});

test("a refused or rolled-back change writes no event: insert of another schema → 400 code 20, rename onto a taken name → 409 code 5, insert into a missing table → 404 code 4", async () => {
  await expectJson(await post("/v1/namespace/refused/create"));
  await expectJson(await upload("/v1/table/refused$a/create", { id: Int32Array.from([1]) }));
  await expectJson(await upload("/v1/table/refused$b/create", { id: Int32Array.from([1]) }));
  const start = await now();
  await expectError(await upload("/v1/table/refused$a/insert", { other: Float64Array.from([1]) }), 400, 20);
  await expectError(await post("/v1/table/refused$a/rename", { new_table_name: "b" }), 409, 5);
  await expectError(await upload("/v1/table/refused$missing/insert", { id: Int32Array.from([1]) }), 404, 4);
  assert.deepEqual((await events(start)).events, []);
  await expectJson(await upload("/v1/table/refused$a/insert", { id: Int32Array.from([2]) }));
  assert.deepEqual((await events(start)).events.map((event) => event.type), ["io.quiver.table.version.created"], "the next committed write is the next event");
});

test("writes interleaved on two tables → each table's events come in its commit order, versions rising", async () => {
  await expectJson(await post("/v1/namespace/order/create"));
  const names = ["left", "right"];
  for (const name of names) await expectJson(await upload(`/v1/table/order$${name}/create`, { id: Int32Array.from([0]) }));
  const start = await now();
  await Promise.all(
    names.map(async (name) => {
      for (let i = 1; i <= 4; i += 1) await expectJson(await upload(`/v1/table/order$${name}/insert`, { id: Int32Array.from([i]) }));
    }),
  );
  const page = await events(start);
  for (const name of names) {
    const versions = page.events.filter((event) => event.subject === `default/order$${name}`).map((event) => event.data.version);
    assert.deepEqual(versions, [2, 3, 4, 5]);
  }
});

test("GET /v1/events is scoped: a database's key reads only its database's events, an admin reads every database's; a bad cursor → 400 code 13", async () => {
  const [start, readerStart, otherStart] = await Promise.all([now(), now(defaultReader), now(otherWriter)]);
  await expectJson(await post("/v1/namespace/mine/create"));
  await expectJson(await post("/v1/namespace/theirs/create", {}, otherWriter));
  const seenByAdmin = (await events(start)).events.map((event) => event.subject);
  assert.deepEqual(seenByAdmin, ["default/mine", "other/theirs"]);
  const seenByReader = (await events(readerStart, defaultReader)).events.map((event) => event.subject);
  assert.deepEqual(seenByReader, ["default/mine"]);
  const seenByOther = (await events(otherStart, otherWriter)).events.map((event) => event.subject);
  assert.deepEqual(seenByOther, ["other/theirs"]);
  await expectError(await server.get("/v1/events?after=yesterday", admin), 400, 13);
  await expectError(await server.get("/v1/events"), 401, 16);
});

test("GET /v1/events?tail=N → the caller's newest N events in commit order and a cursor after them; with after, limit or wait → 400 code 13", async () => {
  await expectJson(await post("/v1/namespace/tail_a/create"));
  await expectJson(await post("/v1/namespace/tail_b/create", {}, otherWriter));
  await expectJson(await post("/v1/namespace/tail_c/create"));
  await expectJson(await post("/v1/namespace/tail_d/create"));
  const newest = await expectJson(await server.get("/v1/events?tail=2", admin));
  assert.deepEqual(newest.events.map((event: Event) => event.subject), ["default/tail_c", "default/tail_d"]);
  assert.equal(newest.next, await now());
  // A database's key: its own newest, the other database's event passed over.
  const mine = await expectJson(await server.get("/v1/events?tail=3", defaultReader));
  assert.deepEqual(mine.events.map((event: Event) => event.subject), ["default/tail_a", "default/tail_c", "default/tail_d"]);
  // Reading on from the cursor answers what commits later.
  await expectJson(await post("/v1/namespace/tail_e/create"));
  assert.deepEqual((await events(newest.next)).events.map((event) => event.subject), ["default/tail_e"]);
  for (const query of ["tail=2&after=1", "tail=2&limit=5", "tail=2&wait=1", "tail=0", "tail=1001"]) {
    await expectError(await server.get(`/v1/events?${query}`, admin), 400, 13);
  }
});

test("GET /v1/events with wait → the long poll answers as soon as an event commits, and after the wait with none", async () => {
  const start = await now(defaultReader);
  const began = Date.now();
  const polled = server.get(`/v1/events?after=${start}&wait=20`, defaultReader);
  setTimeout(() => void post("/v1/namespace/awaited/create"), 300);
  const page = await expectJson<{ events: Event[]; next: string }>(await polled);
  const took = Date.now() - began;
  assert.deepEqual(page.events.map((event) => event.subject), ["default/awaited"]);
  assert.ok(took >= 250 && took < 5000, `answered ${took} ms after the poll began`);

  const quiet = Date.now();
  const empty = await events(page.next, defaultReader, "&wait=1");
  assert.deepEqual(empty, { events: [], next: page.next });
  assert.ok(Date.now() - quiet >= 900, "waited its second");
});

test("events older than the retention are purged → GET /v1/events reads on from the oldest kept, even after a purged cursor", async () => {
  const before = await now();
  await expectJson(await post("/v1/namespace/old/create"));
  await sleep(20);
  const cutoff = Date.now();
  await expectJson(await post("/v1/namespace/recent/create"));
  const purged = await purgeChangeEvents(server.runtime.store, 1000, cutoff + 1000);
  assert.ok(purged !== undefined && purged > 0, "the purge ran and deleted events");
  assert.deepEqual((await events("")).events.map((event) => event.subject), ["default/recent"]);
  assert.deepEqual((await events(before)).events.map((event) => event.subject), ["default/recent"]);
});
