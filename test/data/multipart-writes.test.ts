// Multipart writes as the real LanceDB client sends them (connect "db://..." with hostOverride):
// a large add is cut into parts by LANCE_CLIENT_MAX_BYTES_PER_REQUEST and spread over write
// partitions (LANCE_CPU_THREADS > 1), each part an `insert?upload_id=`, then one complete.
// Both variables are read when the client connects and first writes, so they are set before
// the client is loaded.
process.env.LANCE_CPU_THREADS = "4";
process.env.LANCE_CLIENT_MAX_BYTES_PER_REQUEST = String(1024 * 1024);

import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { Table, tableFromArrays } from "apache-arrow";
import { arrowStream } from "../helpers/arrow.js";
import { spawnServeOnFreshRoot, spawnServe } from "../helpers/cli-process.js";
import { joinLocation } from "../../src/storage/locations.js";
import type { Storages } from "../../src/storage/storages.js";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";

const lancedb = await import("@lancedb/lancedb");

/** `rows` rows of (id int64, value float64) starting at `from`, in batches of 64 Ki rows. */
function rowsTable(from: number, rows: number): Table {
  const batches = [];
  for (let start = 0; start < rows; start += 65_536) {
    const count = Math.min(65_536, rows - start);
    const id = new BigInt64Array(count).map((_, i) => BigInt(from + start + i));
    const value = new Float64Array(count).map((_, i) => (from + start + i) * 0.5);
    batches.push(...tableFromArrays({ id, value }).batches);
  }
  return new Table(batches);
}

/** The requests the server answered for one operation, from its /metrics. */
/** Requests of `operation` answered so far, or only those answered with `status`. */
async function requestsOf(url: string, operation: string, status?: number): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let total = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith("quiver_http_requests_total{") || !line.includes(`operation="${operation}"`)) continue;
    if (status === undefined || line.includes(`status="${status}"`)) total += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return total;
}

async function tableLocation(url: string, name: string): Promise<string> {
  const described = await expectJson<{ location: string }>(await fetch(`${url}/v1/table/${name}/describe`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }));
  return described.location;
}

/** The staged part files of every upload of the table at `location`, through the server's storage (local folder or object store). */
async function stagedFiles(storages: Storages, location: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (prefix: string): Promise<void> => {
    for (const entry of await storages.for(prefix).list(prefix)) {
      const child = joinLocation(prefix, entry.name);
      if (entry.kind === "prefix") await walk(child);
      else if (entry.name.endsWith(".arrow")) found.push(child);
    }
  };
  await walk(joinLocation(location, "_uploads"));
  return found;
}

