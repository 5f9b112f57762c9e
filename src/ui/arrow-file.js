/**
 * A small reader of Arrow IPC *files* (what QueryTable answers), enough to preview rows in the
 * browser without a bundler or apache-arrow. It reads the footer, the schema and each record
 * batch, and turns the common column types into display values. Every type's buffers are
 * accounted for, so a column it cannot render (union, views, run-end encoded) shows a
 * placeholder without disturbing its neighbours. Compressed or dictionary-encoded batches are
 * refused with a clear message: Quiver's query answers carry neither.
 */

import { Flat } from "./flatbuffer.js";

const MAGIC = "ARROW1";

/** Arrow type ids of the `Type` union in Schema.fbs. */
const T = {
  Null: 1, Int: 2, FloatingPoint: 3, Binary: 4, Utf8: 5, Bool: 6, Decimal: 7, Date: 8, Time: 9,
  Timestamp: 10, Interval: 11, List: 12, Struct: 13, Union: 14, FixedSizeBinary: 15,
  FixedSizeList: 16, Map: 17, Duration: 18, LargeBinary: 19, LargeUtf8: 20, LargeList: 21,
  RunEndEncoded: 22, BinaryView: 23, Utf8View: 24, ListView: 25, LargeListView: 26,
};
const TYPE_NAMES = Object.fromEntries(Object.entries(T).map(([name, id]) => [id, name]));
const MESSAGE_RECORD_BATCH = 3;
const TIME_UNITS = ["s", "ms", "us", "ns"];

const decoder = new TextDecoder();

function readField(flat) {
  const typeId = flat.uint8(2);
  const type = flat.table(3);
  if (flat.table(4)) throw new Error("dictionary-encoded columns are not supported by the preview");
  return {
    name: flat.string(0) ?? "",
    nullable: flat.bool(1),
    typeId,
    type: describeType(typeId, type),
    children: flat.tables(5).map(readField),
  };
}

/** The type's parameters, with defaults from Schema.fbs for fields a writer may omit. */
function describeType(typeId, t) {
  switch (typeId) {
    case T.Int:
      return { bitWidth: t.int32(0), signed: t.bool(1) };
    case T.FloatingPoint:
      return { precision: t.int16(0) };
    case T.Decimal:
      return { precision: t.int32(0), scale: t.int32(1), bitWidth: t.int32(2, 128) };
    case T.Date:
      return { unit: t.int16(0, 1) };
    case T.Time:
      return { unit: t.int16(0, 1), bitWidth: t.int32(1, 32) };
    case T.Timestamp:
      return { unit: t.int16(0, 0), timezone: t.string(1) };
    case T.Duration:
      return { unit: t.int16(0, 1) };
    case T.Interval:
      return { unit: t.int16(0) };
    case T.FixedSizeBinary:
      return { byteWidth: t.int32(0) };
    case T.FixedSizeList:
      return { listSize: t.int32(0) };
    case T.Union:
      return { dense: t.int16(0) === 1 };
    default:
      return {};
  }
}

/** A short type label for headers, e.g. `int64`, `fixed_size_list<float32>[3]`. */
export function typeLabel(field) {
  const { typeId, type } = field;
  switch (typeId) {
    case T.Int:
      return `${type.signed ? "int" : "uint"}${type.bitWidth}`;
    case T.FloatingPoint:
      return `float${[16, 32, 64][type.precision]}`;
    case T.Utf8: return "utf8";
    case T.LargeUtf8: return "large_utf8";
    case T.Binary: return "binary";
    case T.LargeBinary: return "large_binary";
    case T.Bool: return "bool";
    case T.Date: return type.unit === 0 ? "date32" : "date64";
    case T.Timestamp: return `timestamp[${TIME_UNITS[type.unit]}${type.timezone ? `, ${type.timezone}` : ""}]`;
    case T.Decimal: return `decimal${type.bitWidth}(${type.precision}, ${type.scale})`;
    case T.FixedSizeList: return `fixed_size_list<${typeLabel(field.children[0])}>[${type.listSize}]`;
    case T.List: return `list<${typeLabel(field.children[0])}>`;
    case T.LargeList: return `large_list<${typeLabel(field.children[0])}>`;
    case T.Struct: return `struct<${field.children.map((c) => `${c.name}: ${typeLabel(c)}`).join(", ")}>`;
    default: return (TYPE_NAMES[typeId] ?? `type ${typeId}`).toLowerCase();
  }
}

/**
 * Decodes an Arrow IPC file into `{ fields, rows }`: `fields` are `{ name, nullable, label }`
 * and each row is an array of display values (strings, numbers, booleans, bigints, arrays,
 * objects, or null). Throws an Error naming what it cannot read.
 */
