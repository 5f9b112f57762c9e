/**
 * Arrow column data from plain values, for the tables the console writes. apache-arrow's own
 * builders (`vectorFromArray`, `tableFromJSON`) compile their null check with `new Function`,
 * which the console's Content-Security-Policy forbids, so the buffers are laid out here and handed
 * to the library's `makeData`; the library still writes the IPC stream.
 */
import { Type, makeData } from "./arrow.js";
import { formatCount } from "./dom.js";

const encoder = new TextEncoder();

/** Time units of Timestamp types (SECOND … NANOSECOND) as multiples of a millisecond. */
const PER_MILLISECOND = [1e-3, 1, 1e3, 1e6];

/** The validity bitmap of `values` and how many are null. */
function validity(values) {
  const bitmap = new Uint8Array((values.length + 7) >> 3);
  let nullCount = 0;
  values.forEach((value, i) => {
    if (value === null || value === undefined) nullCount++;
    else bitmap[i >> 3] |= 1 << (i & 7);
  });
  return { nullBitmap: bitmap, nullCount };
}

/** Numbers (or bigints, or Dates for temporal types) into the type's typed array; nulls are 0. */
function fixedWidth(values, type, toNumber) {
  const data = new type.ArrayType(values.length);
  const wide = data instanceof BigInt64Array || data instanceof BigUint64Array;
  values.forEach((value, i) => {
    if (value === null || value === undefined) return;
    const number = toNumber(value);
    data[i] = wide ? BigInt(typeof number === "bigint" ? number : Math.round(number)) : Number(number);
  });
  return data;
}

const millis = (value) => (value instanceof Date ? value.getTime() : Number(value));

/** Offsets of variable-size entries of the given lengths, 32- or 64-bit. */
function offsets(lengths, large) {
  const result = large ? new BigInt64Array(lengths.length + 1) : new Int32Array(lengths.length + 1);
  let at = 0;
  lengths.forEach((length, i) => {
    at += length;
    result[i + 1] = large ? BigInt(at) : at;
  });
  return result;
}

/** Arrow Data of `type` holding `values` (plain JS values already of the type's kind). */
export function columnData(values, type) {
  const length = values.length;
  const valid = validity(values);
  switch (type.typeId) {
    case Type.Int:
      return makeData({ type, length, ...valid, data: fixedWidth(values, type, (value) => value) });
    case Type.Float:
      if (type.ArrayType === Uint16Array) break;
      return makeData({ type, length, ...valid, data: fixedWidth(values, type, Number) });
    case Type.Date:
      return makeData({ type, length, ...valid, data: fixedWidth(values, type, (value) => (type.unit === 0 ? Math.floor(millis(value) / 86_400_000) : millis(value))) });
    case Type.Timestamp:
      return makeData({ type, length, ...valid, data: fixedWidth(values, type, (value) => millis(value) * PER_MILLISECOND[type.unit]) });
    case Type.Bool: {
      const data = new Uint8Array((length + 7) >> 3);
      values.forEach((value, i) => {
        if (value === true) data[i >> 3] |= 1 << (i & 7);
      });
      return makeData({ type, length, ...valid, data });
    }
    case Type.Utf8:
    case Type.LargeUtf8: {
      const encoded = values.map((value) => (value === null || value === undefined ? new Uint8Array(0) : encoder.encode(value)));
      const data = new Uint8Array(encoded.reduce((sum, bytes) => sum + bytes.length, 0));
      let at = 0;
      for (const bytes of encoded) {
        data.set(bytes, at);
        at += bytes.length;
      }
      return makeData({ type, length, ...valid, data, valueOffsets: offsets(encoded.map((bytes) => bytes.length), type.typeId === Type.LargeUtf8) });
    }
    case Type.FixedSizeList: {
      // A null list still takes its slots in the child, filled with nulls.
      const items = values.flatMap((value) => (value === null || value === undefined ? new Array(type.listSize).fill(null) : value));
      if (items.length !== length * type.listSize) throw new Error(`every list must have ${formatCount(type.listSize)} values`);
      return makeData({ type, length, ...valid, child: columnData(items, type.children[0].type) });
    }
    case Type.List:
    case Type.LargeList: {
      const lists = values.map((value) => value ?? []);
      const lengths = lists.map((list) => list.length);
      return makeData({ type, length, ...valid, valueOffsets: offsets(lengths, type.typeId === Type.LargeList), child: columnData(lists.flat(), type.children[0].type) });
    }
    default:
      break;
  }
  throw new Error(`the console cannot write ${type} columns`);
}