/** The same, for a server in another process on a local folder. */
function stagedLocalFiles(location: string): string[] {
  const folder = path.join(location.replace(/^file:\/\//, ""), "_uploads");
  return existsSync(folder) ? readdirSync(folder, { recursive: true }).map(String).filter((name) => name.endsWith(".arrow")) : [];
}

const post = (url: string, body?: Uint8Array) => fetch(url, { method: "POST", body, headers: body ? { "content-type": "application/vnd.apache.arrow.stream" } : {} });

test("multipart writes through the LanceDB client", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });

  await t.test("CompleteMultipartWrite of a 19 MB add in 1 MiB parts → one new version with every row", async () => {
    const table = await db.createTable("big", [{ id: 0n, value: 0 }]);
    const before = await table.version();
    const rows = 1_200_000;
    await table.add(rowsTable(1, rows));
    assert.ok((await requestsOf(server.url, "CompleteMultipartWrite")) === 1, "the client completed one multipart write");
    assert.ok((await requestsOf(server.url, "InsertIntoTable")) >= 8, "the rows came in several parts");
    assert.equal(await table.version(), before + 1);
    assert.equal(await table.countRows(), rows + 1);
    assert.equal(await table.countRows(`id = ${rows}`), 1);
    assert.deepEqual(await stagedFiles(server.runtime.storages, await tableLocation(server.url, "big")), [], "the staged parts are gone once committed");
  });

  await t.test("concurrent multipart adds to one table → every row of each, one version each", async () => {
    const table = await db.createTable("shared", [{ id: 0n, value: 0 }]);
    const before = await table.version();
    const completes = await requestsOf(server.url, "CompleteMultipartWrite", 200);
    const other = await db.openTable("shared");
    await Promise.all([table.add(rowsTable(1, 1_100_000)), other.add(rowsTable(10_000_000, 1_100_000))]);
    // A store that throttles under load may refuse a complete with a 503 the client retries: two succeed, once each.
    assert.equal((await requestsOf(server.url, "CompleteMultipartWrite", 200)) - completes, 2);
    await table.checkoutLatest();
    assert.equal(await table.version(), before + 2);
    assert.equal(await table.countRows(), 2_200_001);
  });

  await t.test("AbortMultipartWrite after a staged part → no rows and no files; CompleteMultipartWrite again → 400, code 13", async () => {
    const table = await db.createTable("aborted", [{ id: 0n, value: 0 }]);
    const version = await table.version();
    const location = await tableLocation(server.url, "aborted");
    const { upload_id: uploadId } = await expectJson<{ upload_id: string }>(await post(`${server.url}/v1/table/aborted/multipart_write/create/`));
    await expectJson(await post(`${server.url}/v1/table/aborted/insert/?upload_id=${uploadId}&upload_part_id=p1`, arrowStream({ id: new BigInt64Array([7n, 8n]), value: new Float64Array([1, 2]) }, { lz4: true })));
    assert.equal((await stagedFiles(server.runtime.storages, location)).length, 1, "the part is staged on disk, not held in memory");
    assert.equal(await table.countRows(), 1, "a staged part is not visible");
    await expectJson(await post(`${server.url}/v1/table/aborted/multipart_write/abort/?upload_id=${uploadId}`));
    assert.deepEqual(await stagedFiles(server.runtime.storages, location), []);
    assert.equal(await table.countRows(), 1);
    assert.equal(await table.version(), version);
    await expectError(await post(`${server.url}/v1/table/aborted/multipart_write/complete/?upload_id=${uploadId}`), 400, 13);
  });

  await t.test("CompleteMultipartWrite of parts of another schema → 400, code 20, nothing committed; AbortMultipartWrite then → no files", async () => {
    const table = await db.createTable("mismatch", [{ id: 0n, value: 0 }]);
    const version = await table.version();
    const location = await tableLocation(server.url, "mismatch");
    const { upload_id: uploadId } = await expectJson<{ upload_id: string }>(await post(`${server.url}/v1/table/mismatch/multipart_write/create/`));
    await expectJson(await post(`${server.url}/v1/table/mismatch/insert/?upload_id=${uploadId}&upload_part_id=p1`, arrowStream({ id: new BigInt64Array([7n]), other: new Float64Array([1]) })));
    await expectError(await post(`${server.url}/v1/table/mismatch/multipart_write/complete/?upload_id=${uploadId}`), 400, 20);
    await expectJson(await post(`${server.url}/v1/table/mismatch/multipart_write/abort/?upload_id=${uploadId}`));
    assert.deepEqual(await stagedFiles(server.runtime.storages, location), []);
    assert.equal(await table.version(), version);
  });

  await t.test("an upload past its time → aborted by the next CreateMultipartWrite: no files; CompleteMultipartWrite → 400, code 13", async () => {
    const table = await db.createTable("expired", [{ id: 0n, value: 0 }]);
    const location = await tableLocation(server.url, "expired");
    const { upload_id: uploadId } = await expectJson<{ upload_id: string }>(await post(`${server.url}/v1/table/expired/multipart_write/create/`));
    await expectJson(await post(`${server.url}/v1/table/expired/insert/?upload_id=${uploadId}&upload_part_id=p1`, arrowStream({ id: new BigInt64Array([7n]), value: new Float64Array([1]) })));
    await server.runtime.store.rows.updateMultipartWrite(uploadId, { expires_at: Date.now() - 1 });
    await expectJson(await post(`${server.url}/v1/table/expired/multipart_write/create/`));
    assert.deepEqual(await stagedFiles(server.runtime.storages, location), []);
    await expectError(await post(`${server.url}/v1/table/expired/multipart_write/complete/?upload_id=${uploadId}`), 400, 13);
    assert.equal(await table.countRows(), 1);
  });

  await t.test("CompleteMultipartWrite sent twice → the same version, the rows once", async () => {
    const table = await db.createTable("twice", [{ id: 0n, value: 0 }]);
    const { upload_id: uploadId } = await expectJson<{ upload_id: string }>(await post(`${server.url}/v1/table/twice/multipart_write/create/`));
    await expectJson(await post(`${server.url}/v1/table/twice/insert/?upload_id=${uploadId}&upload_part_id=a`, arrowStream({ id: new BigInt64Array([1n]), value: new Float64Array([1]) })));
    await expectJson(await post(`${server.url}/v1/table/twice/insert/?upload_id=${uploadId}&upload_part_id=b`, arrowStream({ id: new BigInt64Array([2n, 3n]), value: new Float64Array([2, 3]) })));
    const first = await expectJson<{ version: number }>(await post(`${server.url}/v1/table/twice/multipart_write/complete/?upload_id=${uploadId}`));
    const again = await expectJson<{ version: number }>(await post(`${server.url}/v1/table/twice/multipart_write/complete/?upload_id=${uploadId}`));
    assert.equal(again.version, first.version);
    assert.equal(await table.countRows(), 4);
  });

  await t.test("CompleteMultipartWrite after a completion cut short past Lance's commit → that version again, the rows once", async () => {
    const table = await db.createTable("cut_after", [{ id: 0n, value: 0 }]);
    const store = server.runtime.store;
    const { upload_id: uploadId } = await expectJson<{ upload_id: string }>(await post(`${server.url}/v1/table/cut_after/multipart_write/create/`));
    await expectJson(await post(`${server.url}/v1/table/cut_after/insert/?upload_id=${uploadId}&upload_part_id=a`, arrowStream({ id: new BigInt64Array([1n, 2n]), value: new Float64Array([1, 2]) })));
    const parts = await store.rows.listMultipartParts(uploadId);
    const { version } = await expectJson<{ version: number }>(await post(`${server.url}/v1/table/cut_after/multipart_write/complete/?upload_id=${uploadId}`));
    // As a process killed right after the commit leaves it: still completing, its parts recorded.
    await store.rows.updateMultipartWrite(uploadId, { state: "completing", base_version: version - 1, version: null });
    for (const part of parts) await store.rows.putMultipartPart(part);
    const again = await expectJson<{ version: number }>(await post(`${server.url}/v1/table/cut_after/multipart_write/complete/?upload_id=${uploadId}`));
    assert.equal(again.version, version);
    assert.equal(await table.countRows(), 3);
  });

  await t.test("CompleteMultipartWrite after a completion cut short before Lance's commit → commits the parts once; AbortMultipartWrite meanwhile → 409, code 19", async () => {
    const table = await db.createTable("cut_before", [{ id: 0n, value: 0 }]);
    const before = await table.version();
    const { upload_id: uploadId } = await expectJson<{ upload_id: string }>(await post(`${server.url}/v1/table/cut_before/multipart_write/create/`));
    await expectJson(await post(`${server.url}/v1/table/cut_before/insert/?upload_id=${uploadId}&upload_part_id=a`, arrowStream({ id: new BigInt64Array([1n, 2n]), value: new Float64Array([1, 2]) })));
    await server.runtime.store.rows.updateMultipartWrite(uploadId, { state: "completing", base_version: before });
    // The client's trailing-slash routes answer permanent conflicts 400 with the real code (docs/errors.md).
    await expectError(await post(`${server.url}/v1/table/cut_before/multipart_write/abort/?upload_id=${uploadId}`), 400, 19);
    await expectError(await post(`${server.url}/v1/table/cut_before/multipart_write/abort?upload_id=${uploadId}`), 409, 19);
    const { version } = await expectJson<{ version: number }>(await post(`${server.url}/v1/table/cut_before/multipart_write/complete/?upload_id=${uploadId}`));
    assert.equal(version, before + 1);
    assert.equal(await table.countRows(), 3);
  });

  await t.test("a multipart write with ?branch= on every request → its rows on the branch only; a part without the branch → 400, code 13", async () => {
    const table = await db.createTable("forked", [{ id: 0n, value: 0 }]);
    await expectJson(await server.post("/v1/table/forked/branches/create", { name: "dev" }));
    const { upload_id: uploadId } = await expectJson<{ upload_id: string }>(await post(`${server.url}/v1/table/forked/multipart_write/create/?branch=dev`));
    const part = arrowStream({ id: new BigInt64Array([5n, 6n]), value: new Float64Array([5, 6]) }, { lz4: true });
    await expectError(await post(`${server.url}/v1/table/forked/insert/?upload_id=${uploadId}&upload_part_id=a`, part), 400, 13);
    await expectJson(await post(`${server.url}/v1/table/forked/insert/?upload_id=${uploadId}&upload_part_id=a&branch=dev`, part));
    await expectJson(await post(`${server.url}/v1/table/forked/multipart_write/complete/?upload_id=${uploadId}&branch=dev`));
    const onBranch = await expectJson<number>(await server.post("/v1/table/forked/count_rows", { branch: "dev" }));
    assert.equal(onBranch, 3);
    assert.equal(await table.countRows(), 1);
  });

  await t.test("multipart add with mode overwrite → one version holding only the new rows", async () => {
    const table = await db.createTable("replaced", [{ id: 0n, value: 0 }]);
    const before = await table.version();
    const completes = await requestsOf(server.url, "CompleteMultipartWrite");
    await table.add(rowsTable(1, 1_100_000), { mode: "overwrite" });
    assert.equal((await requestsOf(server.url, "CompleteMultipartWrite")) - completes, 1);
    assert.equal(await table.version(), before + 1);
    assert.equal(await table.countRows(), 1_100_000);
    assert.equal(await table.countRows("id = 0"), 0);
  });
});

