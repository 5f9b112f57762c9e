/**
 * Peak memory of `quiver serve` (its own process) while it takes a large upload and while it
 * answers a query whose result is as large: resident set above the idle server's, read from
 * /proc (Linux). The upload is generated and sent as it is produced, so the client holds only
 * one batch; the result is read and dropped as it arrives.
 * Run `npm run build && node dist/bench/memory.js [MiB=1024]`.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { performance } from "node:perf_hooks";
import { Field, FixedSizeList, Float32, RecordBatchStreamWriter, Table, makeData, makeVector } from "apache-arrow-21";
import { type ServeProcess, spawnServe } from "../test/helpers/cli-process.js";
import { tempRoot } from "../test/helpers/test-server.js";

const dim = 64;
const batchRows = 8192;

export interface MemoryFigures {
  uploadMiB: number;
  idleMiB: number;
  uploadPeakAboveIdleMiB: number;
  uploadSeconds: number;
  resultMiB: number;
  queryPeakAboveIdleMiB: number;
  querySeconds: number;
  /** The same rows through the multipart path: 64 MiB parts, then one complete. */
  multipartPeakAboveIdleMiB: number;
  multipartSeconds: number;
}

const partMiB = 64;

/** A POST with an empty body, answered with JSON. */
function postJson(url: string, route: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}${route}`, { method: "POST" }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      response.on("end", () => (response.statusCode === 200 ? resolve(JSON.parse(text) as Record<string, unknown>) : reject(new Error(`${route}: ${response.statusCode} ${text}`))));
    });
    request.on("error", reject);
    request.end();
  });
}

/** The process and every descendant (a server may run its work in a child). */
function processTree(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...children.flatMap(processTree)];
}

function statusKiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? 0);
}

const mib = (kib: number) => kib / 1024;
export const residentMiB = (pid: number) => mib(processTree(pid).reduce((sum, each) => sum + statusKiB(each, "VmRSS"), 0));
export const peakMiB = (pid: number) => mib(processTree(pid).reduce((sum, each) => sum + statusKiB(each, "VmHWM"), 0));
/** Resets the kernel's peak-RSS mark of the tree to its current RSS. */
export const resetPeak = (pid: number) => processTree(pid).forEach((each) => writeFileSync(`/proc/${each}/clear_refs`, "5"));

/**
 * One IPC stream of `batches` batches of `batchRows` rows (id and a 64-dim vector), produced one
 * batch at a time. The vectors repeat from batch to batch: generating new ones would make the
 * client, not the server, the slow side.
 */
function* uploadStream(batches: number): Generator<Uint8Array> {
  const type = new FixedSizeList(dim, new Field("item", new Float32(), true));
  const values = Float32Array.from({ length: batchRows * dim }, (_, i) => Math.sin(i));
  const vectors = makeVector(makeData({ type, length: batchRows, child: makeData({ type: new Float32(), length: values.length, data: values }) }));
  for (let b = 0; b < batches; b += 1) {
    const table = new Table({ id: makeVector(Int32Array.from({ length: batchRows }, (_, i) => b * batchRows + i)), vector: vectors });
    const writer = new RecordBatchStreamWriter();
    writer.write(table);
    writer.finish();
    const bytes = writer.toUint8Array(true);
    // Every batch but the first repeats the schema, and every one but the last ends the stream: strip both.
    const schemaEnd = b === 0 ? 0 : firstMessageLength(bytes);
    yield bytes.subarray(schemaEnd, b === batches - 1 ? bytes.length : bytes.length - 8);
  }
}

/** Length of the first encapsulated message (the schema) of a stream. */
function firstMessageLength(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return 8 + view.getInt32(4, true);
}

function send(url: string, route: string, body: Iterable<Uint8Array>): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}${route}`, { method: "POST", headers: { "content-type": "application/vnd.apache.arrow.stream" } }, (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => (response.statusCode === 200 ? resolve(text) : reject(new Error(`${route}: ${response.statusCode} ${text}`))));
    });
    request.on("error", reject);
    const chunks = body[Symbol.iterator]();
    const pump = () => {
      for (let next = chunks.next(); !next.done; next = chunks.next()) if (!request.write(next.value)) return void request.once("drain", pump);
      request.end();
    };
    pump();
  });
}

