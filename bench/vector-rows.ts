/**
 * The rows the insert and query benchmarks upload: `id`, `text` and a `dim`-wide float vector,
 * deterministic so that every run and every side of a comparison writes the same bytes.
 */
import { Field, FixedSizeList, Float32, Int32, RecordBatchStreamWriter, Table, Utf8, vectorFromArray } from "apache-arrow-21";

/** An Arrow IPC stream of rows `from` .. `from + count - 1`. */
export function vectorRowsStream(from: number, count: number, dim: number): Uint8Array {
  const ids = Array.from({ length: count }, (_, i) => from + i);
  const type = new FixedSizeList(dim, new Field("item", new Float32(), true));
  const table = new Table({
    id: vectorFromArray(ids, new Int32()),
    text: vectorFromArray(ids.map((id) => `row ${id}`), new Utf8()),
    vector: vectorFromArray(ids.map((id) => Array.from({ length: dim }, (_, j) => Math.sin(id * dim + j))), type),
  });
  const writer = new RecordBatchStreamWriter();
  for (const batch of table.batches) writer.write(batch);
  writer.finish();
  return writer.toUint8Array(true);
}
