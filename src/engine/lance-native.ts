/**
 * @module Loads the native Lance binding that ships inside `@lancedb/lancedb`. The engine talks
 * to it directly because it moves Arrow IPC buffers in and out, where the package's public
 * classes would re-encode rows through apache-arrow 18 (which cannot read LZ4 bodies).
 */
import { createRequire } from "node:module";
import path from "node:path";
import type * as Native from "lancedb-native-types";

// A scan reads ahead into an I/O buffer of 2 GiB by default, so a large result streamed to a slow
// client could hold that much; 64 MiB keeps a scan's memory bounded and still reads ahead plenty.
// An operator's own setting wins.
process.env.LANCE_DEFAULT_IO_BUFFER_SIZE ??= String(64 * 1024 * 1024);

const require = createRequire(import.meta.url);
let binding: typeof Native | undefined;

/**
 * The binding, loaded at its first use: a 200 MB library whose loading costs a tenth of a second
 * of CPU, which a command or server that never opens a table does not pay.
 */
export function native(): typeof Native {
  binding ??= require(path.join(path.dirname(require.resolve("@lancedb/lancedb")), "native.js")) as typeof Native;
  return binding;
}

export type NativeConnection = Native.Connection;
export type NativeTable = Native.Table;
export type NativeSession = Native.Session;
export type NativeIndex = Native.Index;
export type NativeQuery = Native.Query;
export type NativeVectorQuery = Native.VectorQuery;
export type NativeTableStatistics = Native.TableStatistics;
