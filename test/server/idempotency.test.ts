// Idempotency-Key over real sockets, on the store under test: a retry with the key answers the
// first answer again and has no second effect, on any replica; misuse and races are refused with
// the spec's codes.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { arrowStream } from "../helpers/arrow.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { type TestServer, expectError, expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";
import { apiKey, startAuthServer } from "../auth/auth-helpers.js";

const arrowType = "application/vnd.apache.arrow.stream";

function post(url: string, route: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url + route, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

function upload(url: string, route: string, bytes: Uint8Array, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url + route, { method: "POST", headers: { "content-type": arrowType, ...headers }, body: bytes });
}

async function answerOf(response: Response): Promise<{ status: number; type: string | null; body: string }> {
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
}

async function tablesOf(url: string, namespace: string): Promise<string[]> {
  return (await expectJson<{ tables: string[] }>(await fetch(`${url}/v1/namespace/${namespace}/table/list`))).tables;
}

async function rowCount(url: string, table: string): Promise<number> {
  return expectJson<number>(await post(url, `/v1/table/${table}/count_rows`, {}));
}

let server: TestServer;

before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test("CreateNamespace and CreateTable retried with one Idempotency-Key → one namespace, one table, the first answer again", async () => {
  const namespace = await answerOf(await post(server.url, "/v1/namespace/retried/create", {}, { "idempotency-key": "ns-1" }));
  assert.equal(namespace.status, 200, namespace.body);
  assert.deepEqual(await answerOf(await post(server.url, "/v1/namespace/retried/create", {}, { "idempotency-key": "ns-1" })), namespace);

  const bytes = arrowStream({ id: Int32Array.from([1, 2, 3]) });
  const first = await answerOf(await upload(server.url, "/v1/table/retried$t/create", bytes, { "idempotency-key": "create-t" }));
  assert.equal(first.status, 200, first.body);
  const again = await upload(server.url, "/v1/table/retried$t/create", bytes, { "idempotency-key": "create-t" });
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  assert.deepEqual(await answerOf(again), first);
  assert.deepEqual(await tablesOf(server.url, "retried"), ["t"]);
  assert.equal(await rowCount(server.url, "retried$t"), 3);
});

test("InsertIntoTable with an Arrow body retried with one Idempotency-Key → rows added once, the same answer", async () => {
  await expectJson(await post(server.url, "/v1/namespace/ins/create", {}));
  await expectJson(await upload(server.url, "/v1/table/ins$t/create", arrowStream({ id: Int32Array.from([1]) })));
  const rows = arrowStream({ id: Int32Array.from([2, 3, 4]) });
  const first = await answerOf(await upload(server.url, "/v1/table/ins$t/insert", rows, { "idempotency-key": "insert-1" }));
  assert.equal(first.status, 200, first.body);
  assert.deepEqual(await answerOf(await upload(server.url, "/v1/table/ins$t/insert", rows, { "idempotency-key": "insert-1" })), first);
  assert.equal(await rowCount(server.url, "ins$t"), 4);
});

test("An Idempotency-Key reused with another body → 422, code 13, and nothing runs", async () => {
  await expectJson(await post(server.url, "/v1/namespace/other/create", {}, { "idempotency-key": "reused" }));
  const refused = await post(server.url, "/v1/namespace/other/create", { properties: { team: "ml" } }, { "idempotency-key": "reused" });
  await expectError(refused, 422, 13);
  const described = await expectJson<{ properties?: Record<string, string> }>(await post(server.url, "/v1/namespace/other/describe", {}));
  assert.equal(described.properties?.team, undefined);

  await expectJson(await post(server.url, "/v1/namespace/arrow/create", {}));
  await expectJson(await upload(server.url, "/v1/table/arrow$t/create", arrowStream({ id: Int32Array.from([1]) }), { "idempotency-key": "arrow-reused" }));
  await expectError(await upload(server.url, "/v1/table/arrow$t/create", arrowStream({ id: Int32Array.from([9]) }), { "idempotency-key": "arrow-reused" }), 422, 13);
});

test("Concurrent requests with one Idempotency-Key → one 200 and one 409 code 14, one effect", async () => {
  await expectJson(await post(server.url, "/v1/namespace/race/create", {}));
  await expectJson(await upload(server.url, "/v1/table/race$t/create", arrowStream({ id: Int32Array.from([0]) })));
  const bytes = arrowStream({ id: Int32Array.from([1, 2, 3, 4, 5]) });
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  // The first request sends half its body, then waits: it is in flight while the second comes.
  const slowBody = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(bytes.subarray(0, 8));
      await finished;
      controller.enqueue(bytes.subarray(8));
      controller.close();
    },
  });
  const first = fetch(`${server.url}/v1/table/race$t/insert`, { method: "POST", headers: { "content-type": arrowType, "idempotency-key": "race" }, body: slowBody, duplex: "half" } as RequestInit);
  await sleep(300);
  try {
    // Bounded: without the claim the second insert would wait on the first one's table.
    const second = await fetch(`${server.url}/v1/table/race$t/insert`, { method: "POST", headers: { "content-type": arrowType, "idempotency-key": "race" }, body: bytes, signal: AbortSignal.timeout(5_000) });
    await expectError(second, 409, 14);
  } finally {
    finish();
  }
  await expectJson(await first);
  assert.equal(await rowCount(server.url, "race$t"), 6);
});

