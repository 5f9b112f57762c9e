/**
 * Warm queries on a table whose data lives on an object store a set latency away (Azurite behind
 * the latency proxy, at 0 ms and 20 ms per request), with the object cache on and off, beside the
 * same server on a local folder, in one run, all through the LanceDB client in managed-deployment
 * mode. Figures: p50 and p99 of a point lookup (`id = k`, BTREE index), a top-10 vector search on an
 * IVF_PQ index and a filtered scan of 100 rows (a range of `id`); store requests per warm query, by kind, as the proxy saw
 * them; the first vector search after a restart (its time and requests). Each object-store side's
 * queries take turns with the local folder's, query by query, and its ratios are to those.
 * Run `npm run build && node dist/bench/object-store-latency.js [rows=100000] [dim=64] [queries=60]`;
 * `QUIVER_BENCH_DELAYS` (milliseconds, comma-separated), `QUIVER_BENCH_SIDES` (`uncached`,
 * `blocks`, `blocks-interval`, `cached`, `cached-interval`) and `QUIVER_BENCH_COMPACT=1` (both tables compacted first) narrow it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import * as lancedb from "@lancedb/lancedb";
import { tableFromIPC } from "apache-arrow";
import { type Runtime, startServer } from "../src/cli/runtime.js";
import { startAzurite } from "../test/helpers/azurite.js";
import { type LatencyProxy, type ProxiedRequest, startLatencyProxy } from "../test/helpers/latency-proxy.js";
import { percentiles } from "./measure.js";
import { vectorRowsStream } from "./vector-rows.js";

const batchRows = 10_000;

interface Timing {
  p50: number;
  p99: number;
  /** Store requests per query, and their kinds over all queries. */
  requestsPerQuery: number;
  kinds: Record<string, number>;
}

type QueryKind = "point" | "vector" | "filtered";
const queryKinds: readonly QueryKind[] = ["point", "vector", "filtered"];

export interface LatencySide {
  label: string;
  point: Timing;
  vector: Timing;
  filtered: Timing;
  /** The first vector search after the server started, and the store requests it made. */
  firstVectorMs: number;
  firstVectorRequests: number;
  /**
   * For a side with local copies: by how long after its first query a copy of the table answered
   * (looked at after the warm-up queries, then every 100 ms; a copy left on disk by an earlier
   * side answers at the first look).
   */
  copyReadyMs?: number;
  /**
   * The local folder's timings in the same loops, its queries taking turns with this side's, so
   * a change in the machine's load weighs on both: what this side's ratios are taken against.
   */
  baseline?: Record<QueryKind, Timing>;
}

export interface ObjectStoreLatencyFigures {
  rows: number;
  dim: number;
  queries: number;
  /** Whether both tables were compacted (CompactTable) before the queries: one fragment instead of one per upload. */
  compacted: boolean;
  local: LatencySide;
  remote: LatencySide[];
}

function kindOf(request: ProxiedRequest): string {
  if (request.query.get("comp") === "list") return "listing";
  if (/\/data\/[^/]+\.lance$/.test(request.path) || request.path.includes("/_deletions/")) return "data";
  if (request.path.includes("/_indices/")) return "index";
  if (/\/_versions\/\d+\.manifest$/.test(request.path)) return "manifest";
  return "other";
}

type Server = Runtime & { url: string };

function connect(server: Server): Promise<lancedb.Connection> {
  return lancedb.connect("db://bench", { apiKey: "bench", hostOverride: server.url });
}

/** The three warm queries, each by its index in the loop: a point lookup, a top-10 vector search, a range of 100 ids. */
function queriesOn(table: lancedb.Table, rows: number, dim: number): Record<QueryKind, (i: number) => Promise<unknown>> {
  const probe = (i: number) => Array.from({ length: dim }, (_, j) => Math.sin(((i * 7919) % rows) * dim + j + 0.5));
  return {
    point: (i) => table.query().where(`id = ${(i * 7919) % rows}`).limit(1).toArray(),
    vector: (i) => table.vectorSearch(probe(i)).limit(10).toArray(),
    filtered: (i) => {
      const from = ((i * 7919) % (rows - 100)) | 0;
      return table.query().where(`id >= ${from} AND id < ${from + 100}`).toArray();
    },
  };
}

