// Table folders left by a crash (no catalog row refers to them) are removed while the server
// runs, every --orphan-sweep-interval-ms, on one replica at a time, and now by `quiver sweep`;
// each removal is logged and counted in quiver_orphaned_folders_removed_total. Real processes:
// the CLI, and PostgreSQL for the replicas.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { cpSync, existsSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { orphanSweepLock } from "../../src/catalog/tables/orphan-sweeper.js";
import { openStore } from "../../src/store/open-store.js";
import { arrowStream } from "../helpers/arrow.js";
import { type ServeProcess, runCli, spawnServe } from "../helpers/cli-process.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { parsePrometheusText, sumOf } from "../helpers/prometheus-text.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";
import { testStoreUrl } from "../helpers/test-store.js";

const hourMs = 60 * 60 * 1000;
const removedMetric = "quiver_orphaned_folders_removed_total";

/** Sets the modification time of `target` and everything below it `ms` into the past. */
function age(target: string, ms: number): void {
  const when = new Date(Date.now() - ms);
  if (statSync(target).isDirectory()) for (const name of readdirSync(target)) age(path.join(target, name), ms);
  utimesSync(target, when, when);
}

/** A copy of the table folder `source` beside it, in Quiver's layout, with no row: what a crashed create leaves. */
function orphanBeside(source: string, ageMs: number): string {
  const orphan = path.join(path.dirname(source), `${randomUUID()}.lance`);
  cpSync(source, orphan, { recursive: true });
  age(orphan, ageMs);
  return orphan;
}

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await sleep(50);
  assert.ok(check(), what);
}

async function createTable(url: string, name: string, rows: number): Promise<string> {
  const created = await expectJson<{ location: string }>(await fetch(`${url}/v1/table/${name}/create`, { method: "POST", headers: { "content-type": "application/vnd.apache.arrow.stream" }, body: arrowStream({ id: Int32Array.from({ length: rows }, (_, i) => i) }) }));
  return created.location;
}

async function countRows(url: string, name: string): Promise<number> {
  return expectJson(await fetch(`${url}/v1/table/${name}/count_rows`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }));
}

async function removedCount(server: ServeProcess): Promise<number> {
  return sumOf(parsePrometheusText(await (await fetch(`${server.url}/metrics`)).text()).samples, removedMetric);
}

const removalLines = (server: ServeProcess) =>
  server
    .stdout()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string; location?: string })
    .filter((line) => line.msg === "removed an orphaned table folder");

test("A running server removes an orphaned table folder older than the grace period at its next sweep, keeps fresh ones and live tables, logs the removal and counts it in quiver_orphaned_folders_removed_total", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const store = await testStoreUrl(root);
  const server = await spawnServe(["--port", "0", "--root", root, ...(store ? ["--store", store] : []), "--orphan-sweep-interval-ms", "200"], { QUIVER_LOG_LEVEL: "info" });
  t.after(() => server.stop());
  const live = await createTable(server.url, "live", 5);
  assert.equal(await removedCount(server), 0);

  const orphan = orphanBeside(live, 2 * hourMs);
  const fresh = orphanBeside(live, 0);
  await until(() => !existsSync(orphan), "the orphaned folder is removed while the server runs");

  assert.equal(existsSync(fresh), true, "a folder changed within the grace period is kept");
  assert.equal(existsSync(live), true);
  assert.equal(await countRows(server.url, "live"), 5, "the live table is untouched and the server still serves");
  // The log line reaches this process's pipe a moment after the folder is gone.
  await until(() => removalLines(server).length > 0, "the removal is logged");
  assert.deepEqual(removalLines(server).map((line) => line.location), [orphan]);
  assert.equal(await removedCount(server), 1);
});

test("quiver sweep removes an orphaned table folder now, beside a running server that sweeps only at start-up, and prints what it removed", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const store = await testStoreUrl(root);
  const target = ["--root", root, ...(store ? ["--store", store] : [])];
  const server = await spawnServe(["--port", "0", ...target, "--orphan-sweep-interval-ms", "0"]);
  t.after(() => server.stop());
  const live = await createTable(server.url, "live", 3);
  const orphan = orphanBeside(live, 2 * hourMs);
  const fresh = orphanBeside(live, 0);

  const run = await runCli(["sweep", ...target]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(existsSync(orphan), false, "the orphaned folder is removed");
  assert.equal(existsSync(fresh), true, "a folder changed within the grace period is kept");
  assert.match(run.stdout, new RegExp(`^removed ${orphan.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"));
  assert.match(run.stdout, /^1 orphaned table folder removed$/m);
  assert.equal(await countRows(server.url, "live"), 3);

  const again = await runCli(["sweep", ...target]);
  assert.match(again.stdout, /^0 orphaned table folders removed$/m);
});

test("PostgreSQL replicas: the periodic sweep runs on one replica at a time; while another process holds the sweep, quiver sweep and the replicas stand aside, then one replica removes the folder once", async (t) => {
  const storeUrl = await freshPostgresDatabase();
  const data = tempRoot("quiver-shared-data-");
  const roots = [tempRoot(), tempRoot(), tempRoot()];
  t.after(() => {
    for (const dir of [data, ...roots]) rmSync(dir, { recursive: true, force: true });
  });
  const replicas = await Promise.all(
    roots.slice(0, 2).map(async (root) => {
      const replica = await spawnServe(["--port", "0", "--root", root, "--store", storeUrl, "--data", data, "--orphan-sweep-interval-ms", "100"], { QUIVER_LOG_LEVEL: "info" });
      t.after(() => replica.stop());
      return replica;
    }),
  );
  const live = await createTable((replicas[0] as ServeProcess).url, "live", 2);

  // Another process sweeping: it holds the sweep's lock until released.
  const holder = await openStore(storeUrl, path.join(roots[2] as string, "unused.sqlite"));
  t.after(() => holder.close());
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding = false;
  const hold = () =>
    holder.tryWithLock(orphanSweepLock, async () => {
      holding = true;
      await released;
      return true;
    });
  // The replicas sweep every 100 ms: a try that meets one of their sweeps answers undefined, and
  // is tried again; a try that takes the lock stays pending until released.
  const deadline = Date.now() + 60_000;
  let held = hold();
  while (!holding && Date.now() < deadline) {
    const tried = await Promise.race([held, sleep(50).then(() => "pending" as const)]);
    if (tried === undefined) held = hold();
  }
  assert.ok(holding, "the lock is taken");

  const orphans = Array.from({ length: 6 }, () => orphanBeside(live, 2 * hourMs));
  const run = await runCli(["sweep", "--store", storeUrl, "--root", roots[2] as string, "--data", data]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /another process is sweeping this store now/);
  await sleep(1_000);
  assert.ok(orphans.every((orphan) => existsSync(orphan)), "nothing is removed while another process sweeps");

  release();
  assert.equal(await held, true);
  await until(() => orphans.every((orphan) => !existsSync(orphan)), "a replica removes the folders once the lock is free");
  // Several more rounds of both replicas: each folder was removed by exactly one of them.
  await sleep(500);
  await until(() => replicas.flatMap(removalLines).length >= orphans.length, "each removal is logged");
  const lines = replicas.flatMap(removalLines);
  assert.deepEqual(lines.map((line) => line.location).sort(), [...orphans].sort());
  let counted = 0;
  for (const replica of replicas) counted += await removedCount(replica);
  assert.equal(counted, orphans.length);
  for (const replica of replicas) assert.equal(await countRows(replica.url, "live"), 2);
});
