/**
 * A table fed one row at a time under automatic maintenance, against the same rows written at once:
 * - `quiver serve` (its own process, SQLite, local folder) with the default maintenance settings
 *   but a look every second (the default is 30 s; commits bring a look forward anyway);
 * - 2,000 single-row appends to `fed`, then a wait until no maintenance job is queued or running;
 * - `copy`: the same 2,000 rows in one write, then CompactTable: a freshly compacted copy;
 * - point-query p50 (`id = k`, limit 1) on each, alternating, and the bytes each table's folder
 *   holds, against the bytes of its live data (the copy's) and of every version in the retention
 *   window (by default all of them: a week).
 * With a retention (e.g. `20s`), versions older than it are removed as well, and the wait lasts until
 * they are: the bytes then compare with the live data alone.
 * Run `npm run build && node dist/bench/maintained-table.js [appends=2000] [queries=300] [retention]`.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { arrowStream } from "../test/helpers/arrow.js";
import { spawnServe } from "../test/helpers/cli-process.js";
import { tempRoot } from "../test/helpers/test-server.js";
import { percentiles } from "./measure.js";

const appends = Number(process.argv[2] ?? 2000);
const queries = Number(process.argv[3] ?? 300);
/** `--version-retention` of the server; the default is the server's own (7d). */
const retention = process.argv[4];

export interface MaintainedTableFigures {
  appends: number;
  fragmentsFed: number;
  pointP50Fed: number;
  pointP50Copy: number;
  bytesFed: number;
  bytesCopy: number;
}

/** Milliseconds of a duration written as the server's settings write it (`90s`, `5m`, `2h`, `7d`). */
function durationMs(text: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(text);
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1]) * { "": 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as "" | "s" | "m" | "h" | "d"];
}

/** Bytes of every file under `folder`. */
function bytesUnder(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

function rows(ids: number[]) {
  return arrowStream({ id: Int32Array.from(ids), score: Float64Array.from(ids, (id) => id / 3), label: ids.map((id) => `row ${id}`) });
}

export async function measureMaintainedTable(count = appends, queryCount = queries, retentionSetting = retention): Promise<MaintainedTableFigures> {
  const root = tempRoot("quiver-bench-maintained-");
  const server = await spawnServe(["--port", "0", "--root", root, ...(retentionSetting ? ["--version-retention", retentionSetting] : [])], {
    QUIVER_AUTO_MAINTENANCE: "on",
    QUIVER_AUTO_MAINTENANCE_INTERVAL_MS: "1000",
  });
  const post = async (route: string, body: unknown, arrow = false) => {
    const response = await fetch(server.url + route, {
      method: "POST",
      headers: { "content-type": arrow ? "application/vnd.apache.arrow.stream" : "application/json" },
      body: arrow ? (body as Uint8Array) : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
    return response;
  };
  try {
    await post("/v1/table/fed/create", rows([0]), true);
    for (let id = 1; id < count; id += 1) await post("/v1/table/fed/insert", rows([id]), true);
    // Settled: no maintenance job queued or running over five looks a second apart (the pass looks
    // every second), and with a retention, not before it has passed since the last append.
    const retentionMs = retentionSetting ? durationMs(retentionSetting) : 0;
    await sleep(retentionMs);
    for (let quiet = 0; quiet < 5; ) {
      const listed = (await (await post("/v1/jobs/list", { table: ["fed"] })).json()) as { jobs: { job_type: string; status: string }[] };
      const busy = listed.jobs.some((job) => job.job_type === "auto_maintenance" && (job.status === "queued" || job.status === "running"));
      quiet = busy ? 0 : quiet + 1;
      await sleep(1000);
    }
    await post("/v1/table/copy/create", rows(Array.from({ length: count }, (_, id) => id)), true);
    await post("/v1/table/copy/compact", {});

    const describe = async (name: string) => (await (await post(`/v1/table/${name}/describe`, {})).json()) as { location: string; stats: { num_fragments: number } };
    const [fed, copy] = [await describe("fed"), await describe("copy")];
    const times: Record<"fed" | "copy", number[]> = { fed: [], copy: [] };
    for (let i = 0; i < queryCount; i += 1) {
      for (const name of ["fed", "copy"] as const) {
        const started = performance.now();
        await (await post(`/v1/table/${name}/query`, { filter: `id = ${(i * 7) % count}`, k: 1, columns: { column_names: ["id", "score"] } })).arrayBuffer();
        times[name].push(performance.now() - started);
      }
    }
    const local = (location: string) => location.replace(/^file:\/\//, "");
    return {
      appends: count,
      fragmentsFed: fed.stats.num_fragments,
      pointP50Fed: percentiles(times.fed.slice(20)).p50,
      pointP50Copy: percentiles(times.copy.slice(20)).p50,
      bytesFed: bytesUnder(local(fed.location)),
      bytesCopy: bytesUnder(local(copy.location)),
    };
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureMaintainedTable();
  console.log(`| figure | measured | baseline | ratio | goal |`);
  console.log(`|---|---|---|---|---|`);
  console.log(`| fragments of a table after ${figures.appends} single-row appends | ${figures.fragmentsFed} | 1 | | a handful |`);
  console.log(`| point-query p50, maintained table ÷ compacted copy | ${figures.pointP50Fed.toFixed(2)} ms | ${figures.pointP50Copy.toFixed(2)} ms | ${(figures.pointP50Fed / figures.pointP50Copy).toFixed(2)} | ≤ 1.2 |`);
  console.log(`| bytes on disk, maintained table ÷ compacted copy (its live data) | ${figures.bytesFed} | ${figures.bytesCopy} | ${(figures.bytesFed / figures.bytesCopy).toFixed(2)} | live data + the retention window |`);
}
