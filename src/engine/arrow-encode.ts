/**
 * @module Encodes small column sets (job events) as an Arrow IPC stream, the framing the
 * LanceDB client reads for `/v1/jobs/query_events`.
 */
import { Buffer } from "node:buffer";
import { Int64, Table, Utf8, type Vector, tableToIPC, vectorFromArray } from "apache-arrow-21";

export interface EventColumns {
  strings: Record<string, (string | null)[]>;
  integers: Record<string, (number | null)[]>;
}

/** Columns in the given order: strings as Utf8, integers as Int64. */
export function encodeIpcStream(order: readonly string[], columns: EventColumns): Buffer {
  const vectors: Record<string, Vector> = {};
  for (const name of order) {
    if (name in columns.strings) vectors[name] = vectorFromArray(columns.strings[name] as (string | null)[], new Utf8());
    else vectors[name] = vectorFromArray((columns.integers[name] ?? []).map((v) => (v === null ? null : BigInt(v))), new Int64());
  }
  return Buffer.from(tableToIPC(new Table(vectors), "stream"));
}
