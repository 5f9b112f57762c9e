// Quiver keeps opened tables between reads. Whoever commits next (a namespace-mode client writing
// the data itself, the managed-deployment client through Quiver, a second Quiver process on the
// same root, a table replaced at the same location), the very next read shows the commit.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { spawnServe } from "../helpers/cli-process.js";
import { sharedAzurite, testBackend } from "../helpers/test-backend.js";
import { expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";
import { testStoreUrl } from "../helpers/test-store.js";

const rowsFrom = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: from + i, label: `row ${from + i}` }));

async function idsOf(table: lancedb.Table, filter?: string): Promise<number[]> {
  const query = filter ? table.query().where(filter) : table.query();
  return (await query.toArray()).map((row) => Number(row.id)).sort((a, b) => a - b);
}

async function describedVersion(url: string, id: string): Promise<number> {
  const response = await fetch(`${url}/v1/table/${id}/describe`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  assert.equal(response.status, 200);
  return ((await response.json()) as { version: number }).version;
}

test("reads through Quiver see every commit of a namespace-mode client writing directly", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const writer = await lancedb.connectNamespace("rest", { uri: server.url });
  const reader = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const written = await writer.createTable("events", rowsFrom(0, 2));
  const read = await reader.openTable("events");
  assert.equal(await read.countRows(), 2);
  for (let round = 1; round <= 4; round += 1) {
    await written.add(rowsFrom(round * 10, 3));
    // Each read right after the commit: count, query, filtered query and describe agree.
    assert.equal(await read.countRows(), 2 + round * 3, `count after append ${round}`);
    assert.deepEqual(await idsOf(read, `id >= ${round * 10}`), [round * 10, round * 10 + 1, round * 10 + 2]);
    assert.equal(await describedVersion(server.url, "events"), await written.version());
  }
  await written.delete("id < 10");
  assert.deepEqual(await idsOf(read, "id < 20"), [10, 11, 12]);
  assert.equal(await read.countRows(), 12);
});

test("reads see writes made through Quiver by the managed-deployment client, interleaved", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const table = await db.createTable("steps", rowsFrom(0, 1));
  for (let step = 1; step <= 5; step += 1) {
    assert.equal(await table.countRows(), step);
    await table.add(rowsFrom(step, 1));
    assert.deepEqual(await idsOf(table, `id = ${step}`), [step]);
  }
  await table.update({ where: "id = 0", values: { label: "changed" } });
  const [first] = await table.query().where("id = 0").toArray();
  assert.equal(first?.label, "changed");
  const dropped = await db.createTable("again", rowsFrom(100, 2));
  assert.equal(await dropped.countRows(), 2);
  // Dropped and created anew under the same name: the new table's rows, not the old handle's.
  await db.dropTable("again");
  const recreated = await db.createTable("again", rowsFrom(200, 3));
  assert.deepEqual(await idsOf(recreated), [200, 201, 202]);
});

test("a second Quiver process on the same root reads what the first commits at once", async (t) => {
  const root = tempRoot();
  const store = await testStoreUrl(root);
  const storeArgs = store ? ["--store", store] : [];
  const first = await spawnServe(["--port", "0", "--root", root, ...storeArgs]);
  const second = await spawnServe(["--port", "0", "--root", root, ...storeArgs]);
  t.after(async () => {
    await Promise.all([first.stop("SIGKILL"), second.stop("SIGKILL")]);
    rmSync(root, { recursive: true, force: true });
  });
  const viaFirst = await (await lancedb.connect("db://demo", { apiKey: "any", hostOverride: first.url })).createTable("shared", rowsFrom(0, 2));
  const viaSecond = await (await lancedb.connect("db://demo", { apiKey: "any", hostOverride: second.url })).openTable("shared");
  assert.equal(await viaSecond.countRows(), 2);
  for (let round = 1; round <= 3; round += 1) {
    await viaFirst.add(rowsFrom(round * 10, 2));
    assert.deepEqual(await idsOf(viaSecond, `id >= ${round * 10}`), [round * 10, round * 10 + 1]);
    assert.equal(await describedVersion(second.url, "shared"), await describedVersion(first.url, "shared"));
  }
  // And the other way round: the first sees the second's commit.
  await viaSecond.delete("id >= 20");
  assert.deepEqual(await idsOf(viaFirst), [0, 1, 10, 11]);
});

test("a branch's reads through Quiver follow the branch's own commits, and main's stay main's", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const table = await db.createTable("branched", rowsFrom(0, 2));
  const dev = await (await table.branches()).create("dev");
  const described = async (body: Record<string, unknown>) => {
    const response = await fetch(`${server.url}/v1/table/branched/describe`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    assert.equal(response.status, 200);
    return (await response.json()) as { version: number; stats: { num_fragments: number } };
  };
  const before = await described({ branch: "dev" });
  for (let round = 1; round <= 3; round += 1) {
    await dev.add(rowsFrom(round * 10, 1));
    const now = await described({ branch: "dev" });
    assert.equal(now.version, before.version + round, `dev after append ${round}`);
    assert.equal(now.stats.num_fragments, before.stats.num_fragments + round);
  }
  assert.equal(await dev.countRows(), 5);
  assert.equal((await described({})).version, 1, "main is untouched");
  assert.equal(await table.countRows(), 2);
});

test("a table replaced at the same location (deregistered, its folder written anew, registered again) reads as the new table", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const placed = await expectJson(await server.post("/v1/table/scratch/declare", {}));
  // Beside the data root's tables, on whichever backend the tests run (a folder or an object store).
  const folder = `${(placed.location as string).replace(/\/[^/]+\/[^/]+$/, "")}/external`;
  const location = `${folder}/events.lance`;
  const { storageOptions } = testBackend === "local" ? {} : await sharedAzurite();
  const writeDataset = async (ids: number[], extra: Record<string, string> = {}) => {
    const direct = await lancedb.connect(folder, { storageOptions });
    // Dropping removes the dataset's files, so the new one starts again at version 1.
    if ((await direct.tableNames()).includes("events")) await direct.dropTable("events");
    await direct.createTable("events", ids.map((id) => ({ id, label: `row ${id}`, ...extra })));
    direct.close();
  };
  const fieldsOf = async () => ((await expectJson(await server.post("/v1/table/events/describe", {}))).schema.fields as { name: string }[]).map((field) => field.name);
  const cloud = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  await writeDataset([1, 2, 3]);
  await expectJson(await server.post("/v1/table/events/register", { location }));
  assert.deepEqual(await idsOf(await cloud.openTable("events")), [1, 2, 3]);
  assert.deepEqual(await fieldsOf(), ["id", "label"]);
  await expectJson(await server.post("/v1/table/events/deregister", {}));
  // The new dataset starts at version 1 too: only the table's identity tells the two apart.
  await writeDataset([10, 20], { note: "new" });
  await expectJson(await server.post("/v1/table/events/register", { location }));
  const reopened = await cloud.openTable("events");
  assert.deepEqual(await idsOf(reopened), [10, 20]);
  assert.equal(await reopened.countRows(), 2);
  assert.deepEqual(await fieldsOf(), ["id", "label", "note"]);
});
