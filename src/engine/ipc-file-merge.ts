/**
 * @module Re-frames the engine's query batches, each a complete Arrow IPC file, into one IPC
 * file on the wire, batch by batch. Record-batch messages are copied byte for byte (compressed
 * or not); only a new footer listing their offsets is written. Nothing is decoded into rows.
 */
import { Buffer } from "node:buffer";
import { type DataType, Dictionary, MetadataVersion, type Schema, Table, type Vector, tableFromIPC, tableToIPC, vectorFromArray } from "apache-arrow-21";
import { FileBlock, Footer } from "apache-arrow-21/ipc/metadata/file";
import { Message, type RecordBatch } from "apache-arrow-21/ipc/metadata/message";

const magic = Buffer.from("ARROW1");
/** Magic (6 bytes) padded to 8, as every IPC file begins. */
const headerLength = 8;
/** The end of an IPC file: footer length (int32) and the magic. */
const trailerLength = 4 + magic.length;

interface ParsedFile {
  buffer: Buffer;
  footer: Footer;
  blocks: FileBlock[];
  footerStart: number;
}

function parseFile(buffer: Buffer): ParsedFile {
  if (buffer.length < headerLength + trailerLength || !buffer.subarray(buffer.length - magic.length).equals(magic)) {
    throw new Error("engine returned a batch that is not an Arrow IPC file");
  }
  const footerLength = buffer.readInt32LE(buffer.length - trailerLength);
  const footerStart = buffer.length - trailerLength - footerLength;
  const footer = Footer.decode(buffer.subarray(footerStart, footerStart + footerLength));
  return { buffer, footer, blocks: [...footer.recordBatches()], footerStart };
}

/** The schema of an IPC file, from its footer (no batch is read). */
export function schemaOfIpcFooter(buffer: Buffer): Schema {
  return parseFile(buffer).footer.schema;
}

/** The rows of an IPC file, from its batches' metadata (no body is read). */
export function rowsOfIpcFile(buffer: Buffer): number {
  const { blocks } = parseFile(buffer);
  let rows = 0;
  for (const block of blocks) {
    // A block is the continuation marker, the metadata's length, the metadata, then the body.
    const metadata = buffer.subarray(block.offset + 8, block.offset + block.metaDataLength);
    rows += Number((Message.decode(metadata).header() as RecordBatch).length);
  }
  return rows;
}

function hasDictionaries(schema: Schema): boolean {
  return schema.dictionaries.size > 0;
}

/**
 * Yields one IPC file holding `first` and every batch `next` returns until it returns null.
 * Dictionary-encoded results (each engine batch may carry its own dictionary, which the file
 * format cannot replace) have those columns decoded to plain values, one batch at a time.
 */
export async function* mergeIpcFiles(first: Buffer, next: () => Promise<Buffer | null>): AsyncGenerator<Buffer> {
  const head = parseFile(first);
  if (hasDictionaries(head.footer.schema)) {
    yield* copyBatches(parseFile(withoutDictionaries(first)), async () => {
      const buffer = await next();
      return buffer && withoutDictionaries(buffer);
    });
    return;
  }
  yield* copyBatches(head, next);
}

async function* copyBatches(head: ParsedFile, next: () => Promise<Buffer | null>): AsyncGenerator<Buffer> {
  const first = head.buffer;
  const firstBlockStart = head.blocks.length > 0 ? Math.min(...head.blocks.map((b) => b.offset)) : head.footerStart;
  // The prefix is the magic, its padding and the schema message.
  const prefix = first.subarray(0, firstBlockStart);
  yield prefix;
  let position = prefix.length;
  const written: FileBlock[] = [];
  for (let file: ParsedFile | null = head; file; ) {
    for (const block of file.blocks) {
      const length = block.metaDataLength + block.bodyLength;
      yield file.buffer.subarray(block.offset, block.offset + length);
      written.push(new FileBlock(block.metaDataLength, block.bodyLength, position));
      position += length;
    }
    const buffer = await next();
    file = buffer ? parseFile(buffer) : null;
  }
  const footer = Buffer.from(Footer.encode(new Footer(head.footer.schema, MetadataVersion.V5, written, [])));
  const trailer = Buffer.alloc(4);
  trailer.writeInt32LE(footer.length);
  yield Buffer.concat([footer, trailer, magic]);
}

/** One engine batch file with its top-level dictionary columns turned into plain columns. */
function withoutDictionaries(buffer: Buffer): Buffer {
  const table = tableFromIPC(buffer);
  const columns: Record<string, Vector> = {};
  for (const field of table.schema.fields) {
    const column = table.getChild(field.name) as Vector;
    columns[field.name] = field.type instanceof Dictionary ? plainVector(column, field.type.dictionary) : column;
  }
  const bytes = tableToIPC(new Table(columns), "file");
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Dictionary columns are rare (strings written by apache-arrow JS); only they are materialised. */
function plainVector(column: Vector, valueType: DataType): Vector {
  return vectorFromArray([...column], valueType);
}
