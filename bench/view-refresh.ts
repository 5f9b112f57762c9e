/**
 * Chunker-view refresh: rows/s at concurrency 1 and 2, and peak memory against
 * `source_task_size`. Not a test: run `npm run build && node dist/bench/view-refresh.js [docs]`.
 * Each memory figure comes from a fresh child process (RSS never shrinks back within one), so
 * the runs do not inherit each other's heap. Prints Markdown tables.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Field, Int32, RecordBatchStreamWriter, Schema, Table, Utf8, vectorFromArray } from "apache-arrow-21";
import { startServer } from "../src/cli/runtime.js";

const wordsPerDoc = 200;
const chunkSize = 32;
const chunkOverlap = 8;

function udtfSpec() {
  const udtf = Buffer.from(JSON.stringify({ chunker: "split_words", column: "body", size: chunkSize, overlap: chunkOverlap })).toString("base64");
  return { kind: "chunker", udtf, udtf_sha: createHash("sha256").update(udtf).digest("hex"), udtf_name: "split_words", udtf_version: "1" };
}

function outputSchema(): string {
  const writer = new RecordBatchStreamWriter();
  writer.reset(undefined, new Schema([new Field("id", new Int32()), new Field("chunk", new Utf8()), new Field("chunk_index", new Int32())]));
  writer.finish();
  return Buffer.from(writer.toUint8Array(true)).toString("base64");
}

function documents(count: number): Uint8Array {
  const writer = new RecordBatchStreamWriter();
  for (let from = 0; from < count; from += 5000) {
    const n = Math.min(5000, count - from);
    const ids = Array.from({ length: n }, (_, i) => from + i);
    const bodies = ids.map((id) => Array.from({ length: wordsPerDoc }, (_, w) => `w${(id * 31 + w * 7) % 5000}`).join(" "));
    writer.write(new Table({ id: vectorFromArray(ids, new Int32()), body: vectorFromArray(bodies, new Utf8()) }).batches[0]!);
  }
  writer.finish();
  return writer.toUint8Array(true);
}

async function post(url: string, body: unknown, status: number): Promise<any> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  if (response.status !== status) throw new Error(`${url} → ${response.status}: ${text}`);
  return JSON.parse(text);
}

async function waitFor(base: string, jobId: string, onTick?: () => void): Promise<any> {
  for (;;) {
    onTick?.();
    const job = (await (await fetch(`${base}/v1/jobs/${jobId}`)).json()) as any;
    if (job.status !== "queued" && job.status !== "running") return job;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Creates a view named `name` and refreshes it; returns the job record and the peak RSS. */
async function refreshOnce(base: string, name: string, body: object): Promise<{ job: any; peakRss: number; baseRss: number }> {
  await post(`${base}/v1/materialized_view/${name}/create`, { kind: "chunker", source_query: JSON.stringify({ source: ["docs"], projections: ["id"] }), output_schema: outputSchema(), udtf_spec: udtfSpec() }, 201);
  global.gc?.();
  const baseRss = process.memoryUsage().rss;
  let peakRss = baseRss;
  const { job_id } = await post(`${base}/v1/materialized_view/${name}/refresh`, body, 202);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
  const job = await waitFor(base, job_id, () => (peakRss = Math.max(peakRss, process.memoryUsage().rss)));
  clearInterval(sampler);
  if (job.status !== "succeeded") throw new Error(`refresh failed: ${JSON.stringify(job)}`);
  return { job, peakRss, baseRss };
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

async function child(root: string, taskSize: number): Promise<void> {
  const runtime = await startServer({ root, host: "127.0.0.1", port: 0, logger: false, jobs: { pollMs: 5, maxConcurrentJobs: 1 } });
  try {
    const { job, peakRss, baseRss } = await refreshOnce(runtime.url, `mem_${taskSize}`, { source_task_size: taskSize, concurrency: 1 });
    console.log(JSON.stringify({ taskSize, rows: job.result.rows_written, items: job.result.work_items, peakRss, baseRss }));
  } finally {
    await runtime.close();
  }
}

async function main(): Promise<void> {
  const docs = Number(process.argv[2] ?? 20_000);
  const root = mkdtempSync(path.join(os.tmpdir(), "quiver-bench-views-"));
  try {
    const runtime = await startServer({ root, host: "127.0.0.1", port: 0, logger: false, jobs: { pollMs: 5, maxConcurrentJobs: 1 } });
    const base = runtime.url;
    const created = await fetch(`${base}/v1/table/docs/create`, { method: "POST", headers: { "content-type": "application/vnd.apache.arrow.stream" }, body: documents(docs) });
    if (created.status !== 200) throw new Error(await created.text());
    await refreshOnce(base, "warmup", { source_task_size: 2000 });

    console.log(`\n${docs} documents of ${wordsPerDoc} words; split_words size ${chunkSize}, overlap ${chunkOverlap}\n`);
    console.log("| concurrency | source_task_size | work items | view rows | seconds | rows/s |");
    console.log("|---|---|---|---|---|---|");
    for (const concurrency of [1, 2]) {
      for (const taskSize of [2000, 500]) {
        const { job } = await refreshOnce(base, `c${concurrency}_${taskSize}`, { concurrency, source_task_size: taskSize });
        const seconds = (job.finished_at_ms - job.started_at_ms) / 1000;
        console.log(`| ${concurrency} | ${taskSize} | ${job.result.work_items} | ${job.result.rows_written} | ${seconds.toFixed(2)} | ${Math.round(job.result.rows_written / seconds)} |`);
      }
    }
    await runtime.close();

    console.log("\n| source_task_size | work items | peak RSS during refresh (MiB) | above baseline (MiB) |");
    console.log("|---|---|---|---|");
    const self = fileURLToPath(import.meta.url);
    for (const taskSize of [250, 1000, 4000, docs]) {
      const run = spawnSync(process.execPath, ["--expose-gc", self, "--child", root, String(taskSize)], { encoding: "utf8" });
      const line = run.stdout.trim().split("\n").find((l) => l.startsWith("{"));
      if (!line) throw new Error(`child failed: ${run.stderr}`);
      const figure = JSON.parse(line);
      console.log(`| ${taskSize} | ${figure.items} | ${mb(figure.peakRss)} | ${mb(figure.peakRss - figure.baseRss)} |`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--child") await child(process.argv[3] as string, Number(process.argv[4]));
else await main();
