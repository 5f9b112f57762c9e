/**
 * @module Arrow at the client's edge. Callers hand in apache-arrow objects of the `apache-arrow`
 * package (major 18, the one `@lancedb/lancedb` uses) or raw IPC bytes; the wire and the
 * catalog take IPC streams. Results come back as apache-arrow Tables of the same package.
 */
import { RecordBatch, Table, tableFromIPC, tableToIPC } from "apache-arrow";
import { NamespaceError } from "./namespace-error.js";

/**
 * Arrow data a write accepts: an apache-arrow `Table`, a `RecordBatch` or a list of them
 * (one schema), or Arrow IPC bytes (stream or file format; LZ4-compressed streams pass as is).
 */
export type ArrowInput = Table | RecordBatch | readonly RecordBatch[] | Uint8Array | ArrayBuffer;

/** The magic bytes that open an Arrow IPC file (a stream opens with a message length). */
const fileMagic = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // "ARROW1"

function isIpcFile(bytes: Uint8Array): boolean {
  return bytes.length >= fileMagic.length && fileMagic.every((byte, i) => bytes[i] === byte);
}

/** Serialises `data` as an Arrow IPC stream. Throws 13 for anything that is not Arrow data. */
export function toIpcStream(data: ArrowInput): Uint8Array {
  if (data instanceof Table) return tableToIPC(data, "stream");
  if (data instanceof RecordBatch) return tableToIPC(new Table(data), "stream");
  if (Array.isArray(data) && data.length > 0 && data.every((batch) => batch instanceof RecordBatch)) {
    return tableToIPC(new Table(data as RecordBatch[]), "stream");
  }
  if (data instanceof ArrayBuffer) return toIpcStream(new Uint8Array(data));
  if (data instanceof Uint8Array) {
    // The server reads streams only (spec/endpoints.md §5.1); a file is re-framed here.
    if (!isIpcFile(data)) return data;
    try {
      return tableToIPC(tableFromIPC(data), "stream");
    } catch (cause) {
      throw NamespaceError.of("InvalidInput", `data is not a readable Arrow IPC file: ${(cause as Error).message}`, { cause });
    }
  }
  throw NamespaceError.of(
    "InvalidInput",
    "data must be an apache-arrow Table or RecordBatch (apache-arrow 18, as @lancedb/lancedb uses), a non-empty list of RecordBatches, or Arrow IPC bytes",
  );
}

/** Decodes an Arrow IPC file (or stream) answer. Throws 18 when it is not Arrow. */
export function fromIpc(bytes: Uint8Array): Table {
  try {
    return tableFromIPC(bytes);
  } catch (cause) {
    throw NamespaceError.of("Internal", `answer is not Arrow IPC data: ${(cause as Error).message}`, { cause });
  }
}
