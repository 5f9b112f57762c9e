/**
 * The request path against the engine: the same LanceDB client library, once in its
 * managed-deployment mode against a Quiver server (`connect("db://…", {hostOverride})`) and once
 * on a local folder in-process, doing the same work on the same rows in the same run. Prints
 * REST / in-process ratios for ingest, point queries and vector search.
 * Run `npm run build && node dist/bench/request-path.js [rows=50000] [dim=64] [queries=300]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import * as lancedb from "@lancedb/lancedb";
import { tableFromIPC } from "apache-arrow";
import { spawnServe } from "../test/helpers/cli-process.js";
import { vectorRowsStream } from "./vector-rows.js";
import { percentiles, ratioRow } from "./measure.js";

const batchRows = 10_000;
const scanRuns = 5;

export interface RequestPathFigures {
  rows: number;
  dim: number;
  megabytes: number;
  viaRest: Side;
  inProcess: Side;
}

interface Side {
  ingestMBps: number;
  /** A whole-table scan with a projection and a filter (QueryTable without a vector), best of the runs. */
  scanMBps: number;
  point: { p50: number; p99: number };
  vector: { p50: number; p99: number };
}

/** Ingest, point queries and top-10 vector searches, through Quiver and in-process, in this order. */
export async function measureRequestPath(totalRows: number, dim: number, queries: number): Promise<RequestPathFigures> {
  const root = mkdtempSync(path.join(os.tmpdir(), "quiver-bench-"));
  const uploads = Array.from({ length: Math.ceil(totalRows / batchRows) }, (_, i) =>
    tableFromIPC(vectorRowsStream(i * batchRows, Math.min(batchRows, totalRows - i * batchRows), dim)),
  );
  const megabytes = uploads.reduce((sum, table) => sum + table.data.reduce((s, d) => s + d.byteLength, 0), 0) / 1e6;
  const probeIds = Array.from({ length: queries }, (_, i) => (i * 7919) % totalRows);
  const probeVector = (i: number) => Array.from({ length: dim }, (_, j) => Math.sin((probeIds[i] as number) * dim + j + 0.5));

  // Both sides do each step in turn (an upload, a query), so that a change in the machine's load
  // during the run weighs on both alike.
  const sides = async (remote: lancedb.Connection, local: lancedb.Connection) => {
    const dbs = [remote, local];
    for (const db of dbs) {
      // Warm-up in a throwaway table: connection set-up, JIT, caches.
      const warm = await db.createTable("bench_warm", uploads[0] as never);
      for (let i = 0; i < 20; i += 1) await warm.query().where(`id = ${i}`).limit(1).toArray();
    }
    const ingestMs = [0, 0];
    const tables: (lancedb.Table | undefined)[] = [undefined, undefined];
    for (const upload of uploads) {
      for (const [side, db] of dbs.entries()) {
        const started = performance.now();
        const table = tables[side];
        if (!table) tables[side] = await db.createTable("bench", upload as never);
        else await table.add(upload as never);
        ingestMs[side] = (ingestMs[side] as number) + performance.now() - started;
      }
    }
    for (const table of tables) if ((await (table as lancedb.Table).countRows()) !== totalRows) throw new Error(`expected ${totalRows} rows`);
    const pointMs: number[][] = [[], []];
    const vectorMs: number[][] = [[], []];
    for (let i = 0; i < queries; i += 1) {
      for (const [side, table] of (tables as lancedb.Table[]).entries()) {
        let started = performance.now();
        const rows = await table.query().where(`id = ${probeIds[i]}`).limit(1).toArray();
        (pointMs[side] as number[]).push(performance.now() - started);
        if (rows.length !== 1) throw new Error(`point query found ${rows.length} rows`);
        started = performance.now();
        const nearest = await table.vectorSearch(probeVector(i)).select(["id", "_distance"]).limit(10).toArray();
        (vectorMs[side] as number[]).push(performance.now() - started);
        if (nearest.length !== 10) throw new Error(`vector search found ${nearest.length} rows`);
      }
    }
    // Whole-table scans, as engines read a table through QueryTable: the projection and the filter
    // go to the engine; every row but one passes the filter.
    const scanMs = [Infinity, Infinity];
    let scannedMB = 0;
    for (let run = 0; run < scanRuns; run += 1) {
      for (const [side, table] of (tables as lancedb.Table[]).entries()) {
        const started = performance.now();
        const scanned = await table.query().select(["id", "vector"]).where("id > 0").toArrow();
        scanMs[side] = Math.min(scanMs[side] as number, performance.now() - started);
        if (scanned.numRows !== totalRows - 1) throw new Error(`scan found ${scanned.numRows} rows`);
        scannedMB = scanned.data.reduce((sum, data) => sum + data.byteLength, 0) / 1e6;
      }
    }
    const side = (index: number): Side => ({
      ingestMBps: megabytes / ((ingestMs[index] as number) / 1000),
      scanMBps: scannedMB / ((scanMs[index] as number) / 1000),
      point: percentiles(pointMs[index] as number[]),
      vector: percentiles(vectorMs[index] as number[]),
    });
    return { viaRest: side(0), inProcess: side(1) };
  };

  // The server runs as users run it: `quiver serve`, a process of its own.
  const server = await spawnServe(["--port", "0", "--root", path.join(root, "server"), "--log-level", "warn"]);
  try {
    const remote = await lancedb.connect("db://bench", { apiKey: "bench", hostOverride: server.url });
    const local = await lancedb.connect(path.join(root, "local"));
    const { viaRest, inProcess } = await sides(remote, local);
    remote.close();
    local.close();
    return { rows: totalRows, dim, megabytes, viaRest, inProcess };
  } finally {
    await server.stop("SIGTERM");
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureRequestPath(Number(process.argv[2] ?? 50_000), Number(process.argv[3] ?? 64), Number(process.argv[4] ?? 300));
  const { viaRest, inProcess } = figures;
  console.log(`request path: ${figures.rows} rows × ${figures.dim}-dim (${figures.megabytes.toFixed(1)} MB)\n`);
  console.log("| figure | via REST | in-process | ratio | goal |");
  console.log("|---|---|---|---|---|");
  console.log(ratioRow("ingest, MB/s", viaRest.ingestMBps, inProcess.ingestMBps, "≥ 0.8"));
  console.log(ratioRow("whole-table scan (projection, filter), MB/s", viaRest.scanMBps, inProcess.scanMBps, "≥ 0.8"));
  console.log(ratioRow("point query p50, ms", viaRest.point.p50, inProcess.point.p50, "≤ 1.3"));
  console.log(ratioRow("point query p99, ms", viaRest.point.p99, inProcess.point.p99, ""));
  console.log(ratioRow("top-10 vector search p50, ms", viaRest.vector.p50, inProcess.vector.p50, "≤ 1.3"));
  console.log(ratioRow("top-10 vector search p99, ms", viaRest.vector.p99, inProcess.vector.p99, ""));
}
