/**
 * @module Arrow IPC plumbing between the wire and Lance. Uploads arrive as IPC streams, often
 * with LZ4_FRAME-compressed buffers (the LanceDB client always compresses); the native Lance
 * binding takes IPC files and yields one IPC file per result batch. Data stays columnar
 * throughout: no row objects are built.
 */
import { Buffer } from "node:buffer";
import * as lz4 from "lz4js";
import { ArrowDecodeError } from "./arrow-decode-error.js";
import { checkDecodedBatch } from "./decoded-batch-checks.js";
import { isUnreadableUpload } from "./engine-errors.js";
import { reframeIpcStream } from "./ipc-reframe.js";
import "./flatbuffer-bounds.js";
import {
  CompressionType,
  RecordBatch,
  RecordBatchFileWriter,
  RecordBatchReader,
  Schema,
  type Vector,
  compressionRegistry,
  tableFromIPC,
  tableToIPC,
} from "apache-arrow-21";

compressionRegistry.set(CompressionType.LZ4_FRAME, {
  encode: (bytes: Uint8Array) => lz4.compress(bytes),
  decode: (bytes: Uint8Array) => lz4.decompress(bytes),
});

export { ArrowDecodeError };

export interface DecodedUpload {
  /** The rows as one Arrow IPC file, ready for the native binding; its bodies may be compressed. */
  file: Buffer;
  /** Whether any batch body is compressed (LZ4 or ZSTD), to be decompressed by the engine. */
  compressed?: boolean;
  schema: Schema;
  numRows: number;
  numBatches: number;
}

/**
 * Reads an Arrow IPC stream (compressed or not) and re-frames it as an IPC file: message by
 * message, bodies copied as they are (see ipc-reframe.ts); streams with dictionary columns are
 * decoded and written anew.
 */
export async function ipcStreamToFile(source: AsyncIterable<Uint8Array> | Uint8Array): Promise<DecodedUpload> {
  const reframed = await reframeIpcStream(source);
  return reframed.upload ?? decodeStreamToFile(reframed.replay);
}

/** Decodes every batch of an IPC stream and writes them into a new IPC file. */
async function decodeStreamToFile(source: AsyncIterable<Uint8Array> | Uint8Array): Promise<DecodedUpload> {
  let reader: RecordBatchReader;
  try {
    reader = await RecordBatchReader.from(source as AsyncIterable<Uint8Array>);
    await reader.open();
  } catch (cause) {
    throw new ArrowDecodeError(`body is not an Arrow IPC stream: ${messageOf(cause)}`, { cause });
  }
  if (!reader.schema) throw new ArrowDecodeError("body is not an Arrow IPC stream: it holds no schema");
  if (reader.isFile()) throw new ArrowDecodeError("body is an Arrow IPC file; send an Arrow IPC stream");
  const writer = new RecordBatchFileWriter();
  writer.reset(undefined, reader.schema);
  let numRows = 0;
  let numBatches = 0;
  const checkedDictionaries = new WeakSet<Vector>();
  try {
    for await (const batch of reader as AsyncIterable<RecordBatch>) {
      checkDecodedBatch(batch, checkedDictionaries);
      writer.write(batch);
      numRows += batch.numRows;
      numBatches += 1;
    }
  } catch (cause) {
    throw new ArrowDecodeError(`Arrow IPC stream is corrupt: ${messageOf(cause)}`, { cause });
  }
  writer.finish();
  return { file: asBuffer(writer.toUint8Array(true)), schema: reader.schema, numRows, numBatches };
}

/**
 * Runs an engine write that reads `upload`. The engine decompresses the bodies itself, but is
 * stricter about LZ4 framing than some writers (a frame holding a buffer's padding); an upload it
 * cannot read for that reason is decompressed here and the write runs once more. Nothing was
 * committed by the failed attempt: the engine reads every batch before it writes.
 */
export async function readingUpload<T>(upload: DecodedUpload, write: (file: Buffer) => Promise<T>): Promise<T> {
  try {
    return await write(upload.file);
  } catch (error) {
    if (!upload.compressed || !isUnreadableUpload(error)) throw error;
    const rewritten = tableToIPC(tableFromIPC(upload.file), "file");
    return write(asBuffer(rewritten));
  }
}

/** Reads the schema out of an IPC file buffer (the binding returns schemas that way). */
export function schemaOfIpcFile(buffer: Uint8Array): Schema {
  return tableFromIPC(buffer).schema;
}

/** An IPC file holding only `schema`, no batches. */
export function schemaOnlyIpcFile(schema: Schema): Buffer {
  const writer = new RecordBatchFileWriter();
  writer.reset(undefined, schema);
  writer.finish();
  return asBuffer(writer.toUint8Array(true));
}

/** A Buffer over the same memory: uploads can be large, so they are not copied again. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// The rest of the Arrow IPC plumbing the catalog uses (merging uploaded parts, encoding listings), from this one module.
export { encodeIpcStream } from "./arrow-encode.js";
export { mergeIpcFiles, schemaOfIpcFooter } from "./ipc-file-merge.js";
