/**
 * Arrow IPC bodies for tests, built with the same apache-arrow major the server decodes with.
 */
import { CompressionType, RecordBatchStreamWriter, type Table, type Vector, tableFromArrays, tableFromIPC } from "apache-arrow-21";
import "../../src/engine/arrow-ipc.js";

/** Typed or plain arrays, or ready-made vectors for types arrays cannot imply (e.g. a fixed-size list). */
type Columns = Record<string, Parameters<typeof tableFromArrays>[0][string] | Vector>;

/** An Arrow IPC stream of the given columns, optionally LZ4-compressed like the LanceDB client's. */
export function arrowStream(columns: Columns, options: { lz4?: boolean } = {}): Uint8Array {
  const writer = new RecordBatchStreamWriter(options.lz4 ? { compressionType: CompressionType.LZ4_FRAME } : {});
  writer.write(tableFromArrays(columns as Parameters<typeof tableFromArrays>[0]));
  writer.finish();
  return writer.toUint8Array(true);
}

/** Decodes an Arrow IPC file or stream response body into a table. */
export async function readArrow(response: Response): Promise<Table> {
  return tableFromIPC(new Uint8Array(await response.arrayBuffer()));
}

/** Plain objects of a table's rows, for assertions. */
export function rowsOf(table: Table): Record<string, unknown>[] {
  return table.toArray().map((row) => ({ ...row.toJSON() }));
}
