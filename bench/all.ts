/**
 * `npm run bench`: every request-path figure with its baseline from the same run, its ratio and
 * its goal, as one Markdown table. Each part also runs alone (see its file).
 * Run `npm run bench` or `node dist/bench/all.js [uploadMiB=1024] [objectStoreRows=100000]`.
 */
import os from "node:os";
import { measureAuthz } from "./authz.js";
import { measureCatalogRequests } from "./catalog-requests.js";
import { measureColdStart } from "./cold-start.js";
import { measureStartUp } from "./start-up.js";
import { measureMemory } from "./memory.js";
import { measureObjectStoreLatency } from "./object-store-latency.js";
import { measureRequestPath } from "./request-path.js";

const uploadMiB = Number(process.argv[2] ?? 1024);

interface Row {
  figure: string;
  measured: string;
  baseline: string;
  ratio: string;
  goal: string;
  met: boolean;
}

const rows: Row[] = [];
const f = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));
const add = (figure: string, measured: number, unit: string, baseline: number | undefined, goal: string, met: boolean) =>
  rows.push({
    figure,
    measured: `${f(measured)} ${unit}`,
    baseline: baseline === undefined ? "" : `${f(baseline)} ${unit}`,
    ratio: baseline === undefined ? "" : (measured / baseline).toFixed(2),
    goal,
    met,
  });

const started = Date.now();
const path = await measureRequestPath(50_000, 64, 300);
add("point query p50 (`id = k`, limit 1), REST ÷ in-process", path.viaRest.point.p50, "ms", path.inProcess.point.p50, "≤ 1.3", path.viaRest.point.p50 / path.inProcess.point.p50 <= 1.3);
add("whole-table scan with projection and filter (QueryTable), REST ÷ in-process", path.viaRest.scanMBps, "MB/s", path.inProcess.scanMBps, "≥ 0.8", path.viaRest.scanMBps / path.inProcess.scanMBps >= 0.8);
add("top-10 vector search p50, REST ÷ in-process", path.viaRest.vector.p50, "ms", path.inProcess.vector.p50, "≤ 1.3", path.viaRest.vector.p50 / path.inProcess.vector.p50 <= 1.3);
add("ingest, 50k rows × 64-dim, REST ÷ in-process", path.viaRest.ingestMBps, "MB/s", path.inProcess.ingestMBps, "≥ 0.8", path.viaRest.ingestMBps / path.inProcess.ingestMBps >= 0.8);

const memory = await measureMemory(uploadMiB);
add(`upload of ${uploadMiB} MiB of Arrow: peak RSS above idle`, memory.uploadPeakAboveIdleMiB, "MiB", undefined, "≤ 256 MiB", memory.uploadPeakAboveIdleMiB <= 256);
add(
  `multipart upload of ${uploadMiB} MiB in 64 MiB parts, one complete: peak RSS above idle`,
  memory.multipartPeakAboveIdleMiB,
  "MiB",
  undefined,
  "≤ half the upload",
  memory.multipartPeakAboveIdleMiB <= uploadMiB / 2,
);
add(`query result of ${memory.resultMiB.toFixed(0)} MiB streamed: peak RSS above idle`, memory.queryPeakAboveIdleMiB, "MiB", undefined, "≤ 256 MiB", memory.queryPeakAboveIdleMiB <= 256);

const catalog = await measureCatalogRequests();
add("managed-version commits/s, one table, HTTP (baseline: catalog in-process)", catalog.commitsHttp, "/s", catalog.commitsInProcess, "≥ 1,000/s", catalog.commitsHttp >= 1000);
add("describe_table requests/s ÷ bare Fastify JSON route", catalog.describesPerSecond, "/s", catalog.bareFastifyPerSecond, "≥ 0.6", catalog.describesPerSecond / catalog.bareFastifyPerSecond >= 0.6);
const [small, large] = catalog.listPageMs as [{ tables: number; p50: number }, { tables: number; p50: number }];
add(`list_tables page of 100 p50, ${large.tables} tables (baseline: ${small.tables} tables)`, large.p50, "ms", small.p50, "< 5 ms, flat", large.p50 < 5 && large.p50 / small.p50 < 2);

const latencyRows = Number(process.argv[3] ?? 100_000);
const latency = await measureObjectStoreLatency(latencyRows, 64, 60);
// The same table after CompactTable (one fragment instead of ten), as maintenance leaves a served table.
const compacted = await measureObjectStoreLatency(latencyRows, 64, 60, { delays: [20], compact: true, sides: ["cached", "cached-interval"] });
for (const [figures, label, said] of [
  [latency, "Azurite +20 ms, cache on", "cache on"],
  [latency, "Azurite +20 ms, cache on, read consistency 1 s", "cache on, read consistency 1 s"],
  [compacted, "Azurite +20 ms, cache on, read consistency 1 s", "cache on, read consistency 1 s, compacted table"],
] as const) {
  const side = figures.remote.find((candidate) => candidate.label === label);
  if (!side) continue;
  for (const [name, kind] of [["point lookup", "point"], ["top-10 vector search", "vector"], ["filtered scan, 100 rows", "filtered"]] as const) {
    const local = (side.baseline ?? figures.local)[kind].p50;
    add(`warm ${name} p50, object store +20 ms, ${said} ÷ local folder`, side[kind].p50, "ms", local, "≤ 1.5", side[kind].p50 / local <= 1.5);
  }
  const perQuery = (side.point.requestsPerQuery + side.vector.requestsPerQuery + side.filtered.requestsPerQuery) / 3;
  add(`store requests per warm query, +20 ms, ${said}`, perQuery, "", undefined, "≤ 1", perQuery <= 1);
  add(`first vector search after a restart, +20 ms, ${said}`, side.firstVectorMs, "ms", undefined, "≤ 300 ms", side.firstVectorMs <= 300);
}

const authz = await measureAuthz(10_000, 20_000, undefined);
add(`grant check of a request, ${authz.grants} grants`, authz.checkMicros, "µs", undefined, "≤ 50 µs", authz.checkMicros <= 50);
add("DescribeTable/s, grant-only key ÷ read key", authz.describesPerSecondByGrant, "/s", authz.describesPerSecondByRole, "≥ 0.95", authz.describesPerSecondByGrant / authz.describesPerSecondByRole >= 0.95);

// Start-up goals: under a second on Node 22 (which keeps compiled code between starts), 1.5 s on
// Node 20; `npm start`, which first checks that the build is fresh, at most half a second more.
const startGoalMs = Number(process.versions.node.split(".")[0]) >= 22 ? 1000 : 1500;
const coldStart = await measureColdStart(7);
add("quiver serve: spawn to \"listening\" (median of 7)", coldStart, "ms", undefined, `< ${f(startGoalMs)} ms`, coldStart < startGoalMs);
const npmStart = await measureStartUp("npm", ["start", "--"], 7);
add("npm start: spawn to \"listening\" (median of 7), ÷ quiver serve", npmStart, "ms", coldStart, "≤ quiver serve + 500 ms", npmStart <= coldStart + 500);

console.log(`Node ${process.version}, ${os.cpus().length} CPU(s), ${os.cpus()[0]?.model ?? "unknown CPU"}; ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
console.log("| figure | measured | baseline | ratio | goal | met |");
console.log("|---|---|---|---|---|---|");
for (const row of rows) console.log(`| ${row.figure} | ${row.measured} | ${row.baseline} | ${row.ratio} | ${row.goal} | ${row.met ? "yes" : "no"} |`);
