/**
 * Arrow answers as plain values for display: QueryTable's Arrow IPC file becomes its columns
 * (name, type, whether it holds vectors) and rows of strings, numbers, booleans, bigints, arrays,
 * objects, byte arrays or null. Dates and timestamps become ISO text, so what a cell shows does not
 * depend on the viewer's time zone.
 */
import { Type, tableFromIPC } from "./arrow.js";

const FLOAT_TYPES = new Set([Type.Float, Type.Float16, Type.Float32, Type.Float64]);
/** Columns whose values are numbers, shown right-aligned. */
const NUMBER_TYPES = new Set([Type.Int, Type.Float, Type.Decimal]);

/** A fixed-size list of floats: what LanceDB searches as a vector column. */
export function isVectorType(type) {
  return type.typeId === Type.FixedSizeList && FLOAT_TYPES.has(type.children[0].type.typeId);
}

/** One Arrow value as a plain JavaScript value, following the column's type into lists and structs. */
export function plainValue(value, type) {
  if (value === null || value === undefined) return null;
  switch (type.typeId) {
    case Type.Date:
      return new Date(Number(value)).toISOString().slice(0, 10);
    case Type.Timestamp:
      return new Date(Number(value)).toISOString();
    case Type.List:
    case Type.FixedSizeList:
    case Type.LargeList: {
      const child = type.children[0].type;
      return Array.from(value, (item) => plainValue(item, child));
    }
    case Type.Struct:
      return Object.fromEntries(type.children.map((field) => [field.name, plainValue(value[field.name], field.type)]));
    case Type.Dictionary:
      return plainValue(value, type.dictionary);
    default:
      return value;
  }
}

/**
 * `{ fields: [{ name, label, type, metadata, vector, numeric }], rows: [[value…]] }` of an Arrow
 * table (`type`: the Arrow DataType; `metadata`: the field's, a Map).
 */
export function tableRows(table) {
  const fields = table.schema.fields.map((field) => ({ name: field.name, label: String(field.type), type: field.type, metadata: field.metadata, vector: isVectorType(field.type), numeric: NUMBER_TYPES.has(field.type.typeId) }));
  const columns = table.schema.fields.map((field, i) => ({ vector: table.getChildAt(i), type: field.type }));
  const rows = [];
  for (let row = 0; row < table.numRows; row++) rows.push(columns.map(({ vector, type }) => plainValue(vector.get(row), type)));
  return { fields, rows };
}

/** Decodes an Arrow IPC file or stream (a QueryTable answer) into display rows. */
export function decodeArrow(bytes) {
  return tableRows(tableFromIPC(bytes));
}
