// The automatic maintenance policy per namespace: a namespace's quiver.auto_maintenance applies
// to every table below it (the nearest namespace wins), between a table's own property and its
// database's setting; quiver.version_retention overrides the server's retention the same way; and
// DescribeTableMaintenanceSchedule answers the effective policy with where it comes from.
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { range, rowsTable, streamOf } from "../data/fixtures.js";
import { expectJson, startTestServer, type TestServer } from "../helpers/test-server.js";

/** Small intervals: a look every 100 ms, jobs claimed within 20 ms. */
const quick = { pollMs: 20, autoMaintenance: { intervalMs: 100 } };

async function fragmentsOf(server: TestServer, id: string): Promise<number> {
  return (await expectJson(await server.post(`/v1/table/${id}/describe`, {}))).stats.num_fragments;
}

async function autoJobs(server: TestServer, id: string): Promise<any[]> {
  const listed = await expectJson(await server.post("/v1/jobs/list", { table: id.split("$") }));
  return listed.jobs.filter((job: any) => job.job_type === "auto_maintenance");
}

/** Creates table `id` with one row, then appends 11 single rows: 12 small fragments. */
async function fedOneByOne(server: TestServer, id: string): Promise<void> {
  await expectJson(await server.upload(`/v1/table/${id}/create`, streamOf(rowsTable([0]))));
  for (const row of range(1, 12)) await expectJson(await server.upload(`/v1/table/${id}/insert`, streamOf(rowsTable([row]))));
}

async function policyOf(server: TestServer, id: string): Promise<any> {
  return (await expectJson(await server.post(`/v1/table/${id}/maintenance_schedule/describe`, {}))).auto_maintenance_policy;
}

async function until(what: string, done: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(100);
  }
}

test("automatic maintenance per namespace on a default server", async (t) => {
  const server = await startTestServer({ jobs: quick });
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/frozen/create", { properties: { "quiver.auto_maintenance": "off" } }));
  await expectJson(await server.post("/v1/namespace/frozen$inner/create", {}));
  await expectJson(await server.post("/v1/namespace/frozen$thawed/create", { properties: { "quiver.auto_maintenance": "on", "quiver.version_retention": "3d" } }));

  await t.test("namespace quiver.auto_maintenance=off → its tables and its nested namespaces' tables keep every fragment; a table inside with the property on is compacted", async () => {
    await fedOneByOne(server, "frozen$left");
    await fedOneByOne(server, "frozen$inner$deep");
    await expectJson(await server.upload("/v1/table/frozen$tidy/create", streamOf(rowsTable([0]))));
    await expectJson(await server.post("/v1/table/frozen$tidy/update", { updates: [], properties: { "quiver.auto_maintenance": "on" } }));
    for (const row of range(1, 12)) await expectJson(await server.upload(`/v1/table/frozen$tidy/insert`, streamOf(rowsTable([row]))));
    await fedOneByOne(server, "frozen$thawed$kept");

    await until("the tables maintained are compacted", async () => (await fragmentsOf(server, "frozen$tidy")) < 12 && (await fragmentsOf(server, "frozen$thawed$kept")) < 12);
    // Rounds have looked at the others too by now: a few more, and they are still as written.
    await sleep(500);
    assert.equal(await fragmentsOf(server, "frozen$left"), 12);
    assert.equal(await fragmentsOf(server, "frozen$inner$deep"), 12);
    assert.deepEqual(await autoJobs(server, "frozen$left"), []);
    assert.deepEqual(await autoJobs(server, "frozen$inner$deep"), []);
  });

  await t.test("DescribeTableMaintenanceSchedule → the effective policy names its source: table, namespace, database, server", async () => {
    const frozen = await policyOf(server, "frozen$left");
    assert.deepEqual(
      { auto_maintenance: frozen.auto_maintenance, source: frozen.source, version_retention_seconds: frozen.version_retention_seconds, version_retention_source: frozen.version_retention_source, last_run: frozen.last_run },
      { auto_maintenance: "off", source: "namespace:frozen", version_retention_seconds: 7 * 86_400, version_retention_source: "server", last_run: null },
    );
    const nested = await policyOf(server, "frozen$inner$deep");
    assert.equal(nested.auto_maintenance, "off");
    assert.equal(nested.source, "namespace:frozen", "the inner namespace says nothing: the next one up decides");

    const tidy = await policyOf(server, "frozen$tidy");
    assert.equal(tidy.auto_maintenance, "on");
    assert.equal(tidy.source, "table");
    assert.equal(tidy.last_run.status, "succeeded");
    assert.ok(tidy.last_run.due.compact, JSON.stringify(tidy.last_run));
    assert.ok(tidy.last_run.fragments_before > tidy.last_run.fragments_after, JSON.stringify(tidy.last_run));

    const kept = await policyOf(server, "frozen$thawed$kept");
    assert.equal(kept.auto_maintenance, "on");
    assert.equal(kept.source, "namespace:frozen$thawed", "the nearest namespace wins");
    assert.equal(kept.version_retention_seconds, 3 * 86_400);
    assert.equal(kept.version_retention_source, "namespace:frozen$thawed");

    await expectJson(await server.upload("/v1/table/plain/create", streamOf(rowsTable([0]))));
    const plain = await policyOf(server, "plain");
    assert.equal(plain.auto_maintenance, "on");
    assert.equal(plain.source, "server");
    await expectJson(await server.post("/v1/admin/databases/default/settings", { auto_maintenance: false }));
    const off = await policyOf(server, "plain");
    assert.equal(off.auto_maintenance, "off");
    assert.equal(off.source, "database");
    await expectJson(await server.post("/v1/admin/databases/default/settings", { auto_maintenance: null }));
  });
});

test("a table's quiver.version_retention of 2s on a server keeping 7 days → its old versions are removed, its neighbour's kept", async (t) => {
  const server = await startTestServer({ jobs: quick });
  t.after(() => server.close());
  for (const name of ["short", "long"]) {
    await expectJson(await server.upload(`/v1/table/${name}/create`, streamOf(rowsTable([0]))));
    await expectJson(await server.upload(`/v1/table/${name}/insert`, streamOf(rowsTable([1]))));
  }
  await expectJson(await server.post("/v1/table/short/update", { updates: [], properties: { "quiver.version_retention": "2s" } }));
  await until("the first version of short is gone", async () => (await server.post("/v1/table/short/describe", { version: 1 })).status === 404);
  assert.equal((await server.post("/v1/table/long/describe", { version: 1 })).status, 200);
  const policy = await policyOf(server, "short");
  assert.equal(policy.version_retention_seconds, 2);
  assert.equal(policy.version_retention_source, "table");
});