test("A 4xx answer is kept for its key: a retried CreateNamespace of a taken name → the same 409 code 2", async () => {
  await expectJson(await post(server.url, "/v1/namespace/taken/create", {}));
  const first = await answerOf(await post(server.url, "/v1/namespace/taken/create", {}, { "idempotency-key": "taken" }));
  assert.equal(first.status, 409);
  assert.equal(JSON.parse(first.body).code, 2);
  await expectJson(await post(server.url, "/v1/namespace/taken/drop", {}));
  assert.deepEqual(await answerOf(await post(server.url, "/v1/namespace/taken/create", {}, { "idempotency-key": "taken" })), first);
});

test("Reads ignore Idempotency-Key: ListNamespaces with one key twice → the second sees the change between", async () => {
  const before = await expectJson<{ namespaces: string[] }>(await fetch(`${server.url}/v1/namespace/list`, { headers: { "idempotency-key": "read" } }));
  await expectJson(await post(server.url, "/v1/namespace/seen/create", {}));
  const after = await expectJson<{ namespaces: string[] }>(await fetch(`${server.url}/v1/namespace/list`, { headers: { "idempotency-key": "read" } }));
  assert.ok(!before.namespaces.includes("seen"));
  assert.ok(after.namespaces.includes("seen"));
});

test("An Idempotency-Key longer than 255 characters → 400, code 13, and nothing runs", async () => {
  await expectError(await post(server.url, "/v1/namespace/long/create", {}, { "idempotency-key": "k".repeat(256) }), 400, 13);
  await expectError(await post(server.url, "/v1/namespace/long/describe", {}), 404, 1);
  await expectJson(await post(server.url, "/v1/namespace/long/create", {}, { "idempotency-key": "k".repeat(255) }));
});

test("An Idempotency-Key past --idempotency-ttl → the request runs again", async () => {
  const short = await startTestServer({ idempotencyTtlMs: 500 });
  try {
    await expectJson(await post(short.url, "/v1/namespace/ttl/create", {}, { "idempotency-key": "ttl" }));
    await expectJson(await post(short.url, "/v1/namespace/ttl/create", {}, { "idempotency-key": "ttl" }));
    await sleep(700);
    await expectError(await post(short.url, "/v1/namespace/ttl/create", {}, { "idempotency-key": "ttl" }), 409, 2);
  } finally {
    await short.close();
  }
});

test("Two principals with one Idempotency-Key (--auth required) → each request runs for its own principal", async () => {
  const guarded = await startAuthServer();
  try {
    const alice = await apiKey(guarded, "default", "admin");
    const bob = await apiKey(guarded, "default", "admin");
    await expectJson(await post(guarded.url, "/v1/namespace/shared/create", {}, { "x-api-key": alice, "idempotency-key": "same" }));
    await expectError(await post(guarded.url, "/v1/namespace/shared/create", {}, { "x-api-key": bob, "idempotency-key": "same" }), 409, 2);
    await expectJson(await post(guarded.url, "/v1/namespace/shared/create", {}, { "x-api-key": alice, "idempotency-key": "same" }));
  } finally {
    await guarded.close();
  }
});

test("A retry on another replica (two servers on one PostgreSQL) → the stored answer, one table", async () => {
  const store = await freshPostgresDatabase();
  const data = tempRoot("quiver-shared-data-");
  const a = await startTestServer({ store, data });
  const b = await startTestServer({ store, data });
  try {
    await expectJson(await post(a.url, "/v1/namespace/rep/create", {}));
    const bytes = arrowStream({ id: Int32Array.from([1, 2]) });
    const first = await answerOf(await upload(a.url, "/v1/table/rep$t/create", bytes, { "idempotency-key": "replica" }));
    assert.equal(first.status, 200, first.body);
    assert.deepEqual(await answerOf(await upload(b.url, "/v1/table/rep$t/create", bytes, { "idempotency-key": "replica" })), first);
    assert.deepEqual(await tablesOf(b.url, "rep"), ["t"]);
    assert.equal(await rowCount(b.url, "rep$t"), 2);
  } finally {
    await a.close();
    await b.close();
    rmSync(data, { recursive: true, force: true });
  }
});

