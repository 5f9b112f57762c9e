/**
 * Insert and query throughput through Quiver's REST API against the same work done in-process
 * with the engine. Not a test: run `npm run build && node dist/bench/insert-query.js [rows] [dim]`.
 * Prints a Markdown table of figures and REST / in-process ratios.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ipcStreamToFile } from "../src/engine/arrow-ipc.js";
import { Engine } from "../src/engine/engine.js";
import { runQuery } from "../src/engine/table-query.js";
import { insertRows } from "../src/engine/table-writes.js";
import { startServer } from "../src/cli/runtime.js";
import { vectorRowsStream } from "./vector-rows.js";

const totalRows = Number(process.argv[2] ?? 50_000);
const dim = Number(process.argv[3] ?? 64);
const batchRows = 10_000;
const queries = 200;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function timeEach(n: number, fn: (i: number) => Promise<void>): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const start = performance.now();
    await fn(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function drain(chunks: AsyncIterable<Uint8Array>): Promise<number> {
  let bytes = 0;
  for await (const chunk of chunks) bytes += chunk.length;
  return bytes;
}

const root = mkdtempSync(path.join(os.tmpdir(), "quiver-bench-"));
const streams = Array.from({ length: Math.ceil(totalRows / batchRows) }, (_, i) => vectorRowsStream(i * batchRows, Math.min(batchRows, totalRows - i * batchRows), dim));
const megabytes = streams.reduce((sum, s) => sum + s.length, 0) / 1e6;
const probeIds = Array.from({ length: queries }, (_, i) => (i * 7919) % totalRows);

// Warm-up: one upload and a few queries each way, into throwaway tables, so that neither side
// pays for JIT compilation and cold caches in the measured runs.
const warmupStream = vectorRowsStream(0, 2_000, dim);
const server = await startServer({ root: path.join(root, "rest"), host: "127.0.0.1", port: 0, logger: false });
const engine = new Engine();
{
  await fetch(server.url + "/v1/table/warm/create", { method: "POST", body: warmupStream }).then((r) => r.arrayBuffer());
  const warmLocation = path.join(root, "local", "warm.lance");
  await engine.createTable(warmLocation, await ipcStreamToFile(warmupStream), "create");
  for (let i = 0; i < 20; i += 1) {
    await fetch(server.url + "/v1/table/warm/query", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ k: 1, vector: null, filter: `id = ${i}` }) }).then((r) => r.arrayBuffer());
    await drain((await runQuery(engine, warmLocation, {}, { vectors: [], limit: 1, filter: `id = ${i}` })).chunks);
  }
}

// REST
const restIngestStart = performance.now();
for (const [i, body] of streams.entries()) {
  const route = i === 0 ? "/v1/table/bench/create" : "/v1/table/bench/insert";
  const response = await fetch(server.url + route, { method: "POST", headers: { "content-type": "application/vnd.apache.arrow.stream" }, body });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
}
const restIngest = megabytes / ((performance.now() - restIngestStart) / 1000);
const post = async (body: unknown) => {
  const response = await fetch(`${server.url}/v1/table/bench/query`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`query: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
};
const restPoint = await timeEach(queries, (i) => post({ k: 1, vector: null, filter: `id = ${probeIds[i]}` }));
const restVector = await timeEach(queries, (i) => post({ k: 10, vector: { single_vector: Array.from({ length: dim }, (_, j) => Math.sin((probeIds[i] as number) * dim + j)) }, columns: { column_names: ["id"] } }));
await server.close();

// In-process: the same IPC bytes, decoded the same way, straight into the engine.
const location = path.join(root, "local", "bench.lance");
const localIngestStart = performance.now();
for (const [i, body] of streams.entries()) {
  const upload = await ipcStreamToFile(body);
  if (i === 0) await engine.createTable(location, upload, "create");
  else await insertRows(engine, location, {}, upload, "append");
}
const localIngest = megabytes / ((performance.now() - localIngestStart) / 1000);
const localPoint = await timeEach(queries, async (i) => {
  await drain((await runQuery(engine, location, {}, { vectors: [], limit: 1, filter: `id = ${probeIds[i]}` })).chunks);
});
const localVector = await timeEach(queries, async (i) => {
  const vector = Float32Array.from({ length: dim }, (_, j) => Math.sin((probeIds[i] as number) * dim + j));
  await drain((await runQuery(engine, location, {}, { vectors: [vector], limit: 10, columns: { names: ["id"] } })).chunks);
});
engine.close();
rmSync(root, { recursive: true, force: true });

const f = (n: number) => n.toFixed(2);
console.log(`${totalRows} rows, ${dim}-dim float32 vectors, ${streams.length} uploads, ${f(megabytes)} MB of Arrow IPC; ${queries} queries each\n`);
console.log("| measure | REST | in-process | REST / in-process |");
console.log("|---|---|---|---|");
console.log(`| ingest, MB/s (higher is better) | ${f(restIngest)} | ${f(localIngest)} | ${f(restIngest / localIngest)} |`);
console.log(`| point query p50, ms | ${f(restPoint.p50)} | ${f(localPoint.p50)} | ${f(restPoint.p50 / localPoint.p50)} |`);
console.log(`| point query p99, ms | ${f(restPoint.p99)} | ${f(localPoint.p99)} | ${f(restPoint.p99 / localPoint.p99)} |`);
console.log(`| top-10 vector search p50, ms | ${f(restVector.p50)} | ${f(localVector.p50)} | ${f(restVector.p50 / localVector.p50)} |`);
console.log(`| top-10 vector search p99, ms | ${f(restVector.p99)} | ${f(localVector.p99)} | ${f(restVector.p99 / localVector.p99)} |`);