export function decodeArrowFile(bytes) {
  const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const tail = data.byteLength - MAGIC.length;
  if (data.byteLength < 18 || decoder.decode(data.subarray(0, 6)) !== MAGIC || decoder.decode(data.subarray(tail)) !== MAGIC) {
    throw new Error("the answer is not an Arrow IPC file");
  }
  const footerLength = view.getInt32(tail - 4, true);
  const footer = Flat.root(view, tail - 4 - footerLength);
  const schema = footer.table(1);
  if (!schema) throw new Error("the Arrow file has no schema");
  const fields = schema.tables(1).map(readField);
  const rows = [];
  // Block: offset (int64), metaDataLength (int32, padded to 8), bodyLength (int64).
  for (const block of footer.structs(3, 24)) {
    const offset = Number(view.getBigInt64(block, true));
    const metaLength = view.getInt32(block + 8, true);
    readBatch(view, offset, metaLength, fields, rows);
  }
  return { fields: fields.map((f) => ({ name: f.name, nullable: f.nullable, label: typeLabel(f) })), rows };
}

function readBatch(view, offset, metaLength, fields, rows) {
  // A message starts with the 0xFFFFFFFF continuation marker (absent in old files) and its length.
  const prefix = view.getUint32(offset, true) === 0xffffffff ? 8 : 4;
  const message = Flat.root(view, offset + prefix);
  if (message.uint8(1) !== MESSAGE_RECORD_BATCH) throw new Error("an Arrow file block is not a record batch");
  const batch = message.table(2);
  if (batch.table(3)) throw new Error("compressed Arrow batches are not supported by the preview");
  const cursor = {
    view,
    body: offset + metaLength,
    nodes: batch.structs(1, 16),
    buffers: batch.structs(2, 16),
    variadic: batch.int64s(4),
  };
  const columns = fields.map((field) => readColumn(field, cursor));
  const length = batch.int64(0);
  for (let i = 0; i < length; i++) rows.push(columns.map((column) => column(i)));
}

/** Takes the next field node: `{ length, nullCount }`. */
function nextNode(cursor) {
  const at = cursor.nodes.shift();
  if (at === undefined) throw new Error("the Arrow batch has fewer field nodes than its schema");
  return { length: Number(cursor.view.getBigInt64(at, true)), nullCount: Number(cursor.view.getBigInt64(at + 8, true)) };
}

/** Takes the next buffer: `{ start, length }` as absolute positions in the file. */
function nextBuffer(cursor) {
  const at = cursor.buffers.shift();
  if (at === undefined) throw new Error("the Arrow batch has fewer buffers than its schema");
  return { start: cursor.body + Number(cursor.view.getBigInt64(at, true)), length: Number(cursor.view.getBigInt64(at + 8, true)) };
}

function validity(cursor, node) {
  const buffer = nextBuffer(cursor);
  if (node.nullCount === 0 || buffer.length === 0) return () => true;
  return (i) => (cursor.view.getUint8(buffer.start + (i >> 3)) & (1 << (i & 7))) !== 0;
}

