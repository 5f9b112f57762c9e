import assert from "node:assert/strict";
import { test } from "node:test";
import { CompressionType, Dictionary, Int32, RecordBatchFileWriter, RecordBatchStreamWriter, Table, Utf8, tableFromArrays, tableFromIPC, vectorFromArray } from "apache-arrow-21";
import { ArrowDecodeError, ipcStreamToFile } from "../../src/engine/arrow-ipc.js";
import { EngineError, classifyEngineError } from "../../src/engine/engine-errors.js";
import { formatFieldPath, parseFieldPath, sqlReference } from "../../src/engine/field-paths.js";
import { mergeIpcFiles } from "../../src/engine/ipc-file-merge.js";
import { toCatalogError } from "../../src/catalog/failures.js";

function fileOf(table: Table, lz4 = false): Buffer {
  const writer = new RecordBatchFileWriter(lz4 ? { compressionType: CompressionType.LZ4_FRAME } : {});
  writer.write(table);
  writer.finish();
  return Buffer.from(writer.toUint8Array(true));
}

test("parseFieldPath splits dotted paths, unquotes backtick segments and undoubles backticks", () => {
  assert.deepEqual(parseFieldPath("a"), ["a"]);
  assert.deepEqual(parseFieldPath("a.b.c"), ["a", "b", "c"]);
  assert.deepEqual(parseFieldPath("`a.b`.c"), ["a.b", "c"]);
  assert.deepEqual(parseFieldPath("meta.`x``y`"), ["meta", "x`y"]);
  assert.equal(formatFieldPath(["meta", "a.b"]), "meta.`a.b`");
  assert.equal(sqlReference(["meta", "x`y"]), "`meta`.`x``y`");
});

test("parseFieldPath refuses empty segments, unterminated quotes and stray backticks with invalid-input", () => {
  for (const bad of ["", "a.", ".a", "a..b", "`a", "a`b", "`a`b"]) {
    assert.throws(() => parseFieldPath(bad), (e: unknown) => e instanceof EngineError && e.kind === "invalid-input", bad);
  }
});

test("mergeIpcFiles joins several IPC files, compressed ones too, into one readable file without decoding rows", async () => {
  const parts = [tableFromArrays({ id: Int32Array.from([1, 2]) }), tableFromArrays({ id: Int32Array.from([3]) }), tableFromArrays({ id: Int32Array.from([4, 5, 6]) })];
  const files = parts.map((part, i) => fileOf(part, i === 1));
  let next = 1;
  const chunks: Buffer[] = [];
  for await (const chunk of mergeIpcFiles(files[0] as Buffer, async () => files[next++] ?? null)) chunks.push(chunk);
  const merged = Buffer.concat(chunks);
  assert.equal(merged.subarray(0, 6).toString(), "ARROW1");
  const table = tableFromIPC(merged);
  assert.equal(table.batches.length, 3);
  assert.deepEqual([...(table.getChild("id")?.toArray() ?? [])], [1, 2, 3, 4, 5, 6]);
});

test("mergeIpcFiles of a single batch-less file is that schema alone", async () => {
  const empty = fileOf(tableFromArrays({ id: Int32Array.from([]) }));
  const chunks: Buffer[] = [];
  for await (const chunk of mergeIpcFiles(empty, async () => null)) chunks.push(chunk);
  const table = tableFromIPC(Buffer.concat(chunks));
  assert.equal(table.numRows, 0);
  assert.deepEqual(table.schema.fields.map((f) => f.name), ["id"]);
});

test("Lance's incompatible-transaction error is a commit conflict, answered ConcurrentModification (14) once retries run out", () => {
  // The message Lance gives an append that lost to a concurrent overwrite.
  const lance = new Error(
    "lance error: Incompatible transaction: This Append transaction is incompatible with concurrent transaction Overwrite at version 17., " +
      "/usr/local/cargo/registry/src/lance-12.0.0/src/io/commit/conflict_resolver.rs:1188:26",
  );
  assert.equal(classifyEngineError(lance).kind, "commit-conflict");
  assert.equal(toCatalogError(lance, "table 't'").code, 14);
});

