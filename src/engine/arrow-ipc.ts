/**
 * @module Arrow IPC plumbing between the wire and Lance. Uploads arrive as IPC streams, often
 * with LZ4_FRAME-compressed buffers (the LanceDB client always compresses); the native Lance
 * binding takes IPC files and yields one IPC file per result batch. Data stays columnar
 * throughout: no row objects are built.
 */
import { Buffer } from "node:buffer";
import * as lz4 from "lz4js";
import "./flatbuffer-bounds.js";
import {
  CompressionType,
  RecordBatch,
  RecordBatchFileWriter,
  RecordBatchReader,
  Schema,
  compressionRegistry,
  tableFromIPC,
} from "apache-arrow-21";

compressionRegistry.set(CompressionType.LZ4_FRAME, {
  encode: (bytes: Uint8Array) => lz4.compress(bytes),
  decode: (bytes: Uint8Array) => lz4.decompress(bytes),
});

/** The body was not a readable Arrow IPC stream. */
export class ArrowDecodeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ArrowDecodeError";
  }
}

export interface DecodedUpload {
  /** The rows as one uncompressed Arrow IPC file, ready for the native binding. */
  file: Buffer;
  schema: Schema;
  numRows: number;
  numBatches: number;
}

/** Reads an Arrow IPC stream (compressed or not) and re-frames it as an IPC file. */
export async function ipcStreamToFile(source: AsyncIterable<Uint8Array> | Uint8Array): Promise<DecodedUpload> {
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
  try {
    for await (const batch of reader as AsyncIterable<RecordBatch>) {
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
