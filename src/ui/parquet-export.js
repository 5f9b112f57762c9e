/**
 * The data explorer's Parquet export: a query's answer as a Parquet file written in the browser by
 * hyparquet-writer (served by the server from its installed package, loaded only when a Parquet
 * export is asked for). Each column keeps its type: integers stay INT32 or INT64, floats FLOAT or
 * DOUBLE, text UTF8 strings, booleans, bytes, timestamps (to the millisecond) and dates; lists of
 * such values, vectors included, are Parquet LISTs of their items, every value kept. Structs, maps
 * and deeper nesting are written as their JSON text (a JSON column). Every column is optional, so
 * nulls stay nulls. Pages are Snappy-compressed, the writer's default.
 */
import { Type } from "./arrow.js";
import { jsonValue } from "./export-rows.js";

const WRITER_MODULE = "/console/vendor/hyparquet-writer/src/index.js";

const DAY_MS = 86_400_000;

/** The Parquet leaf for an Arrow scalar type, and how a displayed value becomes its input; undefined for other types. */
function leaf(type) {
  switch (type.typeId) {
    case Type.Bool:
      return { element: { type: "BOOLEAN" }, convert: Boolean };
    case Type.Int:
      // Unsigned 32-bit values do not fit INT32; Parquet has no wider integer than INT64.
      return type.bitWidth < 32 || (type.bitWidth === 32 && type.isSigned) ? { element: { type: "INT32" }, convert: Number } : { element: { type: "INT64" }, convert: BigInt };
    case Type.Float:
      return type.precision === 2 ? { element: { type: "DOUBLE" }, convert: Number } : { element: { type: "FLOAT" }, convert: Number };
    case Type.Utf8:
    case Type.LargeUtf8:
      return { element: { type: "BYTE_ARRAY", converted_type: "UTF8" }, convert: String };
    case Type.Binary:
    case Type.LargeBinary:
    case Type.FixedSizeBinary:
      return { element: { type: "BYTE_ARRAY" }, convert: (value) => value };
    case Type.Timestamp:
      // Shown (and so held here) as ISO text to the millisecond.
      return { element: { type: "INT64", converted_type: "TIMESTAMP_MILLIS" }, convert: (value) => new Date(value) };
    case Type.Date:
      return { element: { type: "INT32", converted_type: "DATE" }, convert: (value) => Math.floor(Date.parse(value) / DAY_MS) };
    case Type.Dictionary:
      return leaf(type.dictionary);
    default:
      return undefined;
  }
}

const LIST_TYPES = new Set([Type.List, Type.LargeList, Type.FixedSizeList]);
const orNull = (convert) => (value) => (value === null || value === undefined ? null : convert(value));

/**
 * The schema elements of one column (after the root) and its values as the writer takes them,
 * for a field `{ name, type }` of `decodeArrow` and the column's displayed values.
 */
export function parquetColumn(field, values) {
  const { name, type } = field;
  const scalar = type && leaf(type);
  if (scalar) return { elements: [{ name, repetition_type: "OPTIONAL", ...scalar.element }], data: values.map(orNull(scalar.convert)) };
  const item = type && LIST_TYPES.has(type.typeId) ? leaf(type.children[0].type) : undefined;
  if (item) {
    const convertItem = orNull(item.convert);
    return {
      elements: [
        { name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
        { name: "list", repetition_type: "REPEATED", num_children: 1 },
        { name: "element", repetition_type: "OPTIONAL", ...item.element },
      ],
      data: values.map(orNull((list) => Array.from(list, convertItem))),
    };
  }
  return { elements: [{ name, repetition_type: "OPTIONAL", type: "BYTE_ARRAY", converted_type: "JSON" }], data: values.map(orNull(jsonValue)) };
}

/** hyparquet-writer's options for `fields` and `rows` as `decodeArrow` answers them: `{ schema, columnData }`. */
export function parquetOptions(fields, rows) {
  const columns = fields.map((field, i) => ({ name: field.name, ...parquetColumn(field, rows.map((row) => row[i])) }));
  const schema = [{ name: "root", num_children: columns.length }, ...columns.flatMap((column) => column.elements)];
  return { schema, columnData: columns.map(({ name, data }) => ({ name, data })) };
}

/** The Parquet file (an ArrayBuffer) of `fields` and `rows` as `decodeArrow` answers them. */
export async function toParquet(fields, rows) {
  const { parquetWriteBuffer } = await import(WRITER_MODULE);
  return parquetWriteBuffer(parquetOptions(fields, rows));
}