test("Lance's errors for an object store it cannot reach are unavailable (17); a manifest write that failed is of unknown outcome (18, never retried blindly); missing objects and refused credentials are not outages", () => {
  // What Lance 0.39 raises with Azurite stopped (refused) and paused (no answer), as recorded.
  const listing = "Error performing list request: Error performing GET http://127.0.0.1:38993/devstoreaccount1/c34f?restype=container&comp=list&prefix=db%2Ft.lance%2F_versions%2F";
  const refused = new Error(`lance error: LanceError(IO): Generic MicrosoftAzure error: ${listing} in 101.6ms, after 1 retries, max_retries: 1, retry_timeout: 3s  - HTTP error: error sending request, /usr/local/cargo/registry/src/lance-io-12.0.0/src/object_store.rs:1490:92`);
  const hung = new Error(`Failed to execute query stream: GenericFailure, lance error: LanceError(IO): Generic MicrosoftAzure error: ${listing} in 3.0009s - HTTP error: error sending request`);
  for (const error of [refused, hung]) {
    assert.equal(classifyEngineError(error).kind, "unavailable");
    assert.equal(toCatalogError(error, "table 't'").code, 17);
  }
  const commit = new Error("lance error: LanceError(IO): Generic MicrosoftAzure error: Error performing put request db/t.lance/_versions/3.manifest: Error performing PUT http://127.0.0.1:1/devstoreaccount1/c/db/t.lance/_versions/3.manifest in 3s - HTTP error: error sending request");
  assert.equal(classifyEngineError(commit).kind, "commit-unknown");
  assert.equal(toCatalogError(commit, "table 't'").code, 18);
  const missing = new Error("lance error: Not found: db/t.lance/_versions/3.manifest, Object at location db/t.lance/_versions/3.manifest not found: Client error with status 404 Not Found: No Body");
  assert.notEqual(toCatalogError(missing, "table 't'").code, 17);
  const forbidden = new Error("lance error: LanceError(IO): Generic MicrosoftAzure error: Error performing GET http://h/c/x in 5ms - Server returned non-2xx status code: 403 Forbidden: AuthenticationFailed");
  assert.notEqual(toCatalogError(forbidden, "table 't'").code, 17);
});

test("ipcStreamToFile answers at once for an upload with any length field corrupted: refused as not Arrow, never a loop over billions", { timeout: 30_000 }, async () => {
  const table = tableFromArrays({ id: Int32Array.from([1, 2, 3]), name: ["a", "b", "c"] });
  table.schema.metadata.set("origin", "test");
  const writer = new RecordBatchStreamWriter();
  writer.write(table);
  writer.finish();
  const stream = Buffer.from(writer.toUint8Array(true));
  const slow: string[] = [];
  for (let offset = 0; offset + 4 <= stream.length; offset += 4) {
    const corrupt = Buffer.from(stream);
    corrupt.writeInt32LE(0x7ffffff0, offset);
    const started = performance.now();
    await ipcStreamToFile(corrupt).then(
      () => undefined,
      (error: unknown) => assert.ok(error instanceof ArrowDecodeError, `offset ${offset}: ${String(error)}`),
    );
    const elapsed = performance.now() - started;
    if (elapsed > 500) slow.push(`offset ${offset}: ${Math.round(elapsed)} ms`);
  }
  assert.deepEqual(slow, []);
});

function streamBytes(table: Table, options: { lz4?: boolean; legacy?: boolean } = {}): Buffer {
  const writer = new RecordBatchStreamWriter({
    ...(options.lz4 ? { compressionType: CompressionType.LZ4_FRAME } : {}),
    ...(options.legacy ? { writeLegacyIpcFormat: true } : {}),
  });
  writer.write(table);
  writer.finish();
  return Buffer.from(writer.toUint8Array(true));
}