test("A claim whose server died mid-request (its lease ran out) → the retry runs; one still leased → 409 code 14", async () => {
  const now = Date.now();
  const claim = (key: string, leaseUntil: number) => ({
    database: "default",
    principal: "anonymous",
    key,
    owner: "a process that died",
    fingerprint: "",
    lease_until: leaseUntil,
    status: null,
    content_type: null,
    body: null,
    created_at: now - 60_000,
    expires_at: now + 60_000,
  });
  // Claims as a server that took them and then died leaves them in the shared store.
  assert.ok(await server.runtime.store.rows.claimIdempotencyKey(claim("lapsed", now - 1), now));
  assert.ok(await server.runtime.store.rows.claimIdempotencyKey(claim("leased", now + 60_000), now));
  await expectError(await post(server.url, "/v1/namespace/leased/create", {}, { "idempotency-key": "leased" }), 409, 14);
  await expectJson(await post(server.url, "/v1/namespace/lapsed/create", {}, { "idempotency-key": "lapsed" }));
  await expectJson(await post(server.url, "/v1/namespace/lapsed/create", {}, { "idempotency-key": "lapsed" }));
});

/** The principal an API key `qk_<id>_<secret>` authenticates as. */
function principalOfKey(key: string): string {
  return `api-key:${key.split("_")[1]}`;
}

test("CreateApiKey retried with one Idempotency-Key → one key; the retry answers 409 code 14 naming it, the kept answer holds no secret; another body → 422 code 13", async () => {
  const guarded = await startAuthServer();
  try {
    const admin = await apiKey(guarded, "default", "admin");
    const route = "/v1/admin/databases/default/api-keys";
    const headers = { "x-api-key": admin, "idempotency-key": "new-key" };
    const created = await expectJson<{ key_id: string; api_key: string }>(await post(guarded.url, route, { role: "read", description: "nightly export" }, headers), 201);
    for (let retry = 0; retry < 2; retry += 1) {
      const replayed = await expectError(await post(guarded.url, route, { role: "read", description: "nightly export" }, headers), 409, 14);
      assert.match(replayed.error, new RegExp(`'${created.key_id}'.*shown only`));
      assert.ok(!JSON.stringify(replayed).includes(created.api_key));
    }
    await expectError(await post(guarded.url, route, { role: "write", description: "nightly export" }, headers), 422, 13);

    const listed = await expectJson<{ api_keys: { key_id: string; description: string }[] }>(await fetch(guarded.url + route, { headers: { "x-api-key": admin } }));
    assert.deepEqual(listed.api_keys.filter((key) => key.description === "nightly export").map((key) => key.key_id), [created.key_id]);
    await expectJson(await fetch(`${guarded.url}/v1/namespace/list`, { headers: { "x-api-key": created.api_key } }));

    const kept = await guarded.runtime.store.rows.findIdempotencyKey({ database: "default", principal: principalOfKey(admin), key: "new-key" });
    assert.equal(kept?.status, 201);
    const keptBody = Buffer.from(kept?.body ?? "", "base64").toString();
    assert.equal(JSON.parse(keptBody).key_id, created.key_id);
    // The secret follows `qk_<16 hex digits>_` and may itself hold underscores.
    const secret = created.api_key.slice("qk_".length + 16 + 1);
    assert.equal(secret.length, 43);
    assert.ok(!keptBody.includes(secret), "the kept answer holds no part of the secret");
  } finally {
    await guarded.close();
  }
});

test("CreateOAuthClient and CreateDeploymentApiKey retried with one Idempotency-Key → one of each; each retry answers 409 code 14", async () => {
  const guarded = await startAuthServer();
  try {
    const admin = await apiKey(guarded, null, "admin");
    const headers = { "x-api-key": admin, "idempotency-key": "once" };
    const clients = "/v1/admin/databases/default/oauth-clients";
    const client = await expectJson<{ client_id: string }>(await post(guarded.url, clients, { role: "read" }, headers), 201);
    assert.match((await expectError(await post(guarded.url, clients, { role: "read" }, headers), 409, 14)).error, new RegExp(`'${client.client_id}'`));
    const listedClients = await expectJson<{ clients: unknown[] }>(await fetch(guarded.url + clients, { headers: { "x-api-key": admin } }));
    assert.equal(listedClients.clients.length, 1);

    const keys = "/v1/admin/api-keys";
    const other = { "x-api-key": admin, "idempotency-key": "deployment-key" };
    await expectJson(await post(guarded.url, keys, { role: "read" }, other), 201);
    await expectError(await post(guarded.url, keys, { role: "read" }, other), 409, 14);
    const listedKeys = await expectJson<{ api_keys: unknown[] }>(await fetch(guarded.url + keys, { headers: { "x-api-key": admin } }));
    assert.equal(listedKeys.api_keys.length, 2, "the admin's key and one new key");
  } finally {
    await guarded.close();
  }
});

test("CreateDatabase retried with one Idempotency-Key → one database, the first 201 answer again", async () => {
  const guarded = await startAuthServer();
  try {
    const admin = await apiKey(guarded, null, "admin");
    const headers = { "x-api-key": admin, "idempotency-key": "new-db" };
    const first = await answerOf(await post(guarded.url, "/v1/admin/databases", { name: "tenant" }, headers));
    assert.equal(first.status, 201, first.body);
    const again = await post(guarded.url, "/v1/admin/databases", { name: "tenant" }, headers);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(await answerOf(again), first);
  } finally {
    await guarded.close();
  }
});