test("A server SIGKILLed between two parts and restarted → CompleteMultipartWrite commits both parts as one version", async (t) => {
  const first = await spawnServeOnFreshRoot(t);
  const create = await post(`${first.url}/v1/table/kept/create/`, arrowStream({ id: new BigInt64Array([0n]), value: new Float64Array([0]) }));
  assert.equal(create.status, 200);
  const { upload_id: uploadId } = await expectJson<{ upload_id: string }>(await post(`${first.url}/v1/table/kept/multipart_write/create/`));
  await expectJson(await post(`${first.url}/v1/table/kept/insert/?upload_id=${uploadId}&upload_part_id=one`, arrowStream({ id: new BigInt64Array([1n, 2n]), value: new Float64Array([1, 2]) }, { lz4: true })));
  await first.stop("SIGKILL");

  const second = await spawnServe(["--port", "0", "--root", first.root]);
  t.after(() => second.stop("SIGKILL"));
  await expectJson(await post(`${second.url}/v1/table/kept/insert/?upload_id=${uploadId}&upload_part_id=two`, arrowStream({ id: new BigInt64Array([3n]), value: new Float64Array([3]) }, { lz4: true })));
  const { version } = await expectJson<{ version: number }>(await post(`${second.url}/v1/table/kept/multipart_write/complete/?upload_id=${uploadId}`));
  assert.equal(version, 2);
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: second.url });
  const table = await db.openTable("kept");
  assert.equal(await table.countRows(), 4);
  assert.deepEqual(stagedLocalFiles(await tableLocation(second.url, "kept")), []);
});

