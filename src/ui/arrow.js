/**
 * apache-arrow, the library the server uses, in its browser build: the page loads the package's
 * single-file bundle as a classic script before any module runs (it defines `globalThis.Arrow`),
 * and this module hands its parts to the others. Every Arrow body the console reads or writes
 * goes through it.
 */
const Arrow = globalThis.Arrow;
if (!Arrow) throw new Error("the Arrow library (/console/vendor/apache-arrow/) did not load");

export const {
  Bool, Field, FixedSizeList, Float32, Float64, Int64, List, RecordBatch, Schema, Struct, Table, TimestampMillisecond, Type, Utf8,
  makeData, tableFromIPC, tableToIPC,
} = Arrow;
