/**
 * Ingest and query through Quiver with table data in Azure Blob Storage (Azurite, in memory, on
 * loopback) against the same work with table data on local disk, in the same run. Not a test:
 * `npm run build && node dist/bench/object-storage.js [rows] [dim]`. Prints a Markdown table of
 * figures and object-store / local ratios.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { type Runtime, startServer } from "../src/cli/runtime.js";
import { startAzurite } from "../test/helpers/azurite.js";
import { vectorRowsStream } from "./vector-rows.js";

const totalRows = Number(process.argv[2] ?? 50_000);
const dim = Number(process.argv[3] ?? 64);
const batchRows = 10_000;
const queries = 100;

const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;

async function post(url: string, body: Uint8Array | string, json = false): Promise<void> {
  const response = await fetch(url, { method: "POST", headers: json ? { "content-type": "application/json" } : {}, body });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
}

interface Figures {
  ingestRowsPerSecond: number;
  pointP50: number;
  vectorP50: number;
}

async function measure(server: Runtime & { url: string }, streams: Uint8Array[]): Promise<Figures> {
  // Warm-up on a throwaway table: connection set-up and JIT are not what is measured.
  await post(`${server.url}/v1/table/warm/create`, vectorRowsStream(0, 1_000, dim));
  for (let i = 0; i < 10; i += 1) await post(`${server.url}/v1/table/warm/query`, JSON.stringify({ k: 1, vector: null, filter: `id = ${i}` }), true);

  const start = performance.now();
  await post(`${server.url}/v1/table/bench/create`, streams[0] as Uint8Array);
  for (const stream of streams.slice(1)) await post(`${server.url}/v1/table/bench/insert`, stream);
  const ingestSeconds = (performance.now() - start) / 1000;

  const point: number[] = [];
  const vector: number[] = [];
  for (let i = 0; i < queries; i += 1) {
    const id = (i * 7919) % totalRows;
    let begin = performance.now();
    await post(`${server.url}/v1/table/bench/query`, JSON.stringify({ k: 1, vector: null, filter: `id = ${id}` }), true);
    point.push(performance.now() - begin);
    begin = performance.now();
    await post(`${server.url}/v1/table/bench/query`, JSON.stringify({ k: 10, vector: Array.from({ length: dim }, (_, j) => Math.sin(id * dim + j)) }), true);
    vector.push(performance.now() - begin);
  }
  return { ingestRowsPerSecond: totalRows / ingestSeconds, pointP50: median(point), vectorP50: median(vector) };
}

const root = mkdtempSync(path.join(os.tmpdir(), "quiver-bench-store-"));
const azurite = await startAzurite();
const streams = Array.from({ length: Math.ceil(totalRows / batchRows) }, (_, i) => vectorRowsStream(i * batchRows, Math.min(batchRows, totalRows - i * batchRows), dim));
try {
  const local = await startServer({ root: path.join(root, "local"), host: "127.0.0.1", port: 0, logger: false });
  const onLocal = await measure(local, streams);
  await local.close();
  const remote = await startServer({
    root: path.join(root, "azure"),
    data: "az://bench/data",
    storageOptions: azurite.storageOptions,
    host: "127.0.0.1",
    port: 0,
    logger: false,
  });
  const onAzure = await measure(remote, streams);
  await remote.close();
  console.log(`${totalRows} rows of dim ${dim} in ${streams.length} uploads; ${queries} queries of each kind\n`);
  console.log("| | local disk | Azurite | Azurite / local |");
  console.log("|---|---|---|---|");
  console.log(`| ingest, rows/s | ${onLocal.ingestRowsPerSecond.toFixed(0)} | ${onAzure.ingestRowsPerSecond.toFixed(0)} | ${(onAzure.ingestRowsPerSecond / onLocal.ingestRowsPerSecond).toFixed(2)} |`);
  console.log(`| point query p50, ms | ${onLocal.pointP50.toFixed(2)} | ${onAzure.pointP50.toFixed(2)} | ${(onAzure.pointP50 / onLocal.pointP50).toFixed(2)} |`);
  console.log(`| vector query p50, ms | ${onLocal.vectorP50.toFixed(2)} | ${onAzure.vectorP50.toFixed(2)} | ${(onAzure.vectorP50 / onLocal.vectorP50).toFixed(2)} |`);
} finally {
  await azurite.stop();
  rmSync(root, { recursive: true, force: true });
}
