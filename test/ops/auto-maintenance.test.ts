// Automatic maintenance: on by default, a server compacts tables fed one row at a time, folds
// appended rows into indexes and removes versions past the retention (never a tagged one), as
// auto_maintenance jobs that never make a write fail; the server, a database or a table can turn
// it off.
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import * as lancedb from "@lancedb/lancedb";
import { createRowsTable, range, rowsTable, streamOf } from "../data/fixtures.js";
import { readArrow } from "../helpers/arrow.js";
import { spawnServeOnFreshRoot } from "../helpers/cli-process.js";
import { expectError, expectJson, startTestServer, type TestServer } from "../helpers/test-server.js";

/** What these tests ask of a server: in-process, or a spawned `quiver serve`. */
type Server = Pick<TestServer, "post" | "get" | "upload">;

function overHttp(url: string): Server {
  return {
    post: (route, body, headers = {}) =>
      fetch(url + route, { method: "POST", headers: body === undefined ? headers : { "content-type": "application/json", ...headers }, body: body === undefined ? undefined : JSON.stringify(body) }),
    get: (route, headers = {}) => fetch(url + route, { headers }),
    upload: (route, bytes, contentType = "application/vnd.apache.arrow.stream") =>
      fetch(url + route, { method: "POST", headers: contentType ? { "content-type": contentType } : {}, body: bytes }),
  };
}

/** Small intervals: a look every 100 ms, jobs claimed within 20 ms. */
const quick = { pollMs: 20, autoMaintenance: { intervalMs: 100 } };

async function fragmentsOf(server: Server, name: string): Promise<number> {
  return (await expectJson(await server.post(`/v1/table/${name}/describe`, {}))).stats.num_fragments;
}

async function idsOf(server: Server, name: string, extra: Record<string, unknown> = {}): Promise<number[]> {
  const response = await server.post(`/v1/table/${name}/query`, { k: 100_000, columns: { column_names: ["id"] }, ...extra });
  assert.equal(response.status, 200);
  return Array.from((await readArrow(response)).getChild("id")!.toArray() as ArrayLike<number>, Number).sort((a, b) => a - b);
}

async function autoJobs(server: Server, name: string): Promise<any[]> {
  const listed = await expectJson(await server.post("/v1/jobs/list", { table: [name] }));
  const jobs = listed.jobs.filter((job: any) => job.job_type === "auto_maintenance");
  return Promise.all(jobs.map(async (job: any) => expectJson(await server.get(`/v1/jobs/${job.job_id}`))));
}

/** Waits until `done` holds and no auto_maintenance job of the table is queued or running. */
async function settled(server: Server, name: string, done: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const busy = (await autoJobs(server, name)).some((job) => job.status === "queued" || job.status === "running");
    if (!busy && (await done())) return;
    if (Date.now() > deadline) throw new Error(`table ${name} did not settle: ${JSON.stringify(await autoJobs(server, name))}`);
    await sleep(100);
  }
}

async function appendOneByOne(server: Server, name: string, ids: number[]): Promise<void> {
  for (const id of ids) await expectJson(await server.upload(`/v1/table/${name}/insert`, streamOf(rowsTable([id]))));
}