/** The first vector search on a freshly started server (its time, and the store requests it made), then a few of each query to warm up. */
async function firstSearch(queries: Record<QueryKind, (i: number) => Promise<unknown>>, proxy: LatencyProxy | undefined): Promise<{ firstVectorMs: number; firstVectorRequests: number }> {
  proxy?.reset();
  const started = performance.now();
  await queries.vector(0);
  const firstVectorMs = performance.now() - started;
  const firstVectorRequests = proxy?.requests.length ?? 0;
  for (let i = 0; i < 5; i += 1) for (const kind of queryKinds) await queries[kind](i);
  return { firstVectorMs, firstVectorRequests };
}

/**
 * `queries` warm queries of one kind on each side in turn (query i on every side, then i + 1);
 * the proxy counts only the store requests of the object-store side.
 */
async function loop(sides: readonly ((i: number) => Promise<unknown>)[], queries: number, proxy: LatencyProxy | undefined): Promise<Timing[]> {
  proxy?.reset();
  const times = sides.map(() => [] as number[]);
  for (let i = 0; i < queries; i += 1) {
    for (const [side, query] of sides.entries()) {
      const started = performance.now();
      await query(i);
      times[side]?.push(performance.now() - started);
    }
  }
  const kinds: Record<string, number> = {};
  for (const request of proxy?.requests ?? []) kinds[kindOf(request)] = (kinds[kindOf(request)] ?? 0) + 1;
  return times.map((sideTimes) => ({ ...percentiles(sideTimes), requestsPerQuery: (proxy?.requests.length ?? 0) / queries, kinds }));
}

/**
 * Waits until a local copy of the bench table answers its queries (the warm state of a table the
 * cache copies); returns how long after `since` it did.
 */
