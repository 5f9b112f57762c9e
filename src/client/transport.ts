/**
 * @module What an implementation does: carry one prepared call to the catalog (in-process for
 * `dir`, over HTTP for `rest`) and hand back the decoded answer, throwing `NamespaceError`.
 */
import type { Capabilities } from "../model/capabilities.js";
import type { OperationEntry } from "../model/operations/operation-entry.js";
import type { OperationName } from "./operations.js";

export type ImplName = "dir" | "rest";

/** A call after the shared checks: identifier resolved, request validated, data serialised. */
export interface PreparedCall {
  name: OperationName;
  entry: OperationEntry;
  /** The request model with `id` in list form (absent for operations without a path id). */
  request: Record<string, unknown> & { id?: string[] };
  /** The request's `context` entries, checked to be sendable as headers. */
  context: Record<string, string>;
  /** Arrow IPC stream bytes, for operations with an Arrow body. */
  data?: Uint8Array;
}

export interface Transport {
  readonly implName: ImplName;
  /** Separator of string identifiers (ListAllTables answers, REST paths); default `$`. */
  readonly delimiter: string;
  /** Runs the call; resolves with the answer decoded for `entry.response`. */
  invoke(call: PreparedCall): Promise<unknown>;
  /** The capability document of what carries the calls: the server's (`rest`), or the in-process catalog's (`dir`). */
  capabilities(): Promise<Capabilities>;
  close(): Promise<void>;
}

/** Reads a chunked answer (a Node stream or any async iterable of bytes) into one buffer. */
export async function collectBytes(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return Buffer.concat(chunks);
}
