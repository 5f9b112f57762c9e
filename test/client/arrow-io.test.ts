/**
 * The client's Arrow edge: what writes accept and how answers are decoded.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Table, tableFromIPC, tableToIPC } from "apache-arrow";
import { fromIpc, toIpcStream } from "../../src/client/arrow-io.js";
import { NamespaceError } from "../../src/client/index.js";
import { arrowStream } from "../helpers/arrow.js";
import { sampleTable } from "./client-fixtures.js";

const isStream = (bytes: Uint8Array) => !Buffer.from(bytes.subarray(0, 6)).equals(Buffer.from("ARROW1"));

test("toIpcStream of a Table, a RecordBatch, a batch list and an ArrayBuffer → IPC streams holding the same rows", () => {
  const table = sampleTable();
  const bytes = tableToIPC(table, "stream");
  const inputs = [table, table.batches[0]!, table.batches, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)];
  for (const input of inputs) {
    const stream = toIpcStream(input as never);
    assert.ok(isStream(stream));
    const decoded = tableFromIPC(stream);
    assert.equal(decoded.numRows, 3);
    assert.deepEqual(decoded.getChild("id")?.toArray(), table.getChild("id")?.toArray());
  }
});

test("toIpcStream of IPC file bytes → re-framed as a stream; of stream bytes (LZ4 included) → passed through unchanged", () => {
  const file = tableToIPC(sampleTable(), "file");
  const reframed = toIpcStream(file);
  assert.ok(isStream(reframed));
  assert.equal(tableFromIPC(reframed).numRows, 3);

  const compressed = arrowStream({ n: Int32Array.from([1, 2]) }, { lz4: true });
  assert.equal(toIpcStream(compressed), compressed);
});

test("toIpcStream of rows, an empty batch list or a corrupt IPC file → NamespaceError code 13", () => {
  for (const input of [[{ id: 1 }], [], "id,score", { schema: {} }]) {
    assert.throws(() => toIpcStream(input as never), (error: unknown) => error instanceof NamespaceError && error.code === 13);
  }
  const corrupt = new Uint8Array([...Buffer.from("ARROW1"), 0, 0, 1, 2, 3]);
  assert.throws(() => toIpcStream(corrupt), (error: unknown) => error instanceof NamespaceError && error.code === 13);
});

test("fromIpc of an IPC file → an apache-arrow Table of the client's arrow package; of other bytes → code 18", () => {
  const decoded = fromIpc(tableToIPC(sampleTable(), "file"));
  assert.ok(decoded instanceof Table);
  assert.equal(decoded.numRows, 3);
  assert.throws(() => fromIpc(new TextEncoder().encode("{\"rows\": []}")), (error: unknown) => error instanceof NamespaceError && error.code === 18);
});
