/**
 * Helpers for materialized-view and job tests: definitions in Quiver's JSON forms, source
 * writes through the native binding (the row-write routes live elsewhere), view reads, and
 * waiting for jobs.
 */
import { testStorages } from "./test-backend.js";
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import { Field, Int32, RecordBatchStreamWriter, Schema, Table, Utf8, Vector, makeVector, tableFromIPC, tableToIPC, vectorFromArray } from "apache-arrow-21";
import "../../src/engine/arrow-ipc.js";
import { Engine } from "../../src/engine/engine.js";
import { expectJson, type TestServer } from "./test-server.js";

/** Column name → typed array, Arrow vector, or plain array (strings become Utf8). */
export type Columns = Record<string, unknown>;

export function tableOf(columns: Columns): Table {
  const vectors: Record<string, Vector> = {};
  for (const [name, value] of Object.entries(columns)) {
    if (value instanceof Vector) vectors[name] = value;
    else if (ArrayBuffer.isView(value)) vectors[name] = makeVector(value as Int32Array);
    else if (Array.isArray(value) && value.some((v) => typeof v === "string")) vectors[name] = vectorFromArray(value, new Utf8());
    else vectors[name] = vectorFromArray(value as unknown[]);
  }
  return new Table(vectors);
}

/** An Arrow IPC stream of the columns. */
export function streamOf(columns: Columns): Uint8Array {
  return tableToIPC(tableOf(columns), "stream");
}

/** Creates a table from columns over HTTP; returns its location. */
export async function createSource(server: TestServer, id: string, columns: Columns): Promise<string> {
  const body = await expectJson(await server.upload(`/v1/table/${id}/create`, streamOf(columns)));
  return body.location as string;
}

/** Base64 of an Arrow IPC stream holding only `schema`, as a client sends output_schema. */
export function schemaBase64(schema: Schema): string {
  const writer = new RecordBatchStreamWriter();
  writer.reset(undefined, schema);
  writer.finish();
  return Buffer.from(writer.toUint8Array(true)).toString("base64");
}

/** A `udtf_spec` for a built-in chunker envelope, with a correct SHA-256. */
export function chunkerSpec(envelope: Record<string, unknown>, kind = "chunker", extra: Record<string, unknown> = {}) {
  const udtf = Buffer.from(JSON.stringify(envelope)).toString("base64");
  return {
    kind,
    udtf,
    udtf_sha: createHash("sha256").update(udtf).digest("hex"),
    udtf_name: String(envelope.chunker ?? "custom"),
    udtf_version: "1",
    ...extra,
  };
}

/** Polls GET /v1/jobs/{id} until the job leaves queued/running; returns its record. */
export async function waitForJob(server: { get(route: string): Promise<Response> }, jobId: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await expectJson(await server.get(`/v1/jobs/${jobId}`));
    if (job.status !== "queued" && job.status !== "running") return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after ${timeoutMs} ms: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Direct access to a table's data through the native binding, for arranging and checking. */
export class TableData {
  private readonly engine = new Engine({ storages: testStorages });

  async rows(location: string, options: { columns?: string[]; version?: number } = {}): Promise<Record<string, unknown>[]> {
    const table = await this.engine.openTable(location, { version: options.version });
    const query = table.query();
    if (options.columns) query.selectColumns(options.columns);
    const batches = await query.execute(65536);
    const out: Record<string, unknown>[] = [];
    for (;;) {
      const buffer = await batches.next();
      if (!buffer) return out;
      for (const row of tableFromIPC(buffer).toArray()) out.push(plainRow(row.toJSON()));
    }
  }

  async version(location: string): Promise<number> {
    return (await this.engine.openTable(location)).version();
  }

  async append(location: string, columns: Columns): Promise<void> {
    await (await this.engine.openTable(location)).add(Buffer.from(tableToIPC(tableOf(columns), "file")), "append");
  }

  async update(location: string, where: string, set: [string, string][]): Promise<void> {
    await (await this.engine.openTable(location)).update(where, set);
  }

  async addComputedColumn(location: string, name: string, valueSql: string): Promise<void> {
    await (await this.engine.openTable(location)).addComputedColumns([{ name, valueSql }]);
  }

  async delete(location: string, where: string): Promise<void> {
    await (await this.engine.openTable(location)).delete(where);
  }

  close(): void {
    this.engine.close();
  }
}

function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (typeof value === "bigint") out[key] = Number(value);
    else if (value && typeof value === "object" && typeof (value as Table).toArray === "function") out[key] = Array.from((value as unknown as Iterable<unknown>), (v) => (typeof v === "bigint" ? Number(v) : v));
    else out[key] = value;
  }
  return out;
}

/** Rows sorted by their JSON text, without `__source_row_id`, for set-wise comparisons. */
export function canonicalRows(rows: Record<string, unknown>[]): string[] {
  return rows
    .map((row) => {
      const { __source_row_id: _ignored, ...rest } = row;
      return JSON.stringify(rest, Object.keys(rest).sort());
    })
    .sort();
}

/** A chunker view of table `docs` (id, body): the words of each body in chunks of 3 with 1 of overlap. */
export const docsWordChunksView = {
  kind: "chunker",
  source_query: JSON.stringify({ source: ["docs"], projections: ["id"] }),
  output_schema: schemaBase64(new Schema([new Field("id", new Int32()), new Field("chunk", new Utf8()), new Field("chunk_index", new Int32())])),
  udtf_spec: chunkerSpec({ chunker: "split_words", column: "body", size: 3, overlap: 1 }),
};

/** Creates table `docs` of `n` rows on the server at `url`, each body giving 4 word chunks in `docsWordChunksView`. */
export async function createWordDocs(url: string, n: number): Promise<void> {
  const created = await fetch(`${url}/v1/table/docs/create`, {
    method: "POST",
    headers: { "content-type": "application/vnd.apache.arrow.stream" },
    body: streamOf({ id: Int32Array.from({ length: n }, (_, i) => i), body: Array.from({ length: n }, (_, i) => `w${i} a b c d e f g h`) }),
  });
  await expectJson(created);
}