async function* inChunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

/** Plain columns (strings from a JS array would be dictionary-encoded). */
const idsAndNames = () =>
  new Table({
    id: vectorFromArray(Array.from({ length: 500 }, (_, i) => i), new Int32()),
    name: vectorFromArray(Array.from({ length: 500 }, (_, i) => `name ${i % 7}`), new Utf8()),
  });

test("ipcStreamToFile re-frames a compressed stream without decoding it: batch bodies copied byte for byte, rows and batches counted", async () => {
  const table = idsAndNames();
  const stream = streamBytes(table, { lz4: true });
  const upload = await ipcStreamToFile(inChunksOf(stream, 7));
  assert.equal(upload.compressed, true);
  assert.equal(upload.numRows, 500);
  assert.equal(upload.numBatches, table.batches.length);
  // The stream's last 64 bytes before its end marker are the end of a compressed body, found as-is in the file.
  const bodyTail = stream.subarray(stream.length - 8 - 64, stream.length - 8);
  assert.ok(upload.file.includes(bodyTail), "the compressed body is in the file unchanged");
  const read = tableFromIPC(upload.file);
  assert.deepEqual([...read.getChild("id")!].slice(0, 3), [0, 1, 2]);
  assert.equal(read.getChild("name")!.get(499), "name 2");
});

test("ipcStreamToFile reads streams in the pre-0.15 framing (no continuation marker) and streams with dictionary columns", async () => {
  const legacy = await ipcStreamToFile(streamBytes(idsAndNames(), { legacy: true }));
  assert.equal(legacy.numRows, 500);
  assert.equal(tableFromIPC(legacy.file).getChild("name")!.get(8), "name 1");
  const dictionary = new Table({ id: vectorFromArray([1, 2, 3], new Int32()), tag: vectorFromArray(["x", "y", "x"], new Dictionary(new Utf8(), new Int32())) });
  assert.equal(dictionary.schema.dictionaries.size, 1);
  const decoded = await ipcStreamToFile(inChunksOf(streamBytes(dictionary), 5));
  assert.equal(decoded.numRows, 3);
  assert.deepEqual([...tableFromIPC(decoded.file).getChild("tag")!], ["x", "y", "x"]);
});

test("ipcStreamToFile refuses an IPC file, a truncated stream and a stream without a schema, as the client's mistakes", async () => {
  const table = idsAndNames();
  await assert.rejects(ipcStreamToFile(fileOf(table)), (error: unknown) => error instanceof ArrowDecodeError && /send an Arrow IPC stream/.test(error.message));
  const stream = streamBytes(table);
  await assert.rejects(ipcStreamToFile(stream.subarray(0, stream.length - 100)), (error: unknown) => error instanceof ArrowDecodeError && /ends in the middle/.test(error.message));
  await assert.rejects(ipcStreamToFile(Buffer.alloc(0)), (error: unknown) => error instanceof ArrowDecodeError && /no schema/.test(error.message));
});

test("an engine error quoting the store's request URLs (the proxy's path token, a SAS query) → the answer names neither; the table's own location stays", () => {
  const quoted = new Error(
    "Invalid user input: Generic S3 error: Error performing PUT http://127.0.0.1:40123/0123456789abcdef0123456789abcdef/lake/data/x.lance in 12ms - InvalidArgument; also https://acct.blob.core.windows.net/c/d?sv=2024&sig=SECRET for az://lake/tables/t.lance",
  );
  const answered = toCatalogError(quoted, "table 't'");
  assert.equal(answered.code, 13);
  for (const secret of ["0123456789abcdef0123456789abcdef", "sig=SECRET", "127.0.0.1:40123"]) assert.ok(!answered.message.includes(secret), answered.message);
  assert.match(answered.message, /<store URL>/);
  assert.match(answered.message, /az:\/\/lake\/tables\/t\.lance/);
});