/** A reader `(row) => value` for one column; consumes the column's nodes and buffers in order. */
function readColumn(field, cursor) {
  const { view } = cursor;
  const node = nextNode(cursor);
  const { typeId, type } = field;
  if (typeId === T.Null) return () => null;
  if (typeId === T.Union) {
    // Unions carry no validity buffer: type ids, plus offsets when dense.
    nextBuffer(cursor);
    if (type.dense) nextBuffer(cursor);
    field.children.forEach((child) => readColumn(child, cursor));
    return () => unsupported(field);
  }
  if (typeId === T.RunEndEncoded) {
    field.children.forEach((child) => readColumn(child, cursor));
    return () => unsupported(field);
  }
  const valid = validity(cursor, node);
  const orNull = (read) => (i) => (valid(i) ? read(i) : null);
  switch (typeId) {
    case T.Int: {
      const data = nextBuffer(cursor);
      return orNull((i) => readInt(view, data.start, i, type.bitWidth, type.signed));
    }
    case T.FloatingPoint: {
      const data = nextBuffer(cursor);
      if (type.precision === 0) return orNull(() => unsupported(field));
      return orNull((i) => (type.precision === 1 ? view.getFloat32(data.start + 4 * i, true) : view.getFloat64(data.start + 8 * i, true)));
    }
    case T.Bool: {
      const data = nextBuffer(cursor);
      return orNull((i) => (view.getUint8(data.start + (i >> 3)) & (1 << (i & 7))) !== 0);
    }
    case T.Utf8:
    case T.LargeUtf8:
    case T.Binary:
    case T.LargeBinary: {
      const wide = typeId === T.LargeUtf8 || typeId === T.LargeBinary;
      const offsets = nextBuffer(cursor);
      const data = nextBuffer(cursor);
      const text = typeId === T.Utf8 || typeId === T.LargeUtf8;
      return orNull((i) => {
        const from = readOffset(view, offsets.start, i, wide);
        const to = readOffset(view, offsets.start, i + 1, wide);
        const slice = new Uint8Array(view.buffer, view.byteOffset + data.start + from, to - from);
        return text ? decoder.decode(slice) : bytesLabel(slice);
      });
    }
    case T.FixedSizeBinary: {
      const data = nextBuffer(cursor);
      const width = type.byteWidth;
      return orNull((i) => bytesLabel(new Uint8Array(view.buffer, view.byteOffset + data.start + width * i, width)));
    }
    case T.Date: {
      const data = nextBuffer(cursor);
      return orNull((i) => {
        const ms = type.unit === 0 ? view.getInt32(data.start + 4 * i, true) * 86_400_000 : Number(view.getBigInt64(data.start + 8 * i, true));
        return isoDate(ms, true);
      });
    }
    case T.Timestamp: {
      const data = nextBuffer(cursor);
      const perMs = [1e-3, 1, 1e3, 1e6][type.unit];
      return orNull((i) => isoDate(Number(view.getBigInt64(data.start + 8 * i, true)) / perMs, false));
    }
    case T.Time:
    case T.Duration: {
      const data = nextBuffer(cursor);
      const bits = typeId === T.Duration ? 64 : type.bitWidth;
      return orNull((i) => `${readInt(view, data.start, i, bits, true)} ${TIME_UNITS[type.unit]}`);
    }
    case T.Decimal: {
      const data = nextBuffer(cursor);
      return orNull((i) => decimalLabel(view, data.start + (type.bitWidth / 8) * i, type.bitWidth / 8, type.scale));
    }
    case T.Interval: {
      nextBuffer(cursor);
      return orNull(() => unsupported(field));
    }
    case T.List:
    case T.LargeList:
    case T.Map: {
      const wide = typeId === T.LargeList;
      const offsets = nextBuffer(cursor);
      const child = readColumn(field.children[0], cursor);
      return orNull((i) => {
        const from = readOffset(view, offsets.start, i, wide);
        const to = readOffset(view, offsets.start, i + 1, wide);
        return Array.from({ length: to - from }, (_, k) => child(from + k));
      });
    }
    case T.FixedSizeList: {
      const child = readColumn(field.children[0], cursor);
      const size = type.listSize;
      return orNull((i) => Array.from({ length: size }, (_, k) => child(i * size + k)));
    }
    case T.Struct: {
      const children = field.children.map((c) => [c.name, readColumn(c, cursor)]);
      return orNull((i) => Object.fromEntries(children.map(([name, read]) => [name, read(i)])));
    }
    case T.BinaryView:
    case T.Utf8View: {
      nextBuffer(cursor);
      const extra = cursor.variadic.shift() ?? 0;
      for (let k = 0; k < extra; k++) nextBuffer(cursor);
      return orNull(() => unsupported(field));
    }
    case T.ListView:
    case T.LargeListView: {
      nextBuffer(cursor);
      nextBuffer(cursor);
      readColumn(field.children[0], cursor);
      return orNull(() => unsupported(field));
    }
    default:
      throw new Error(`column '${field.name}' has Arrow type ${typeId}, which the preview does not know`);
  }
}

function readInt(view, start, i, bits, signed) {
  switch (bits) {
    case 8: return signed ? view.getInt8(start + i) : view.getUint8(start + i);
    case 16: return signed ? view.getInt16(start + 2 * i, true) : view.getUint16(start + 2 * i, true);
    case 32: return signed ? view.getInt32(start + 4 * i, true) : view.getUint32(start + 4 * i, true);
    default: return signed ? view.getBigInt64(start + 8 * i, true) : view.getBigUint64(start + 8 * i, true);
  }
}

function readOffset(view, start, i, wide) {
  return wide ? Number(view.getBigInt64(start + 8 * i, true)) : view.getInt32(start + 4 * i, true);
}

function unsupported(field) {
  return `‹${typeLabel(field)}›`;
}

function bytesLabel(bytes) {
  const shown = Array.from(bytes.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
  return `0x${shown}${bytes.length > 16 ? `… (${bytes.length} bytes)` : ""}`;
}

function isoDate(ms, dateOnly) {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return String(ms);
  const text = date.toISOString();
  return dateOnly ? text.slice(0, 10) : text;
}

/** A two's-complement little-endian integer of `width` bytes, scaled by `scale` digits. */
function decimalLabel(view, start, width, scale) {
  let value = 0n;
  for (let k = width - 1; k >= 0; k--) value = (value << 8n) | BigInt(view.getUint8(start + k));
  if (view.getUint8(start + width - 1) & 0x80) value -= 1n << BigInt(8 * width);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, "0");
  const whole = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${whole}` : whole;
}