async function untilCopied(server: Server, since: number): Promise<number> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${server.url}/v1/table/bench/query`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ k: 1, vector: null, filter: "id = 0", columns: ["id"] }) });
    await response.arrayBuffer();
    if (response.headers.get("x-quiver-read-from") === "local-copy") return performance.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("no local copy of the bench table answered within two minutes");
}

/** The local folder alone: its first vector search after a start, and its warm queries. */
async function measureLocal(server: Server, rows: number, dim: number, queries: number): Promise<LatencySide> {
  const db = await connect(server);
  const table = queriesOn(await db.openTable("bench"), rows, dim);
  const first = await firstSearch(table, undefined);
  const timings = {} as Record<QueryKind, Timing>;
  for (const kind of queryKinds) [timings[kind]] = (await loop([table[kind]], queries, undefined)) as [Timing];
  db.close();
  return { label: "local folder", ...timings, ...first };
}

/** An object-store side, its warm queries taking turns with the local folder's. */
async function measureRemote(label: string, server: Server, local: Server, proxy: LatencyProxy, rows: number, dim: number, queries: number, copies: boolean): Promise<LatencySide> {
  const [remoteDb, localDb] = await Promise.all([connect(server), connect(local)]);
  const remoteTable = queriesOn(await remoteDb.openTable("bench"), rows, dim);
  const localTable = queriesOn(await localDb.openTable("bench"), rows, dim);
  const started = performance.now();
  const first = await firstSearch(remoteTable, proxy);
  const copyReadyMs = copies ? await untilCopied(server, started) : undefined;
  const timings = {} as Record<QueryKind, Timing>;
  const baseline = {} as Record<QueryKind, Timing>;
  for (const kind of queryKinds) {
    // The local side's requests never reach the proxy: its counts are the object store's.
    const [remote, alongside] = (await loop([remoteTable[kind], localTable[kind]], queries, proxy)) as [Timing, Timing];
    timings[kind] = remote;
    baseline[kind] = { ...alongside, requestsPerQuery: 0, kinds: {} };
  }
  remoteDb.close();
  localDb.close();
  return { label, ...timings, ...first, baseline, ...(copyReadyMs === undefined ? {} : { copyReadyMs }) };
}

/** Creates the bench table (uploads of 10,000 rows, then an IVF_PQ index on the vectors and a BTREE on `id`) through `server`. */
async function createTable(server: Server, rows: number, dim: number): Promise<void> {
  const db = await connect(server);
  const uploads = Array.from({ length: Math.ceil(rows / batchRows) }, (_, i) => tableFromIPC(vectorRowsStream(i * batchRows, Math.min(batchRows, rows - i * batchRows), dim)));
  const table = await db.createTable("bench", uploads[0] as never);
  for (const upload of uploads.slice(1)) await table.add(upload as never);
  await table.createIndex("vector", { config: lancedb.Index.ivfPq({ numPartitions: Math.max(1, Math.round(Math.sqrt(rows) / 4)), numSubVectors: Math.max(1, dim / 8) }) });
  // Point lookups and range filters on `id` go through a scalar index, as a table served this way would have.
  await table.createIndex("id", { config: lancedb.Index.btree() });
  db.close();
}

/**
 * The sides measured on the object store: without the cache; with its blocks only (every read
 * through its proxy); with the whole cache (a local copy of the table, read as a local folder once
 * made); each cached side also with a read consistency interval. The bench table is written only
 * through Quiver, so under the default (strong) reads answer from the catalog's head and list
 * nothing; they would list the store's versions, alongside the read, only while someone else could
 * commit (docs/read-freshness.md).
 */
const variants: readonly { name: string; cached: boolean; copies: boolean; intervalMs: number | null }[] = [
  { name: "uncached", cached: false, copies: false, intervalMs: null },
  { name: "blocks", cached: true, copies: false, intervalMs: null },
  { name: "blocks-interval", cached: true, copies: false, intervalMs: 1000 },
  { name: "cached", cached: true, copies: true, intervalMs: null },
  { name: "cached-interval", cached: true, copies: true, intervalMs: 1000 },
];

/** The sides named in `QUIVER_BENCH_SIDES` (comma-separated variant names), or `fallback` (all of them). */
function chosenVariants(fallback: readonly string[] = variants.map((variant) => variant.name)): typeof variants {
  const fromEnvironment = process.env.QUIVER_BENCH_SIDES?.split(",").map((name) => name.trim()).filter(Boolean);
  const named = fromEnvironment?.length ? fromEnvironment : fallback;
  const unknown = named.filter((name) => !variants.some((variant) => variant.name === name));
  if (unknown.length) throw new Error(`QUIVER_BENCH_SIDES names ${unknown.join(", ")}; the sides are ${variants.map((variant) => variant.name).join(", ")}`);
  return variants.filter((variant) => named.includes(variant.name));
}

/** The store latencies named in `QUIVER_BENCH_DELAYS` (comma-separated milliseconds), or `fallback`. */
function chosenDelays(fallback: readonly number[]): readonly number[] {
  const named = process.env.QUIVER_BENCH_DELAYS?.split(",").map((text) => text.trim()).filter(Boolean);
  if (!named?.length) return fallback;
  const delays = named.map(Number);
  if (delays.some((delay) => !Number.isFinite(delay) || delay < 0)) throw new Error(`QUIVER_BENCH_DELAYS must be milliseconds, got ${process.env.QUIVER_BENCH_DELAYS}`);
  return delays;
}

/** Sets the default database's read-consistency interval (null: strong, the default). */
async function setReadConsistency(server: Server, intervalMs: number | null): Promise<void> {
  const response = await fetch(`${server.url}/v1/admin/databases/default/settings`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ read_consistency_interval_ms: intervalMs }),
  });
  if (!response.ok) throw new Error(`setting the read consistency: HTTP ${response.status} ${await response.text()}`);
}

/** Compacts the bench table through `server` (CompactTable, waiting for it): the layout maintenance leaves. */
async function compactTable(server: Server): Promise<void> {
  const response = await fetch(`${server.url}/v1/table/bench/compact`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  if (!response.ok) throw new Error(`compacting the bench table: HTTP ${response.status} ${await response.text()}`);
}

export interface LatencyOptions {
  /** Store latencies to measure at, in milliseconds (`QUIVER_BENCH_DELAYS` overrides). */
  delays?: readonly number[];
  /** Compact both tables before measuring (`QUIVER_BENCH_COMPACT=1` sets it). */
  compact?: boolean;
  /** The object-store sides to measure, by name (`QUIVER_BENCH_SIDES` overrides); default all. */
  sides?: readonly string[];
}

export async function measureObjectStoreLatency(rows = 100_000, dim = 64, queries = 60, { delays = [0, 20], compact = process.env.QUIVER_BENCH_COMPACT === "1", sides }: LatencyOptions = {}): Promise<ObjectStoreLatencyFigures> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "quiver-bench-latency-"));
  const azurite = await startAzurite({ location: path.join(folder, "blobs") });
  const proxy = await startLatencyProxy(`http://127.0.0.1:${azurite.port}`);
  const serve = (root: string, extra: Partial<Parameters<typeof startServer>[0]> = {}) => startServer({ root, host: "127.0.0.1", port: 0, logger: false, ...extra });
  try {
    const localRoot = path.join(folder, "local");
    let local = await serve(localRoot);
    await createTable(local, rows, dim);
    if (compact) await compactTable(local);
    await local.close();
    local = await serve(localRoot);
    const localSide = await measureLocal(local, rows, dim, queries);

    const remoteRoot = path.join(folder, "azure");
    const remoteConfig = { data: "az://bench/data", storageOptions: { ...azurite.storageOptions, azure_endpoint: `${proxy.origin}/devstoreaccount1` } };
    const cacheDir = path.join(folder, "object-cache");
    const creator = await serve(remoteRoot, { ...remoteConfig, objectCache: { dir: cacheDir, maxBytes: 0 } });
    await createTable(creator, rows, dim);
    if (compact) await compactTable(creator);
    await creator.close();

    const remote: LatencySide[] = [];
    for (const delay of chosenDelays(delays)) {
      for (const { cached, copies, intervalMs } of chosenVariants(sides)) {
        proxy.delayMs = delay;
        const server = await serve(remoteRoot, { ...remoteConfig, objectCache: { dir: cacheDir, maxBytes: cached ? 10 * 1024 ** 3 : 0, ...(copies ? {} : { copyBytes: 0 }) } });
        await setReadConsistency(server, intervalMs);
        const freshness = intervalMs === null ? "" : `, read consistency ${intervalMs / 1000} s`;
        const cache = !cached ? "off" : copies ? "on" : "blocks only";
        remote.push(await measureRemote(`Azurite +${delay} ms, cache ${cache}${freshness}`, server, local, proxy, rows, dim, queries, copies));
        await server.close();
      }
    }
    await local.close();
    return { rows, dim, queries, compacted: compact, local: localSide, remote };
  } finally {
    await proxy.close();
    await azurite.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The figures as a Markdown table: each side's p50/p99 and its ratio to the local folder. */
export function latencyTable(figures: ObjectStoreLatencyFigures): string {
  const f = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
  const kinds = (timing: Timing) => Object.entries(timing.kinds).map(([kind, count]) => `${kind} ${(count / figures.queries).toFixed(1)}`).join(", ") || "none";
  const lines = [
    `${figures.rows} rows × ${figures.dim} dims${figures.compacted ? ", compacted into one fragment" : `, one fragment per upload of ${batchRows}`}, IVF_PQ on the vectors, BTREE on id; ${figures.queries} warm queries of each kind; LanceDB client, managed-deployment mode;`,
    "each object-store side's ratio is to the local folder's p50 in the same loop (queries in turn, the local p50 after the ×)",
    "",
    "| side | point p50 / p99 ms (× local) | vector p50 / p99 ms (× local) | filtered 100 rows p50 / p99 ms (× local) | store requests per warm query: point; vector; filtered | first vector search after start |",
    "|---|---|---|---|---|---|",
  ];
  const cell = (timing: Timing, base: Timing) => (timing === base ? `${f(timing.p50)} / ${f(timing.p99)}` : `${f(timing.p50)} / ${f(timing.p99)} (${(timing.p50 / base.p50).toFixed(2)}× ${f(base.p50)})`);
  for (const side of [figures.local, ...figures.remote]) {
    const base = side.baseline ?? { point: side.point, vector: side.vector, filtered: side.filtered };
    const requests = side === figures.local ? "–" : [side.point, side.vector, side.filtered].map((timing) => `${timing.requestsPerQuery.toFixed(1)} (${kinds(timing)})`).join("; ");
    const copied = side.copyReadyMs === undefined ? "" : `; copy answering within ${f(side.copyReadyMs)} ms`;
    const first = side === figures.local ? `${f(side.firstVectorMs)} ms` : `${f(side.firstVectorMs)} ms, ${side.firstVectorRequests} requests${copied}`;
    lines.push(`| ${side.label} | ${cell(side.point, base.point)} | ${cell(side.vector, base.vector)} | ${cell(side.filtered, base.filtered)} | ${requests} | ${first} |`);
  }
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [rows, dim, queries] = [Number(process.argv[2] ?? 100_000), Number(process.argv[3] ?? 64), Number(process.argv[4] ?? 60)];
  console.log(latencyTable(await measureObjectStoreLatency(rows, dim, queries)));
}