test("automatic maintenance on a default server", async (t) => {
  const server = await startTestServer({ jobs: quick });
  t.after(() => server.close());

  await t.test("100 single-row appends through the LanceDB client → a handful of fragments, every row kept, auto_maintenance jobs listed", async (t) => {
    const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
    const table = await db.createTable("fed", [{ id: 0, text: "row 0" }]);
    for (let id = 1; id < 100; id += 1) await table.add([{ id, text: `row ${id}` }]);
    // Settled: below the threshold of 8 small fragments, nothing more is due.
    await settled(server, "fed", async () => (await fragmentsOf(server, "fed")) < 8);
    assert.ok((await fragmentsOf(server, "fed")) <= 8);
    assert.deepEqual(await idsOf(server, "fed"), range(0, 100));
    const jobs = await autoJobs(server, "fed");
    const compactions = jobs.filter((job) => job.status === "succeeded" && job.result.fragments_removed > 0);
    assert.ok(compactions.length > 0, JSON.stringify(jobs));
    const first = compactions.at(-1);
    assert.ok(first.result.fragments_before >= 8 && first.result.fragments_after < first.result.fragments_before, JSON.stringify(first.result));
    assert.ok(first.result.tasks.includes("compact"));
    t.diagnostic(`fed: ${compactions.length} compactions, ${compactions.map((job) => `${job.result.fragments_before}→${job.result.fragments_after}`).join(", ")}; now ${await fragmentsOf(server, "fed")} fragments`);
    // A maintained table left alone queues nothing more.
    const count = jobs.length;
    await sleep(1500);
    assert.equal((await autoJobs(server, "fed")).length, count);
  });

  await t.test("rows appended after an index build are indexed without a call (no unindexed rows)", async () => {
    await createRowsTable(server, "indexed", 300);
    await expectJson(await server.post("/v1/table/indexed/create_scalar_index", { column: "id", index_type: "BTREE", name: "id_idx" }));
    await expectJson(await server.upload("/v1/table/indexed/insert", streamOf(rowsTable(range(300, 340)))));
    const unindexed = async () => (await expectJson(await server.post("/v1/table/indexed/index/id_idx/stats", {}))).num_unindexed_rows;
    await settled(server, "indexed", async () => (await unindexed()) === 0);
    assert.equal(await unindexed(), 0);
    const jobs = await autoJobs(server, "indexed");
    assert.ok(jobs.some((job) => job.status === "succeeded" && job.result.tasks.includes("optimize_indices")), JSON.stringify(jobs));
    assert.deepEqual(await idsOf(server, "indexed"), range(0, 340));
  });

  await t.test("four concurrent appenders never fail while maintenance runs, and every row is kept", async () => {
    const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
    await db.createTable("busy", [{ id: -1, text: "seed" }]);
    const appender = async (offset: number) => {
      const table = await db.openTable("busy");
      for (let i = 0; i < 30; i += 1) await table.add([{ id: offset * 1000 + i, text: "x" }]);
    };
    await Promise.all([0, 1, 2, 3].map(appender));
    const expected = [-1, ...[0, 1, 2, 3].flatMap((offset) => range(offset * 1000, offset * 1000 + 30))].sort((a, b) => a - b);
    assert.deepEqual(await idsOf(server, "busy"), expected);
    await settled(server, "busy", async () => (await fragmentsOf(server, "busy")) < 8);
    assert.deepEqual(await idsOf(server, "busy"), expected);
    assert.ok((await autoJobs(server, "busy")).some((job) => job.status === "succeeded" && job.result.fragments_removed > 0));
  });

  await t.test("a table with quiver.auto_maintenance=off keeps every fragment as written while its neighbour is compacted", async () => {
    await createRowsTable(server, "manual", 1);
    await createRowsTable(server, "neighbour", 1);
    await expectJson(await server.post("/v1/table/manual/update", { updates: [], properties: { "quiver.auto_maintenance": "off" } }));
    await appendOneByOne(server, "manual", range(1, 12));
    await appendOneByOne(server, "neighbour", range(1, 12));
    await settled(server, "neighbour", async () => (await fragmentsOf(server, "neighbour")) < 12);
    assert.equal(await fragmentsOf(server, "manual"), 12);
    assert.deepEqual(await autoJobs(server, "manual"), []);
    assert.deepEqual(await idsOf(server, "neighbour"), range(0, 12));
  });

  await t.test("UpdateDatabaseSettings auto_maintenance false → the database's tables are left as written; a table property on wins", async () => {
    const info = await expectJson(await server.post("/v1/admin/databases/default/settings", { auto_maintenance: false }));
    assert.equal(info.auto_maintenance, false);
    await createRowsTable(server, "left", 1);
    await createRowsTable(server, "kept_tidy", 1);
    await expectJson(await server.post("/v1/table/kept_tidy/update", { updates: [], properties: { "quiver.auto_maintenance": "on" } }));
    await appendOneByOne(server, "left", range(1, 12));
    await appendOneByOne(server, "kept_tidy", range(1, 12));
    await settled(server, "kept_tidy", async () => (await fragmentsOf(server, "kept_tidy")) < 12);
    assert.equal(await fragmentsOf(server, "left"), 12);
    assert.deepEqual(await autoJobs(server, "left"), []);
    assert.deepEqual(await idsOf(server, "kept_tidy"), range(0, 12));
    const back = await expectJson(await server.post("/v1/admin/databases/default/settings", { auto_maintenance: null }));
    assert.equal(back.auto_maintenance, null);
  });
});

test("automatic maintenance with a retention of 2 s: old versions are removed, a tagged version still reads its rows", async (t) => {
  const server = await startTestServer({ jobs: { ...quick, autoMaintenance: { intervalMs: 100, retentionMs: 2000 } } });
  t.after(() => server.close());
  await createRowsTable(server, "aged", 10); // version 1
  await expectJson(await server.upload("/v1/table/aged/insert", streamOf(rowsTable(range(10, 20))))); // 2
  await expectJson(await server.upload("/v1/table/aged/insert", streamOf(rowsTable(range(20, 30))))); // 3
  await expectJson(await server.post("/v1/table/aged/tags/create", { tag: "release", version: 3 }));
  await expectJson(await server.upload("/v1/table/aged/insert", streamOf(rowsTable(range(30, 40))))); // 4

  const gone = async () => (await server.post("/v1/table/aged/describe", { version: 1 })).status === 404;
  await settled(server, "aged", gone);
  await expectError(await server.post("/v1/table/aged/describe", { version: 2 }), 404, 11);
  assert.deepEqual(await idsOf(server, "aged", { version: 3 }), range(0, 30), "the tagged version reads as before");
  assert.equal((await expectJson(await server.post("/v1/table/aged/describe", { tag: "release" }))).version, 3);
  assert.deepEqual(await idsOf(server, "aged"), range(0, 40));
  const jobs = await autoJobs(server, "aged");
  const cleanup = jobs.find((job) => job.status === "succeeded" && job.result.versions_removed > 0);
  assert.ok(cleanup, JSON.stringify(jobs));
  assert.ok(cleanup.result.tasks.includes("cleanup"));
  assert.deepEqual(cleanup.result.protected_tags, ["release"]);
});

test("quiver serve --auto-maintenance off (over QUIVER_AUTO_MAINTENANCE=on): tables fed single rows keep every fragment and version", async (t) => {
  const serve = await spawnServeOnFreshRoot(t, ["--auto-maintenance", "off", "--auto-maintenance-interval-ms", "100", "--version-retention", "1s", "--job-poll-ms", "20"], {
    QUIVER_AUTO_MAINTENANCE: "on",
  });
  const server = overHttp(serve.url);
  await expectJson(await server.upload("/v1/table/raw/create", streamOf(rowsTable([0]))));
  await appendOneByOne(server, "raw", range(1, 12));
  await sleep(1500);
  assert.equal(await fragmentsOf(server, "raw"), 12);
  assert.deepEqual(await idsOf(server, "raw", { version: 1 }), [0], "the first version is kept");
  assert.deepEqual(await autoJobs(server, "raw"), []);
});
