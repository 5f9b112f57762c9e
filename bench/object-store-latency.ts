/**
 * Warm queries on a table whose data lives on an object store a set latency away (Azurite behind
 * the latency proxy, at 0 ms and 20 ms per request), with the object cache on and off, beside the
 * same server on a local folder, in one run, all through the LanceDB client in managed-deployment
 * mode. Figures: p50 and p99 of a point lookup (`id = k`, BTREE index), a top-10 vector search on an
 * IVF_PQ index and a filtered scan of 100 rows (a range of `id`); store requests per warm query, by kind, as the proxy saw
 * them; the first vector search after a restart (its time and requests).
 * Run `npm run build && node dist/bench/object-store-latency.js [rows=100000] [dim=64] [queries=60]`.
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

export interface LatencySide {
  label: string;
  point: Timing;
  vector: Timing;
  filtered: Timing;
  /** The first vector search after the server started, and the store requests it made. */
  firstVectorMs: number;
  firstVectorRequests: number;
}

export interface ObjectStoreLatencyFigures {
  rows: number;
  dim: number;
  queries: number;
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

/** Warm queries of each kind; the proxy's requests counted over each kind's loop. */
async function measureSide(label: string, server: Server, proxy: LatencyProxy | undefined, rows: number, dim: number, queries: number): Promise<LatencySide> {
  const db = await connect(server);
  const table = await db.openTable("bench");
  const probe = (i: number) => Array.from({ length: dim }, (_, j) => Math.sin(((i * 7919) % rows) * dim + j + 0.5));
  proxy?.reset();
  let started = performance.now();
  await table.vectorSearch(probe(0)).limit(10).toArray();
  const firstVectorMs = performance.now() - started;
  const firstVectorRequests = proxy?.requests.length ?? 0;
  for (let i = 0; i < 5; i += 1) {
    await table.query().where(`id = ${i}`).limit(1).toArray();
    await table.vectorSearch(probe(i)).limit(10).toArray();
    await table.query().where(`id >= ${i * 100} AND id < ${i * 100 + 100}`).toArray();
  }
  const run = async (query: (i: number) => Promise<unknown>): Promise<Timing> => {
    proxy?.reset();
    const times: number[] = [];
    for (let i = 0; i < queries; i += 1) {
      started = performance.now();
      await query(i);
      times.push(performance.now() - started);
    }
    const kinds: Record<string, number> = {};
    for (const request of proxy?.requests ?? []) kinds[kindOf(request)] = (kinds[kindOf(request)] ?? 0) + 1;
    return { ...percentiles(times), requestsPerQuery: (proxy?.requests.length ?? 0) / queries, kinds };
  };
  const point = await run((i) => table.query().where(`id = ${(i * 7919) % rows}`).limit(1).toArray());
  const vector = await run((i) => table.vectorSearch(probe(i)).limit(10).toArray());
  const filtered = await run((i) => {
    const from = ((i * 7919) % (rows - 100)) | 0;
    return table.query().where(`id >= ${from} AND id < ${from + 100}`).toArray();
  });
  db.close();
  return { label, point, vector, filtered, firstVectorMs, firstVectorRequests };
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
 * The sides measured on the object store: without the cache, with it, and with it and a read
 * consistency interval (reads answer from the kept table without listing the store's versions
 * within it; by default every read lists them, to see commits made around Quiver at once).
 */
const variants: readonly { cached: boolean; intervalMs: number | null }[] = [
  { cached: false, intervalMs: null },
  { cached: true, intervalMs: null },
  { cached: true, intervalMs: 1000 },
];

/** Sets the default database's read-consistency interval (null: strong, the default). */
async function setReadConsistency(server: Server, intervalMs: number | null): Promise<void> {
  const response = await fetch(`${server.url}/v1/admin/databases/default/settings`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ read_consistency_interval_ms: intervalMs }),
  });
  if (!response.ok) throw new Error(`setting the read consistency: HTTP ${response.status} ${await response.text()}`);
}

export async function measureObjectStoreLatency(rows = 100_000, dim = 64, queries = 60, delays: readonly number[] = [0, 20]): Promise<ObjectStoreLatencyFigures> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "quiver-bench-latency-"));
  const azurite = await startAzurite({ location: path.join(folder, "blobs") });
  const proxy = await startLatencyProxy(`http://127.0.0.1:${azurite.port}`);
  const serve = (root: string, extra: Partial<Parameters<typeof startServer>[0]> = {}) => startServer({ root, host: "127.0.0.1", port: 0, logger: false, ...extra });
  try {
    const localRoot = path.join(folder, "local");
    let local = await serve(localRoot);
    await createTable(local, rows, dim);
    await local.close();
    local = await serve(localRoot);
    const localSide = await measureSide("local folder", local, undefined, rows, dim, queries);
    await local.close();

    const remoteRoot = path.join(folder, "azure");
    const remoteConfig = { data: "az://bench/data", storageOptions: { ...azurite.storageOptions, azure_endpoint: `${proxy.origin}/devstoreaccount1` } };
    const cacheDir = path.join(folder, "object-cache");
    const creator = await serve(remoteRoot, { ...remoteConfig, objectCache: { dir: cacheDir, maxBytes: 0 } });
    await createTable(creator, rows, dim);
    await creator.close();

    const remote: LatencySide[] = [];
    for (const delay of delays) {
      for (const { cached, intervalMs } of variants) {
        proxy.delayMs = delay;
        const server = await serve(remoteRoot, { ...remoteConfig, objectCache: { dir: cacheDir, maxBytes: cached ? 10 * 1024 ** 3 : 0 } });
        await setReadConsistency(server, intervalMs);
        const freshness = intervalMs === null ? "" : `, read consistency ${intervalMs / 1000} s`;
        remote.push(await measureSide(`Azurite +${delay} ms, cache ${cached ? "on" : "off"}${freshness}`, server, proxy, rows, dim, queries));
        await server.close();
      }
    }
    return { rows, dim, queries, local: localSide, remote };
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
    `${figures.rows} rows × ${figures.dim} dims, IVF_PQ on the vectors, BTREE on id; ${figures.queries} warm queries of each kind; LanceDB client, managed-deployment mode`,
    "",
    "| side | point p50 / p99 ms (× local) | vector p50 / p99 ms (× local) | filtered 100 rows p50 / p99 ms (× local) | store requests per warm query: point; vector; filtered | first vector search after start |",
    "|---|---|---|---|---|---|",
  ];
  const cell = (timing: Timing, base: Timing) => `${f(timing.p50)} / ${f(timing.p99)} (${(timing.p50 / base.p50).toFixed(2)}×)`;
  for (const side of [figures.local, ...figures.remote]) {
    const requests = side === figures.local ? "–" : [side.point, side.vector, side.filtered].map((timing) => `${timing.requestsPerQuery.toFixed(1)} (${kinds(timing)})`).join("; ");
    const first = side === figures.local ? `${f(side.firstVectorMs)} ms` : `${f(side.firstVectorMs)} ms, ${side.firstVectorRequests} requests`;
    lines.push(`| ${side.label} | ${cell(side.point, figures.local.point)} | ${cell(side.vector, figures.local.vector)} | ${cell(side.filtered, figures.local.filtered)} | ${requests} | ${first} |`);
  }
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [rows, dim, queries] = [Number(process.argv[2] ?? 100_000), Number(process.argv[3] ?? 64), Number(process.argv[4] ?? 60)];
  console.log(latencyTable(await measureObjectStoreLatency(rows, dim, queries)));
}
