// Local copies of object-store tables: Azurite behind a proxy that records every request the
// store receives, a server whose object cache keeps whole copies of small tables, and queries
// that must answer exactly what the store holds, from the copy once it holds the version read.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync, readdirSync, rmSync, statSync, truncateSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { arrowStream, readArrow } from "../helpers/arrow.js";
import { sharedAzurite, testStorages } from "../helpers/test-backend.js";
import { azuriteAccount } from "../helpers/azurite.js";
import { type LatencyProxy, startLatencyProxy } from "../helpers/latency-proxy.js";
import { parsePrometheusText, sumOf } from "../helpers/prometheus-text.js";
import { type TestServer, expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";

const interval = { read_consistency_interval_ms: 60_000 };

/** The ids a query answers, sorted, and where the answer was read from. */
async function idsOf(response: Response): Promise<{ ids: number[]; from: string | null }> {
  assert.equal(response.status, 200, await response.clone().text());
  const from = response.headers.get("x-quiver-read-from");
  return { ids: (await readArrow(response)).toArray().map((row) => Number(row.id)).sort((a, b) => a - b), from };
}

/** Queries until a local copy answers (the copy is made in the background after a read); its answer. */
async function untilFromCopy(run: () => Promise<Response>): Promise<{ ids: number[]; from: string | null }> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const answer = await idsOf(await run());
    if (answer.from === "local-copy" || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A metric's value in the server's metrics (the sum of its samples with `labels`); fails when it has none. */
async function metric(server: TestServer, name: string, labels: Record<string, string> = {}): Promise<number> {
  const { samples } = parsePrometheusText(await (await server.get("/metrics")).text());
  assert.ok(samples.some((sample) => sample.name === name), `${name} is in the metrics`);
  return sumOf(samples, name, labels);
}

/** The count of `quiver_table_copy_skips_total` for `reason`. */
const skips = (server: TestServer, reason: string) => metric(server, "quiver_table_copy_skips_total", { reason });

/** Queries until the count of skips for `reason` passes `before`: the background copy gave up. */
async function untilSkipped(server: TestServer, reason: string, before: number, run: () => Promise<Response>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await skips(server, reason)) <= before) {
    assert.ok(Date.now() < deadline, `no copy was given up for ${reason}`);
    assert.equal((await idsOf(await run())).from, "object-store");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The folder of the copy of the table at `location`, from the copies' state files. */
function copyFolderOf(dir: string, location: string): string {
  for (const name of readdirSync(dir).filter((entry) => entry.endsWith(".json"))) {
    const state = JSON.parse(readFileSync(path.join(dir, name), "utf8")) as { location: string; folder: string };
    if (state.location === location) return path.join(dir, state.folder);
  }
  throw new Error(`no copy of ${location}`);
}

/** Every file under `dir`, relative. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe("local copies of tables on an Azure data location", () => {
  let store: LatencyProxy;
  let server: TestServer;
  let root: string;
  let data: string;
  let storageOptions: Record<string, string>;
  const cacheDir = () => path.join(root, "object-cache");
  const copiesDir = () => path.join(cacheDir(), "tables");

  const start = async (copyBytes = 64 * 1024 * 1024) =>
    startTestServer({ root, keepRoot: true, data, storageOptions, objectCache: { dir: cacheDir(), maxBytes: 128 * 1024 * 1024, copyBytes } });

  before(async () => {
    const azurite = await sharedAzurite();
    store = await startLatencyProxy(`http://127.0.0.1:${azurite.port}`);
    root = tempRoot("quiver-copies-");
    data = `az://c${randomUUID().replaceAll("-", "").slice(0, 20)}/data`;
    storageOptions = { ...azurite.storageOptions, azure_endpoint: `${store.origin}/${azuriteAccount}` };
    server = await start();
    await expectJson(await server.post("/v1/admin/databases/default/settings", interval));
    await expectJson(await server.post("/v1/namespace/lake/create", {}));
  });

  after(async () => {
    await server.close();
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });

  const create = async (table: string, count: number) => {
    const ids = Int32Array.from({ length: count }, (_, i) => i);
    await expectJson(await server.upload(`/v1/table/${table}/create`, arrowStream({ id: ids, score: Float64Array.from(ids, (id) => id * 1.5) })));
  };
  const query = (table: string, filter: string) => () => server.post(`/v1/table/${table}/query`, { k: 100, vector: null, filter, columns: ["id", "score"] });

  test("QueryTable once a local copy holds the version read → x-quiver-read-from: local-copy, the same rows, and no request reaches the store", async () => {
    await create("lake$warm", 2000);
    const first = await idsOf(await query("lake$warm", "id IN (7, 1500)")());
    assert.deepEqual(first.ids, [7, 1500]);
    assert.equal(first.from, "object-store", "the first read finds no copy yet");
    const copied = await untilFromCopy(query("lake$warm", "id IN (7, 1500)"));
    assert.equal(copied.from, "local-copy");
    assert.deepEqual(copied.ids, [7, 1500]);
    store.reset();
    const warm = await server.post("/v1/table/lake$warm/query", { k: 100, vector: null, filter: "id < 3", columns: ["id"] });
    assert.deepEqual((await idsOf(warm)).ids, [0, 1, 2]);
    assert.equal(warm.headers.get("x-quiver-store-requests"), "0");
    assert.deepEqual(store.requests, [], "a warm query from the copy sends nothing to the store");
    assert.deepEqual(await expectJson(await server.post("/v1/table/lake$warm/count_rows", { predicate: "id >= 1000" })), 1000);
  });

  test("InsertIntoTable after the table was copied → the next query sees the new rows at once, and the copy catches up to the new version", async () => {
    await create("lake$moving", 100);
    await untilFromCopy(query("lake$moving", "id >= 98"));
    await expectJson(await server.upload("/v1/table/lake$moving/insert", arrowStream({ id: Int32Array.from([500, 501]), score: Float64Array.from([1, 2]) })));
    const fresh = await idsOf(await query("lake$moving", "id >= 98")());
    assert.deepEqual(fresh.ids, [98, 99, 500, 501], "the write is seen by the very next read");
    const caughtUp = await untilFromCopy(query("lake$moving", "id >= 98"));
    assert.equal(caughtUp.from, "local-copy");
    assert.deepEqual(caughtUp.ids, [98, 99, 500, 501]);
    await expectJson(await server.post("/v1/table/lake$moving/delete", { predicate: "id = 500" }));
    assert.deepEqual((await idsOf(await query("lake$moving", "id >= 98")())).ids, [98, 99, 501]);
    assert.deepEqual((await untilFromCopy(query("lake$moving", "id >= 98"))).ids, [98, 99, 501]);
  });

  test("a copy whose data files are removed while the server runs → the query answers from the store, the same rows, and a new copy is made", async () => {
    await create("lake$damaged", 300);
    await untilFromCopy(query("lake$damaged", "id IN (1, 299)"));
    const folder = copyFolderOf(copiesDir(), (await expectJson(await server.post("/v1/table/lake$damaged/describe", {}))).location);
    for (const file of filesUnder(path.join(folder, "data"))) rmSync(path.join(folder, "data", file));
    const answer = await idsOf(await query("lake$damaged", "id IN (1, 299)")());
    assert.deepEqual(answer.ids, [1, 299]);
    assert.equal(answer.from, "object-store");
    assert.deepEqual(await expectJson(await server.post("/v1/table/lake$damaged/count_rows", { predicate: "id >= 100" })), 200);
    assert.deepEqual((await untilFromCopy(query("lake$damaged", "id IN (1, 299)"))).ids, [1, 299]);
  });

  test("an object under a table's data folder whose name Lance never writes → the table is not copied; its queries read the store", async () => {
    await create("lake$odd", 30);
    const { location } = await expectJson(await server.post("/v1/table/lake$odd/describe", {}));
    await testStorages.configure(data, storageOptions);
    await testStorages.for(location).put(`${location}/data/not a lance file`, Buffer.from("x"));
    const before = await skips(server, "unsafe-name");
    await untilSkipped(server, "unsafe-name", before, query("lake$odd", "id < 2"));
    assert.deepEqual((await idsOf(await query("lake$odd", "id < 2")())).ids, [0, 1]);
  });

  test("a table larger than half the copies' bound is not copied: its queries keep reading the store, correctly", async () => {
    await server.close();
    server = await start(64 * 1024);
    await create("lake$large", 20_000);
    await untilSkipped(server, "too-large", await skips(server, "too-large"), query("lake$large", "id IN (3, 19999)"));
    assert.deepEqual(await idsOf(await query("lake$large", "id IN (3, 19999)")()), { ids: [3, 19999], from: "object-store" });
  });

  test("a restart keeps the copies: the first query after it reads the copy; a copy with a truncated file is dropped and the table read from the store", async () => {
    await server.close();
    server = await start();
    const restarted = await idsOf(await query("lake$warm", "id IN (7, 1500)")());
    assert.deepEqual(restarted.ids, [7, 1500]);
    assert.equal(restarted.from, "local-copy", "the copy made before the restart answers");
    await server.close();
    // Cut a data file of every copy short, as a disk that lost its tail would.
    for (const file of filesUnder(copiesDir()).filter((name) => name.includes(`${path.sep}data${path.sep}`))) {
      const full = path.join(copiesDir(), file);
      truncateSync(full, Math.floor(statSync(full).size / 2));
    }
    server = await start();
    const dropped = await idsOf(await query("lake$warm", "id IN (7, 1500)")());
    assert.equal(dropped.from, "object-store", "the damaged copy is not read");
    assert.deepEqual(dropped.ids, [7, 1500]);
    assert.deepEqual((await untilFromCopy(query("lake$warm", "id IN (7, 1500)"))).ids, [7, 1500], "a new copy is made from the store");
  });

  test("a table written again from scratch at its location under the same id → after a restart, queries read the new rows, not the copy of the old ones", async () => {
    await create("lake$rewritten", 10);
    await untilFromCopy(query("lake$rewritten", "id >= 0"));
    const { location } = await expectJson(await server.post("/v1/table/lake$rewritten/describe", {}));
    await server.close();
    // Version 1 again, other rows: what the copy holds as version 1 is no longer the store's.
    await testStorages.configure(data, storageOptions);
    await testStorages.for(location).deletePrefix(location, data);
    const slash = String(location).lastIndexOf("/");
    const direct = await lancedb.connect(String(location).slice(0, slash), { storageOptions });
    await direct.createTable(String(location).slice(slash + 1, -".lance".length), [{ id: 100, score: 1 }, { id: 101, score: 2 }]);
    direct.close();
    server = await start();
    const answer = await idsOf(await query("lake$rewritten", "id >= 0")());
    assert.deepEqual(answer.ids, [100, 101]);
    assert.equal(answer.from, "object-store");
  });

  test("DropTable, then CreateTable of the same name → queries read the new table's rows, never the old copy's", async () => {
    await create("lake$again", 50);
    await untilFromCopy(query("lake$again", "id < 1000"));
    await expectJson(await server.post("/v1/table/lake$again/drop", {}));
    const ids = Int32Array.from([900, 901, 902]);
    await expectJson(await server.upload("/v1/table/lake$again/create", arrowStream({ id: ids, score: Float64Array.from([1, 2, 3]) })));
    assert.deepEqual((await idsOf(await query("lake$again", "id < 1000")())).ids, [900, 901, 902]);
    assert.deepEqual((await untilFromCopy(query("lake$again", "id < 1000"))).ids, [900, 901, 902]);
  });

  test("copies past their bound → the least recently read are removed: the copies stay within it, and every table still answers its rows", async () => {
    await create("lake$first", 500);
    await untilFromCopy(query("lake$first", "id IN (1, 499)"));
    const { location } = await expectJson(await server.post("/v1/table/lake$first/describe", {}));
    const state = JSON.parse(readFileSync(`${copyFolderOf(copiesDir(), location)}`.replace(/-[0-9a-f]+\.lance$/, ".json"), "utf8")) as { files: Record<string, number> };
    const size = Object.values(state.files).reduce((sum, bytes) => sum + Math.max(bytes, 4096), 0);
    // Room for two such tables, not three; each fits in half of it.
    const bound = Math.floor(size * 2.5);
    await server.close();
    server = await start(bound);
    const evictionsBefore = await metric(server, "quiver_table_copy_evictions_total");
    for (const name of ["second", "third"]) {
      await create(`lake$${name}`, 500);
      const copied = await untilFromCopy(query(`lake$${name}`, "id IN (1, 499)"));
      assert.deepEqual(copied, { ids: [1, 499], from: "local-copy" }, `lake$${name} is copied, room made for it`);
    }
    assert.ok((await metric(server, "quiver_table_copy_bytes")) <= bound, "the copies' bytes stay within the bound");
    assert.ok((await metric(server, "quiver_table_copy_evictions_total")) > evictionsBefore, "copies were removed to make room");
    for (const name of ["first", "second", "third"]) assert.deepEqual((await idsOf(await query(`lake$${name}`, "id IN (1, 499)")())).ids, [1, 499]);
  });
});
