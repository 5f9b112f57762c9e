/**
 * @module The bytes of blob v2 columns (`lance.blob.v2`): whole blobs of many rows as an Arrow IPC
 * stream, and one blob's bytes read range by range, both at the version a read names. Row ids are
 * the `_rowid` values a query with row ids answers.
 */
import { Buffer } from "node:buffer";
import { LargeBinary, Table, tableToIPC, vectorFromArray } from "apache-arrow-21";
import type { Engine, TableRef } from "./engine.js";
import { EngineError } from "./engine-errors.js";
import type { NativeTable } from "./lance-native.js";
import { inSpan } from "../tracing/spans.js";

/** Rows whose blobs add up to about this many bytes go out as one record batch. */
const batchBytes = 8 * 1024 * 1024;
/** One blob is read from the store this many bytes at a time. */
export const blobReadChunkBytes = 1024 * 1024;

/** The blob of one row, opened but not read. */
export interface OpenedBlob {
  size: number;
  /** The bytes of `[start, end)`, in chunks of at most `blobReadChunkBytes`. */
  read(start: number, end: number): AsyncIterable<Buffer>;
}

export interface BlobBytes {
  /** The version read. */
  version: number;
  /** Null for a null blob. */
  blob: OpenedBlob | null;
}

export interface FetchedBlobs {
  version: number;
  /** An Arrow IPC stream of one LargeBinary column named `column`, a row per requested id. */
  chunks: AsyncIterable<Buffer>;
}

type NativeBlobFile = Awaited<ReturnType<NativeTable["fetchBlobFiles"]>>[number];

async function* readRange(engine: Engine, file: NonNullable<NativeBlobFile>, start: number, end: number): AsyncGenerator<Buffer> {
  for (let at = start; at < end; at += blobReadChunkBytes) {
    const until = Math.min(end, at + blobReadChunkBytes);
    yield await engine.call(() => file.readRange(BigInt(at), BigInt(until)));
  }
}

/** Opens the blob files of `rowIds`; a missing column, a column that holds no blobs or an id not in the table fails here. */
async function openFiles(engine: Engine, table: NativeTable, column: string, rowIds: readonly number[]): Promise<(NativeBlobFile | null)[]> {
  const files = await engine.call(() => table.fetchBlobFiles(column, rowIds.map((id) => BigInt(id))));
  return files.map((file) => file ?? null);
}

/**
 * The message bytes of an IPC stream of one batch: the schema message only for the first batch,
 * never the end-of-stream marker (written once, after the last batch).
 */
function batchMessages(stream: Uint8Array, first: boolean): Buffer {
  const bytes = Buffer.from(stream.buffer, stream.byteOffset, stream.byteLength);
  // A stream message is a 0xFFFFFFFF continuation, a 4-byte metadata length, then the metadata;
  // the schema message has no body.
  const schemaLength = 8 + bytes.readInt32LE(4);
  return bytes.subarray(first ? 0 : schemaLength, bytes.length - 8);
}

const endOfStream = Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

async function* ipcStreamOf(engine: Engine, column: string, files: (NativeBlobFile | null)[]): AsyncGenerator<Buffer> {
  let rows: (Uint8Array | null)[] = [];
  let bytes = 0;
  let first = true;
  const flush = (): Buffer => {
    const table = new Table({ [column]: vectorFromArray(rows, new LargeBinary()) });
    const messages = batchMessages(tableToIPC(table, "stream"), first);
    first = false;
    rows = [];
    bytes = 0;
    return messages;
  };
  for (const file of files) {
    if (!file) {
      rows.push(null);
      continue;
    }
    const size = Number(file.size());
    if (bytes > 0 && bytes + size > batchBytes) yield flush();
    const parts: Buffer[] = [];
    for await (const part of readRange(engine, file, 0, size)) parts.push(part);
    rows.push(Buffer.concat(parts, size));
    bytes += size;
  }
  if (rows.length > 0 || first) yield flush();
  yield endOfStream;
}

/** Blob reads of one engine. */
export class TableBlobs {
  constructor(private readonly engine: Engine) {}

  /**
   * The blobs of `column` at `rowIds`, in order, duplicates and nulls kept, as an IPC stream whose
   * batches hold about 8 MiB each (a larger blob is a batch of its own). The files are opened
   * before this returns, so a bad column or row id fails before any byte is sent.
   */
  fetch(location: string, ref: TableRef, column: string, rowIds: readonly number[]): Promise<FetchedBlobs> {
    return inSpan("engine.fetchBlobs", { "quiver.table.location": location }, async () => {
      const table = await this.engine.readTable(location, ref);
      const [version, files] = await Promise.all([this.engine.call(() => table.version()), openFiles(this.engine, table, column, rowIds)]);
      return { version, chunks: ipcStreamOf(this.engine, column, files) };
    });
  }

  /** The blob of `column` at `rowId`, opened for ranged reads. */
  open(location: string, ref: TableRef, column: string, rowId: number): Promise<BlobBytes> {
    return inSpan("engine.openBlob", { "quiver.table.location": location }, async () => {
      const table = await this.engine.readTable(location, ref);
      const [version, [file]] = await Promise.all([this.engine.call(() => table.version()), openFiles(this.engine, table, column, [rowId])]);
      if (!file) return { version, blob: null };
      const size = Number(file.size());
      return {
        version,
        blob: {
          size,
          read: (start, end) => {
            if (start < 0 || end > size || start > end) throw new EngineError("invalid-input", `blob range ${start}-${end} is outside its ${size} bytes`);
            return readRange(this.engine, file, start, end);
          },
        },
      };
    });
  }
}
