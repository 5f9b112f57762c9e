/**
 * Tables and requests shared by the data tests: a small table with an id, a text column, an
 * 8-dimensional vector and a struct, written as Arrow IPC streams like the clients send.
 */
import {
  CompressionType,
  Field,
  FixedSizeList,
  Float32,
  Int32,
  RecordBatchStreamWriter,
  Struct,
  Table,
  Utf8,
  vectorFromArray,
} from "apache-arrow-21";
import "../../src/engine/arrow-ipc.js";
import { type TestServer, expectJson } from "../helpers/test-server.js";

export const dim = 8;
const vectorType = new FixedSizeList(dim, new Field("item", new Float32(), true));
const metaType = new Struct([new Field("x", new Int32(), true), new Field("a.b", new Utf8(), true)]);

/** A deterministic vector per id: rows with nearby ids are not nearby vectors. */
export function vectorOf(id: number): number[] {
  return Array.from({ length: dim }, (_, j) => Math.sin(id * dim + j));
}

export function textOf(id: number): string {
  return `row number ${id} ${id % 3 === 0 ? "lance fish" : "plain bird"}`;
}

/** Rows with the given ids as an Arrow table. */
export function rowsTable(ids: number[]): Table {
  return new Table({
    id: vectorFromArray(ids, new Int32()),
    text: vectorFromArray(ids.map(textOf), new Utf8()),
    vector: vectorFromArray(ids.map(vectorOf), vectorType),
    meta: vectorFromArray(ids.map((id) => ({ x: id, "a.b": `s${id}` })), metaType),
  });
}

/** An Arrow IPC stream of `table`, LZ4-compressed when asked, like the LanceDB client's. */
export function streamOf(table: Table, options: { lz4?: boolean } = {}): Uint8Array {
  const writer = new RecordBatchStreamWriter(options.lz4 ? { compressionType: CompressionType.LZ4_FRAME } : {});
  for (const batch of table.batches) writer.write(batch);
  writer.finish();
  return writer.toUint8Array(true);
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/** Creates table `name` in the root namespace holding rows with ids [0, n). */
export async function createRowsTable(server: TestServer, name: string, n: number): Promise<void> {
  await expectJson(await server.upload(`/v1/table/${name}/create`, streamOf(rowsTable(range(0, n)))));
}