/** Reads a query's whole answer, dropping it as it arrives; answers its size in bytes. */
function drainQuery(url: string, route: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}${route}`, { method: "POST", headers: { "content-type": "application/json" } }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () => (response.statusCode === 200 ? resolve(bytes) : reject(new Error(`${route}: ${response.statusCode}`))));
    });
    request.on("error", reject);
    request.end(JSON.stringify(body));
  });
}

/**
 * Stops `server` and starts another on `root`, warmed by one small query; answers it with its idle
 * resident size, its peak reset so what follows is measured from there.
 */
async function restartWarm(server: ServeProcess, root: string): Promise<{ server: ServeProcess; idleMiB: number }> {
  await server.stop("SIGTERM");
  const restarted = await spawnServe(["--port", "0", "--root", root, "--log-level", "warn"]);
  const pid = restarted.child.pid as number;
  await drainQuery(restarted.url, "/v1/table/warm/query", { k: 10, vector: null });
  const idleMiB = residentMiB(pid);
  resetPeak(pid);
  return { server: restarted, idleMiB };
}

export async function measureMemory(uploadMiB: number): Promise<MemoryFigures> {
  const root = tempRoot("quiver-bench-memory-");
  let server: ServeProcess | undefined;
  try {
    server = await spawnServe(["--port", "0", "--root", root, "--log-level", "warn"]);
    const pid = server.child.pid as number;
    // Warm: one small table created and queried, so idle includes the engine's start-up.
    await send(server.url, "/v1/table/warm/create", uploadStream(1));
    await drainQuery(server.url, "/v1/table/warm/query", { k: 10, vector: null });
    const idleMiB = residentMiB(pid);
    const batches = Math.round((uploadMiB * 1024 * 1024) / (batchRows * (dim * 4 + 4)));
    resetPeak(pid);
    let started = performance.now();
    await send(server.url, "/v1/table/big/create", uploadStream(batches));
    const uploadSeconds = (performance.now() - started) / 1000;
    const uploadPeakAboveIdleMiB = peakMiB(pid) - idleMiB;
    // The query runs on a restarted server: memory the upload left with the allocator would hide its own.
    let queryIdleMiB: number;
    ({ server, idleMiB: queryIdleMiB } = await restartWarm(server, root));
    const queryPid = server.child.pid as number;
    started = performance.now();
    const resultBytes = await drainQuery(server.url, "/v1/table/big/query", { k: 2 ** 53, vector: null });
    const querySeconds = (performance.now() - started) / 1000;
    const queryPeakAboveIdleMiB = peakMiB(queryPid) - queryIdleMiB;
    // The multipart path, on a restarted server too: parts staged, then committed as one version.
    let multipartIdleMiB: number;
    ({ server, idleMiB: multipartIdleMiB } = await restartWarm(server, root));
    const multipartPid = server.child.pid as number;
    started = performance.now();
    const { upload_id: uploadId } = await postJson(server.url, "/v1/table/warm/multipart_write/create");
    const partBatches = Math.round((partMiB * 1024 * 1024) / (batchRows * (dim * 4 + 4)));
    for (let sent = 0; sent < batches; sent += partBatches) {
      await send(server.url, `/v1/table/warm/insert?upload_id=${String(uploadId)}&upload_part_id=p${sent}`, uploadStream(Math.min(partBatches, batches - sent)));
    }
    await postJson(server.url, `/v1/table/warm/multipart_write/complete?upload_id=${String(uploadId)}`);
    const multipartSeconds = (performance.now() - started) / 1000;
    const multipartPeakAboveIdleMiB = peakMiB(multipartPid) - multipartIdleMiB;
    return {
      uploadMiB,
      idleMiB,
      uploadPeakAboveIdleMiB,
      uploadSeconds,
      resultMiB: resultBytes / 1024 / 1024,
      queryPeakAboveIdleMiB,
      querySeconds,
      multipartPeakAboveIdleMiB,
      multipartSeconds,
    };
  } finally {
    await server?.stop("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureMemory(Number(process.argv[2] ?? 1024)), null, 2));
}