test("Five concurrent uploads of 30 MB under a 51 MiB upload budget (300 MB against 512 MiB, scaled) → each 200 or 503 code 17 with Retry-After, the server up", async (t) => {
  const server = await startTestServer({ uploadMemoryBytes: 51 * 1024 * 1024 });
  t.after(() => server.close());
  const rows = 3_750_000;
  const body = arrowStream({ value: new Float64Array(rows).fill(0.5) });
  assert.ok(body.byteLength >= 30_000_000);
  await expectJson(await post(`${server.url}/v1/table/loaded/create/`, arrowStream({ value: new Float64Array([0]) })));
  const answers = await Promise.all(
    Array.from({ length: 5 }, async () => {
      const response = await post(`${server.url}/v1/table/loaded/insert/`, body);
      const answer = (await response.json()) as { code?: number };
      return { status: response.status, code: answer.code, retryAfter: response.headers.get("retry-after") };
    }),
  );
  for (const answer of answers) {
    if (answer.status === 200) continue;
    assert.deepEqual({ status: answer.status, code: answer.code, retried: answer.retryAfter !== null }, { status: 503, code: 17, retried: true });
  }
  assert.ok(answers.some((answer) => answer.status === 503), "the budget turned some away");
  assert.ok(answers.some((answer) => answer.status === 200), "the budget let some in");
  const health = await fetch(`${server.url}/health`);
  assert.equal(health.status, 200);
  const ok = answers.filter((answer) => answer.status === 200).length;
  const counted = await expectJson<number>(await post(`${server.url}/v1/table/loaded/count_rows/`));
  assert.equal(counted, 1 + ok * rows);
});
