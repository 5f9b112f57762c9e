// Replicas failing and starting: a job whose replica is killed mid-run is finished by the other
// within its lease, every work item applied once; a key revoked with the CLI is refused everywhere
// within seconds; replicas started at the same instant on an empty database migrate it once.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { describe, test } from "node:test";
import { tableFromIPC } from "apache-arrow-21";
import pg from "pg";
import { knownMigrations } from "../../src/store/migrations/index.js";
import { type ServeProcess, runCli, spawnServe } from "../helpers/cli-process.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";
import { TableData, canonicalRows, createWordDocs, docsWordChunksView, waitForJob } from "../helpers/views.js";

const json = (url: string, route: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url + route, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

/** Replicas on one fresh PostgreSQL database and one shared data folder, killed and removed after the test. */
async function replicas(t: { after(fn: () => Promise<void>): void }, count: number, args: string[] = [], env: Record<string, string> = {}) {
  const storeUrl = await freshPostgresDatabase();
  const data = tempRoot("quiver-shared-data-");
  const roots = Array.from({ length: count }, () => tempRoot());
  const servers: ServeProcess[] = [];
  t.after(async () => {
    await Promise.all(servers.map((server) => server.stop("SIGKILL")));
    for (const dir of [data, ...roots]) rmSync(dir, { recursive: true, force: true });
  });
  const start = (i: number) => spawnServe(["--port", "0", "--root", roots[i] as string, "--store", storeUrl, "--data", data, ...args], env);
  servers.push(...(await Promise.all(roots.map((_, i) => start(i)))));
  return { storeUrl, servers };
}


interface JobEvent {
  state: string;
  emitted_by: string;
  timestamp_ms: number;
}

async function jobEvents(url: string, jobId: string): Promise<JobEvent[]> {
  const response = await json(url, "/v1/jobs/query_events", { job_id: jobId });
  assert.equal(response.status, 200);
  return tableFromIPC(new Uint8Array(await response.arrayBuffer()))
    .toArray()
    .map((row) => ({ state: String(row.state), emitted_by: String(row.emitted_by), timestamp_ms: Number(row.timestamp_ms) }));
}

test("a refresh job whose replica is killed mid-run is finished by the other within the lease, every item applied once", async (t) => {
  const leaseMs = 2_000;
  const { servers } = await replicas(t, 2, [], { QUIVER_JOB_LEASE_MS: String(leaseMs), QUIVER_JOB_POLL_MS: "50" });
  const data = new TableData();
  t.after(() => data.close());
  const [first] = servers as [ServeProcess, ServeProcess];
  const n = 1500;
  await createWordDocs(first.url, n);
  await expectJson(await json(first.url, "/v1/materialized_view/chunks/create", docsWordChunksView), 201);
  const { job_id } = await expectJson(await json(first.url, "/v1/materialized_view/chunks/refresh", { source_task_size: 25 }), 202);

  // Whichever replica claimed the job is the one killed, once some items are done.
  for (;;) {
    const job = await expectJson(await fetch(`${first.url}/v1/jobs/${job_id}`));
    assert.notEqual(job.status, "succeeded", "the job must still be running when its replica is killed");
    if (job.status === "running" && job.progress.items_done >= 3) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const runner = (await jobEvents(first.url, job_id)).find((event) => event.state === "running")?.emitted_by ?? "";
  const victim = servers.find((server) => runner.split(":")[1] === String(server.child.pid));
  assert.ok(victim, `the running event names a replica's process: ${runner}`);
  const survivor = servers.find((server) => server !== victim) as ServeProcess;
  const killedAt = Date.now();
  await victim.stop("SIGKILL");

  const job = await waitForJob({ get: (route) => fetch(survivor.url + route) }, job_id, 60_000);
  assert.equal(job.status, "succeeded", JSON.stringify(job));
  assert.equal(job.attempts, 2, "the surviving replica resumed the job");
  assert.equal(job.progress.items_done, job.progress.items_total);
  const events = await jobEvents(survivor.url, job_id);
  const resumed = events.find((event) => event.state === "resumed");
  assert.ok(resumed, events.map((event) => event.state).join(","));
  assert.equal(resumed.emitted_by.split(":")[1], String(survivor.child.pid));
  assert.ok(resumed.timestamp_ms - killedAt <= leaseMs + 1_500, `resumed ${resumed.timestamp_ms - killedAt} ms after the kill; the lease is ${leaseMs} ms`);
  assert.equal(events.filter((event) => event.state === "planned").length, 1, "the plan was made once and kept");

  const viewLocation = (await expectJson(await json(survivor.url, "/v1/table/chunks/describe", {}))).location;
  const rows = await data.rows(viewLocation);
  assert.equal(rows.length, n * 4, "4 chunks per document, none twice, none missing");
  const rebuilt = await expectJson(await json(survivor.url, "/v1/materialized_view/again/create", { ...docsWordChunksView, with_no_data: false }), 201);
  await waitForJob({ get: (route) => fetch(survivor.url + route) }, rebuilt.job_id, 60_000);
  const againLocation = (await expectJson(await json(survivor.url, "/v1/table/again/describe", {}))).location;
  assert.deepEqual(canonicalRows(rows), canonicalRows(await data.rows(againLocation)), "the same rows a full rebuild gives");
});

// The failover case goes alone: its lease is timed. The other two have replicas and databases of
// their own and mostly wait on them: they run side by side.
describe("replicas and their catalog", { concurrency: true }, () => {
  test("a key revoked with the CLI is refused by every replica within 5 s", async (t) => {
    const { storeUrl, servers } = await replicas(t, 2, ["--auth", "required"]);
    const created = await runCli(["keys", "create", "--store", storeUrl, "--database", "default", "--role", "read"]);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    const keyId = key.split("_")[1] as string;
    for (const server of servers) await expectJson(await fetch(`${server.url}/v1/namespace/list`, { headers: { "x-api-key": key } }));

    const revoked = await runCli(["keys", "revoke", keyId, "--store", storeUrl]);
    assert.equal(revoked.code, 0, revoked.stderr);
    const revokedAt = Date.now();
    for (const server of servers) {
      for (;;) {
        const response = await fetch(`${server.url}/v1/namespace/list`, { headers: { "x-api-key": key } });
        const body = (await response.json()) as { code?: number };
        if (response.status === 401) {
          assert.equal(body.code, 16);
          break;
        }
        assert.ok(Date.now() - revokedAt < 5_000, `${server.url} still accepts the key ${Date.now() - revokedAt} ms after its revocation`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });

  test("replicas started at the same instant on an empty database migrate it once and both serve", async (t) => {
    const storeUrl = await freshPostgresDatabase();
    const data = tempRoot("quiver-shared-data-");
    const roots = [tempRoot(), tempRoot(), tempRoot()];
    const servers = await Promise.all(roots.map((root) => spawnServe(["--port", "0", "--root", root, "--store", storeUrl, "--data", data])));
    t.after(async () => {
      await Promise.all(servers.map((server) => server.stop("SIGKILL")));
      for (const dir of [data, ...roots]) rmSync(dir, { recursive: true, force: true });
    });
    for (const server of servers) {
      await expectJson(await fetch(`${server.url}/ready`));
      assert.doesNotMatch(server.output(), /"level":(50|60)/, "no errors logged while starting");
    }
    const client = new pg.Client({ connectionString: storeUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>("select name from kysely_migration order by name");
      assert.deepEqual(rows.map((row) => row.name), [...knownMigrations], "each migration recorded once");
      const databases = await client.query<{ name: string }>("select name from databases");
      assert.deepEqual(databases.rows.map((row) => row.name), ["default"], "one default database");
    } finally {
      await client.end();
    }
    // Each serves the same catalog.
    await expectJson(await json(servers[0]!.url, "/v1/namespace/made_on_first/create", {}));
    for (const server of servers) await expectJson(await json(server.url, "/v1/namespace/made_on_first/describe", {}));
  });
});
