/**
 * @module Re-frames an uploaded Arrow IPC stream as the IPC file the native binding takes,
 * message by message, without decoding a record batch: bodies (LZ4-compressed as the LanceDB
 * client sends them, or plain) are copied as they arrived and decompressed once, by the engine.
 * Only the framing and each message's metadata are read, and checked enough that a malformed
 * upload is the client's mistake (ArrowDecodeError), never the engine's. Streams with dictionary
 * columns, which the file format frames differently, are left to the decoding path.
 */
import { Buffer } from "node:buffer";
import { MessageHeader, MetadataVersion, type Schema } from "apache-arrow-21";
import { Message } from "apache-arrow-21/ipc/metadata/message";
import { FileBlock, Footer } from "apache-arrow-21/ipc/metadata/file";
import type { RecordBatch as RecordBatchHeader } from "apache-arrow-21/ipc/metadata/message";
import { ArrowDecodeError } from "./arrow-decode-error.js";
import type { DecodedUpload } from "./arrow-ipc.js";
import { ByteQueue } from "./byte-queue.js";

const fileMagic = Buffer.from("ARROW1\0\0");
const trailerMagic = Buffer.from("ARROW1");
const continuation = Buffer.from([0xff, 0xff, 0xff, 0xff]);
/** Far above any real message's metadata (a schema of thousands of columns is a few hundred KiB). */
const maxMetadataBytes = 64 * 1024 * 1024;

/**
 * The upload as an IPC file, or `undefined` with the stream untouched when it needs decoding
 * (dictionary columns); `replay` then yields every byte of the stream from its start.
 */
export async function reframeIpcStream(
  source: AsyncIterable<Uint8Array> | Uint8Array,
): Promise<{ upload: DecodedUpload } | { upload: undefined; replay: AsyncIterable<Uint8Array> }> {
  const bytes = new ByteQueue(source);
  const first = await readMessage(bytes, true);
  if (!first || first.message.headerType !== MessageHeader.Schema) throw new ArrowDecodeError("body is not an Arrow IPC stream: it holds no schema");
  const schema = headerOf<Schema>(first.message);
  if (schema.dictionaries.size > 0) return { upload: undefined, replay: bytes.replayFromStart() };
  bytes.stopRecording();
  const parts: Buffer[] = [fileMagic, ...frame(first.metadata)];
  let position = fileMagic.length + 8 + first.metadata.length;
  const blocks: FileBlock[] = [];
  /** Every batch carries one node per field, nested ones included. */
  const fieldNodes = countNodes(schema.fields);
  let numRows = 0;
  let compressed = false;
  for (let next = await readMessage(bytes); next; next = await readMessage(bytes)) {
    const { message, metadata, body } = next;
    if (message.headerType !== MessageHeader.RecordBatch) {
      throw corrupt(`unexpected ${MessageHeader[message.headerType] ?? "unknown"} message after the schema`);
    }
    const batch = headerOf<RecordBatchHeader>(message);
    checkBatch(batch, fieldNodes, body.length);
    parts.push(...frame(metadata), body);
    blocks.push(new FileBlock(8 + metadata.length, body.length, position));
    position += 8 + metadata.length + body.length;
    numRows += Number(batch.length);
    compressed ||= batch.compression !== null && batch.compression !== undefined;
  }
  const footer = Buffer.from(Footer.encode(new Footer(schema, MetadataVersion.V5, blocks, [])));
  const footerLength = Buffer.alloc(4);
  footerLength.writeInt32LE(footer.length);
  parts.push(footer, footerLength, trailerMagic);
  return { upload: { file: Buffer.concat(parts), schema, numRows, numBatches: blocks.length, compressed } };
}

/** A message's encapsulation: the continuation marker and the metadata's length, then the metadata. */
function frame(metadata: Buffer): Buffer[] {
  const length = Buffer.alloc(4);
  length.writeInt32LE(metadata.length);
  return [continuation, length, metadata];
}

interface RawMessage {
  message: Message;
  /** The flatbuffer, padded so that the framed message stays 8-byte aligned. */
  metadata: Buffer;
  body: Buffer;
}

/** The next message, or undefined at the end of the stream (its end marker, or its last byte). */
async function readMessage(bytes: ByteQueue, first = false): Promise<RawMessage | undefined> {
  const prefix = await bytes.read(4, truncated);
  if (!prefix) return undefined;
  if (first && prefix.toString("latin1") === "ARRO") throw new ArrowDecodeError("body is an Arrow IPC file; send an Arrow IPC stream");
  let length = prefix.readInt32LE(0);
  // Since format 0.15 a message starts with a continuation marker; older writers omit it.
  if (length === -1) length = (await readAll(bytes, 4)).readInt32LE(0);
  if (length === 0) return undefined;
  if (length < 0 || length > maxMetadataBytes) throw corrupt(`a message declares ${length} bytes of metadata`);
  const raw = await readAll(bytes, length);
  let message: Message;
  try {
    message = Message.decode(raw);
  } catch (cause) {
    throw corrupt(`a message's metadata cannot be read (${cause instanceof Error ? cause.message : String(cause)})`, cause);
  }
  const bodyLength = Number(message.bodyLength);
  if (!Number.isSafeInteger(bodyLength) || bodyLength < 0) throw corrupt(`a message declares a body of ${String(message.bodyLength)} bytes`);
  const body = bodyLength === 0 ? Buffer.alloc(0) : await readAll(bytes, bodyLength);
  const padding = (8 - (raw.length % 8)) % 8;
  return { message, metadata: padding === 0 ? raw : Buffer.concat([raw, Buffer.alloc(padding)]), body };
}

/** A message's header (schema or batch metadata), parsed when first asked for: corrupt metadata fails here. */
function headerOf<T>(message: Message): T {
  try {
    return message.header() as T;
  } catch (cause) {
    throw corrupt(`a message's metadata cannot be read (${cause instanceof Error ? cause.message : String(cause)})`, cause);
  }
}

/** What decoding would have refused, checked on the metadata alone: every buffer lies inside the body, one node per field. */
function checkBatch(header: RecordBatchHeader, expectedNodes: number, bodyLength: number): void {
  const rows = Number(header.length);
  if (!Number.isSafeInteger(rows) || rows < 0) throw corrupt(`a record batch declares ${String(header.length)} rows`);
  if (header.nodes.length !== expectedNodes) throw corrupt(`a record batch has ${header.nodes.length} field nodes where the schema has ${expectedNodes}`);
  for (const buffer of header.buffers) {
    const offset = Number(buffer.offset);
    const length = Number(buffer.length);
    if (offset < 0 || length < 0 || offset + length > bodyLength) throw corrupt("a record batch's buffer lies outside its body");
  }
}

function countNodes(fields: readonly { type: { children?: readonly unknown[] } }[]): number {
  let count = 0;
  for (const field of fields) {
    count += 1;
    const children = field.type.children as readonly { type: { children?: readonly unknown[] } }[] | undefined;
    if (children) count += countNodes(children);
  }
  return count;
}

const truncated = () => corrupt("it ends in the middle of a message");

async function readAll(bytes: ByteQueue, length: number): Promise<Buffer> {
  const read = await bytes.read(length, truncated);
  if (!read) throw truncated();
  return read;
}

function corrupt(reason: string, cause?: unknown): ArrowDecodeError {
  return new ArrowDecodeError(`Arrow IPC stream is corrupt: ${reason}`, cause === undefined ? undefined : { cause });
}
