/**
 * Columns of plain values read from a file (CSV cells, JSON lines, Parquet rows) as an Arrow
 * table. A new table's column types are inferred from the values: integers become int64, other
 * numbers float64, equal-length lists of numbers a float32 fixed-size list (what LanceDB searches
 * as a vector), other lists lists, objects their JSON text. Rows added to an existing table take
 * that table's types instead, so a CSV's `7` lands in an int32 column as 7.
 */
import { Bool, Field, FixedSizeList, Float32, Float64, Int64, List, RecordBatch, Schema, Struct, Table, TimestampMillisecond, Type, Utf8, makeData } from "./arrow.js";
import { columnData } from "./column-data.js";

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const BOOLEAN = /^(true|false)$/i;

function jsonText(value) {
  return JSON.stringify(value, (_, item) => (typeof item === "bigint" ? item.toString() : item));
}

/** Parses `text` as a JSON list, or answers undefined. */
function jsonList(text) {
  if (!text.startsWith("[")) return undefined;
  try {
    const parsed = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A CSV column's cells as typed values: integers, decimals, booleans or JSON lists when every
 * non-empty cell is one, else the text. Empty cells are null.
 */
export function csvColumnValues(cells) {
  const present = cells.filter((cell) => cell !== "");
  const each = (test) => present.length > 0 && present.every(test);
  const convert = (parse) => cells.map((cell) => (cell === "" ? null : parse(cell.trim())));
  if (each((cell) => INTEGER.test(cell.trim()))) return convert((cell) => BigInt(cell));
  if (each((cell) => DECIMAL.test(cell.trim()))) return convert(Number);
  if (each((cell) => BOOLEAN.test(cell.trim()))) return convert((cell) => cell.toLowerCase() === "true");
  if (each((cell) => jsonList(cell.trim()) !== undefined)) return convert(jsonList);
  return cells.map((cell) => (cell === "" ? null : cell));
}

const isNumber = (value) => typeof value === "number" || typeof value === "bigint";
const isInteger = (value) => typeof value === "bigint" || Number.isSafeInteger(value);
const itemField = (type) => new Field("item", type, true);

/** The Arrow type for a column of plain values, and the values as that type's builder takes them. */
export function inferColumn(values) {
  const present = values.filter((value) => value !== null && value !== undefined);
  const all = (test) => present.length > 0 && present.every(test);
  const map = (convert) => values.map((value) => (value === null || value === undefined ? null : convert(value)));
  if (all((value) => typeof value === "boolean")) return { type: new Bool(), values };
  if (all((value) => isNumber(value) && isInteger(value))) return { type: new Int64(), values: map(BigInt) };
  if (all(isNumber)) return { type: new Float64(), values: map(Number) };
  if (all((value) => typeof value === "string")) return { type: new Utf8(), values };
  if (all((value) => value instanceof Date)) return { type: new TimestampMillisecond(), values };
  if (all((value) => Array.isArray(value) && value.every(isNumber))) {
    const lengths = new Set(present.map((value) => value.length));
    const numbers = map((list) => list.map(Number));
    if (lengths.size === 1 && !lengths.has(0)) return { type: new FixedSizeList(present[0].length, itemField(new Float32())), values: numbers };
    return { type: new List(itemField(new Float64())), values: numbers };
  }
  if (all((value) => Array.isArray(value) && value.every((item) => typeof item === "string"))) return { type: new List(itemField(new Utf8())), values };
  return { type: new Utf8(), values: map((value) => (typeof value === "string" ? value : jsonText(value))) };
}

/** `value` as the builder of Arrow type `type` takes it. */
function coerce(value, type) {
  if (value === null || value === undefined) return null;
  switch (type.typeId) {
    case Type.Int:
      return type.bitWidth === 64 ? BigInt(typeof value === "number" ? Math.trunc(value) : value) : Number(value);
    case Type.Float:
      return Number(value);
    case Type.Bool:
      return typeof value === "string" ? value.toLowerCase() === "true" : Boolean(value);
    case Type.Utf8:
    case Type.LargeUtf8:
      return typeof value === "string" ? value : jsonText(value);
    case Type.Date:
    case Type.Timestamp:
      return value instanceof Date ? value : new Date(typeof value === "bigint" ? Number(value) : value);
    case Type.List:
    case Type.FixedSizeList:
    case Type.LargeList: {
      const list = typeof value === "string" ? JSON.parse(value) : value;
      return Array.from(list, (item) => coerce(item, type.children[0].type));
    }
    default:
      return value;
  }
}

/** A table of one batch of `columns` ({name: values}, all `length` long) with the fields of `schema`. */
function tableOf(schema, columns, length) {
  const children = schema.fields.map((field) => {
    try {
      return columnData(columns[field.name], field.type);
    } catch (error) {
      throw new Error(`column "${field.name}": ${error.message}`);
    }
  });
  return new Table(schema, new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children })));
}

/**
 * An Arrow table of `columns` (column name → values, all of one length). With `target` (an Arrow
 * Schema), every column takes the target's type and columns the file lacks are null; a file
 * column the target lacks is refused with an Error naming it.
 */
export function columnsToTable(columns, target) {
  const names = Object.keys(columns);
  if (names.length === 0) throw new Error("the file has no columns");
  const length = columns[names[0]].length;
  if (!target) {
    const inferred = names.map((name) => ({ name, ...inferColumn(columns[name]) }));
    const schema = new Schema(inferred.map(({ name, type }) => new Field(name, type, true)));
    return tableOf(schema, Object.fromEntries(inferred.map(({ name, values }) => [name, values])), length);
  }
  const unknown = names.filter((name) => !target.fields.some((field) => field.name === name));
  if (unknown.length > 0) throw new Error(`the table has no column ${unknown.map((name) => `"${name}"`).join(", ")}`);
  const converted = {};
  for (const field of target.fields) {
    const values = columns[field.name] ?? new Array(length).fill(null);
    try {
      converted[field.name] = values.map((value) => coerce(value, field.type));
    } catch (error) {
      throw new Error(`column "${field.name}" does not fit ${field.type}: ${error.message}`);
    }
  }
  return tableOf(target, converted, length);
}
