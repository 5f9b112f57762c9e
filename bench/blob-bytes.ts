/**
 * One blob of 1 GiB read through the blob bytes route of `quiver serve` (its own process, SQLite,
 * local folder): the bytes go out as they are read, so the server's peak resident memory above
 * its idle level stays far below the blob's size. The blob is written beside the server by the
 * LanceDB binding in this process (a second writer on the same table); the read is a plain GET
 * whose body is counted and dropped, and the whole blob is also read back in ranges and compared.
 * Run `npm run build && node dist/bench/blob-bytes.js [MiB=1024]`.
 */
import { rmSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import * as lancedb from "@lancedb/lancedb";
import { Field, Int64, Schema } from "apache-arrow";
import { spawnServe } from "../test/helpers/cli-process.js";
import { tempRoot } from "../test/helpers/test-server.js";
import { peakMiB, resetPeak, residentMiB } from "./memory.js";

const blobMiB = Number(process.argv[2] ?? 1024);

export interface BlobBytesFigures {
  blobMiB: number;
  idleMiB: number;
  peakAboveIdleMiB: number;
  seconds: number;
  bytesRead: number;
}

/** GETs `url` and counts its body's bytes without keeping them. */
function countBody(url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        let bytes = 0;
        response.on("data", (chunk: Buffer) => (bytes += chunk.length));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes }));
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

export async function measureBlobBytes(mib = blobMiB): Promise<BlobBytesFigures> {
  const root = tempRoot("quiver-bench-blob-");
  const server = await spawnServe(["--port", "0", "--root", root]);
  try {
    const schema = new Schema([new Field("id", new Int64()), lancedb.blob("payload")]);
    const remote = await lancedb.connect("db://default", { apiKey: "any", hostOverride: server.url });
    const table = await remote.createTable("media", [{ id: 0n, payload: Buffer.from("small") }], { schema });
    const described = (await (await fetch(`${server.url}/v1/table/media/describe`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json()) as { location: string };
    const location = described.location.replace(/^file:\/\//, "").replace(/\/+$/, "");
    // A pattern that changes every byte position, so a misplaced range shows.
    const big = Buffer.alloc(mib * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4) big.writeUInt32LE(i, i);
    const direct = await (await lancedb.connect(path.dirname(location))).openTable(path.basename(location, ".lance"));
    await direct.add([{ id: 1n, payload: big }]);
    const rows = await table.query().where("id = 1").select(["id"]).withRowId().toArray();
    const rowId = String(rows[0]?._rowid);

    const pid = server.child.pid as number;
    const idleMiB = residentMiB(pid);
    resetPeak(pid);
    const started = performance.now();
    const read = await countBody(`${server.url}/v1/table/media/blob/payload/${rowId}/bytes`);
    const seconds = (performance.now() - started) / 1000;
    const peak = peakMiB(pid);
    if (read.status !== 200 || read.bytes !== big.length) throw new Error(`read ${read.bytes} bytes with HTTP ${read.status}, expected ${big.length}`);
    // The bytes themselves, checked in 64 MiB ranges.
    const step = 64 * 1024 * 1024;
    for (let from = 0; from < big.length; from += step) {
      const to = Math.min(big.length, from + step) - 1;
      const response = await fetch(`${server.url}/v1/table/media/blob/payload/${rowId}/bytes`, { headers: { range: `bytes=${from}-${to}` } });
      const got = Buffer.from(await response.arrayBuffer());
      if (response.status !== 206 || !got.equals(big.subarray(from, to + 1))) throw new Error(`range ${from}-${to} differs (HTTP ${response.status})`);
    }
    return { blobMiB: mib, idleMiB, peakAboveIdleMiB: peak - idleMiB, seconds, bytesRead: read.bytes };
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureBlobBytes();
  console.log(`| figure | measured | goal |`);
  console.log(`|---|---|---|`);
  console.log(`| server peak RSS above idle (${figures.idleMiB.toFixed(0)} MiB) while a ${figures.blobMiB} MiB blob is read through the bytes route | ${figures.peakAboveIdleMiB.toFixed(0)} MiB | ≤ 128 MiB, whatever the blob's size |`);
  console.log(`| read throughput | ${(figures.bytesRead / 1024 / 1024 / figures.seconds).toFixed(0)} MiB/s | |`);
}
