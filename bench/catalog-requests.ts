/**
 * Catalog requests through `quiver serve` (its own process, SQLite, managed versioning):
 * - commits/s of managed versions on one table, one writer (each version the previous plus one),
 *   against the same commits through the catalog in-process;
 * - DescribeTable requests/s on a table with data, 32 concurrent keep-alive connections, against a
 *   bare Fastify JSON route in a process of its own, driven the same way;
 * - ListTables latency for pages of 100, walking a namespace of 1,000 and of 100,000 tables.
 * Run `npm run build && node dist/bench/catalog-requests.js [commits=2000] [requests=20000]`.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { Catalog } from "../src/catalog/catalog.js";
import { openLocalRoot } from "../src/catalog/runtime/local-root.js";
import { joinLocation } from "../src/storage/locations.js";
import { arrowStream } from "../test/helpers/arrow.js";
import { type ServeProcess, spawnServe } from "../test/helpers/cli-process.js";
import { tempRoot } from "../test/helpers/test-server.js";
import { jsonGetter, jsonPoster, measureRequests, percentile } from "./measure.js";
import { stageManifest } from "./version-commits.js";

const commits = Number(process.argv[2] ?? 2000);
const requests = Number(process.argv[3] ?? 20_000);
const concurrency = 32;
const post = jsonPoster(concurrency);
const get = jsonGetter(1);

export interface CatalogFigures {
  commitsHttp: number;
  commitsInProcess: number;
  describesPerSecond: number;
  bareFastifyPerSecond: number;
  /** Median ms of one ListTables page of 100, by namespace size. */
  listPageMs: { tables: number; p50: number }[];
}

/** Commits `count` versions of one table, one after the other; answers commits/s. */
async function sequentialCommits(count: number, location: string, commit: (version: number, manifestPath: string) => Promise<void>): Promise<number> {
  // Staged before the clock starts: writing the manifest is the client's work, not the catalog's.
  const staged = Array.from({ length: count }, (_, i) => stageManifest(location, i + 1));
  const started = performance.now();
  for (let version = 1; version <= count; version += 1) await commit(version, staged[version - 1] as string);
  return count / ((performance.now() - started) / 1000);
}

async function commitsInProcess(count: number): Promise<number> {
  const root = tempRoot("quiver-bench-catalog-");
  const local = await openLocalRoot(root, { managedVersioning: true });
  try {
    const catalog = (await local.registry.catalogFor("default")) as Catalog;
    const warm = (await catalog.declareTable({ id: ["warm"] })).location as string;
    await sequentialCommits(200, warm, async (version, manifest_path) => void (await catalog.createTableVersion({ id: ["warm"], version, manifest_path })));
    const location = (await catalog.declareTable({ id: ["c"] })).location as string;
    return await sequentialCommits(count, location, async (version, manifest_path) => void (await catalog.createTableVersion({ id: ["c"], version, manifest_path })));
  } finally {
    await local.close();
    rmSync(root, { recursive: true, force: true });
  }
}

async function commitsOverHttp(url: string, count: number): Promise<number> {
  const commit = (name: string) => async (version: number, manifestPath: string) => {
    await post(url, `/v1/table/${name}/version/create`, { version, manifest_path: manifestPath, naming_scheme: "V2" });
  };
  const declare = async (name: string) => ((await post(url, `/v1/table/${name}/declare`, {})) as { location: string }).location;
  await sequentialCommits(200, await declare("warm"), commit("warm"));
  return sequentialCommits(count, await declare("c"), commit("c"));
}

/** The bare Fastify route's requests/s, its process started and stopped here. */
async function bareFastify(total: number): Promise<number> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "bare-fastify.js");
  const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1] as string);
      });
      child.once("exit", () => reject(new Error(`bare Fastify exited: ${output}`)));
    });
    const describe = () => post(url, "/v1/table/d/describe", {}).then(() => undefined);
    await measureRequests(2000, concurrency, describe);
    return await measureRequests(total, concurrency, describe);
  } finally {
    child.kill("SIGKILL");
  }
}

/** Adds `count` declared tables named `t000000`… straight into the store of the stopped server's root. */
async function populateTables(root: string, count: number, from: number): Promise<void> {
  const local = await openLocalRoot(root);
  try {
    const tablesDir = joinLocation(local.dataLocation, "default", "tables");
    const now = Date.now();
    for (let start = from; start < from + count; start += 5000) {
      await local.store.transaction(async (tx) => {
        for (let i = start; i < Math.min(from + count, start + 5000); i += 1) {
          const id = randomUUID();
          await tx.insertTable({
            id,
            database: "default",
            namespace_path: "",
            name: `t${String(i).padStart(6, "0")}`,
            location: joinLocation(tablesDir, `${id}.lance`),
            managed_location: 1,
            properties: {},
            storage_options: {},
            created_at: now,
            updated_at: now,
          });
        }
      });
    }
  } finally {
    await local.close();
  }
}

/** Walks every page of 100 of the root namespace `rounds` times; the median page's latency in ms. */
async function listPages(url: string, rounds: number): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    let token: string | undefined;
    do {
      const query = new URLSearchParams({ limit: "100", ...(token ? { page_token: token } : {}) });
      const started = performance.now();
      const page = (await get(`${url}/v1/namespace/%24/table/list?${query}`)) as { page_token?: string | null };
      times.push(performance.now() - started);
      token = page.page_token ?? undefined;
    } while (token);
  }
  times.sort((a, b) => a - b);
  return percentile(times, 50);
}

export async function measureCatalogRequests(): Promise<CatalogFigures> {
  const root = tempRoot("quiver-bench-catalog-");
  let server: ServeProcess | undefined;
  const serve = async () => (server = await spawnServe(["--port", "0", "--root", root, "--managed-versioning"]));
  try {
    await serve();
    const url = (server as ServeProcess).url;
    const commitsHttp = await commitsOverHttp(url, commits);
    await fetch(`${url}/v1/table/d/create`, { method: "POST", headers: { "content-type": "application/vnd.apache.arrow.stream" }, body: arrowStream({ id: Int32Array.from([1, 2, 3]) }) });
    const describe = () => post(url, "/v1/table/d/describe", {}).then(() => undefined);
    await measureRequests(2000, concurrency, describe);
    const describesPerSecond = await measureRequests(requests, concurrency, describe);
    const listPageMs: CatalogFigures["listPageMs"] = [];
    let populated = 0;
    for (const tables of [1000, 100_000]) {
      await (server as ServeProcess).stop("SIGTERM");
      await populateTables(root, tables - populated, populated);
      populated = tables;
      const restarted = await serve();
      listPageMs.push({ tables, p50: await listPages(restarted.url, tables > 10_000 ? 1 : 20) });
    }
    return { commitsHttp, commitsInProcess: await commitsInProcess(commits), describesPerSecond, bareFastifyPerSecond: await bareFastify(requests), listPageMs };
  } finally {
    await server?.stop("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureCatalogRequests();
  console.log(JSON.stringify(figures, null, 2));
}
