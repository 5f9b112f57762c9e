/**
 * @module Checks of a batch Arrow's JavaScript reader decoded from an upload, before it is written
 * anew for the engine (streams with dictionary columns take that path). The reader takes a
 * message's counts as they come: a corrupted null count, offset or dictionary index passes it, and
 * the engine's reader then aborts on the file written from it instead of refusing it. Each column
 * and what it holds (children, dictionaries) is checked as the engine's reader would use it.
 *
 * In Arrow's JavaScript `Data`, `values` and `valueOffsets` start at the data's first value, while
 * the validity bitmap is read from `offset` on.
 */
import { type Data, DataType, type RecordBatch, type Vector } from "apache-arrow-21";
import { ArrowDecodeError } from "./arrow-decode-error.js";

/** Throws ArrowDecodeError naming the column when a column of `batch` is not consistent. */
export function checkDecodedBatch(batch: RecordBatch, checkedDictionaries: WeakSet<Vector>): void {
  batch.data.children.forEach((column, index) => checkData(column, batch.schema.fields[index]?.name ?? String(index), checkedDictionaries));
}

function refuse(column: string, problem: string): never {
  throw new ArrowDecodeError(`column '${column}' ${problem}`);
}

function checkData(data: Data, column: string, checkedDictionaries: WeakSet<Vector>): void {
  // A union's null count is its children's, and it has no bitmap of its own: they are checked below.
  if (!DataType.isUnion(data.type)) checkNulls(data, column);
  const offsets = offsetsOf(data);
  if (offsets) checkOffsets(offsets.values, data.length, offsets.limit, column);
  if (DataType.isDictionary(data.type)) checkDictionary(data, column, checkedDictionaries);
  data.children.forEach((child, index) => checkData(child, `${column}.${data.type.children?.[index]?.name ?? index}`, checkedDictionaries));
}

/** A null count within the values; with nulls, a validity bitmap covering them that holds as many. */
function checkNulls({ type, nullBitmap, offset, length, nullCount }: Data, column: string): void {
  if (!(nullCount >= 0 && nullCount <= length)) refuse(column, `claims ${nullCount} nulls in ${length} values`);
  // A null column has no bitmap: every value is null.
  if (DataType.isNull(type) || nullCount === 0) return;
  if (!nullBitmap || nullBitmap.length * 8 < offset + length) refuse(column, `claims ${nullCount} nulls without a validity bitmap covering its values`);
  let unset = 0;
  for (let i = offset; i < offset + length; i += 1) {
    if ((nullBitmap[i >> 3]! & (1 << (i & 7))) === 0) unset += 1;
  }
  if (unset !== nullCount) refuse(column, `claims ${nullCount} nulls where its validity bitmap holds ${unset}`);
}

/** The offsets of a variable-size column and how many entries they may index, or undefined for other columns. */
function offsetsOf(data: Data): { values: ArrayLike<number | bigint>; limit: number } | undefined {
  const { type } = data;
  const intoValues = DataType.isUtf8(type) || DataType.isBinary(type) || DataType.isLargeUtf8(type) || DataType.isLargeBinary(type);
  const intoChild = DataType.isList(type) || DataType.isMap(type);
  if (!intoValues && !intoChild) return undefined;
  return { values: (data.valueOffsets ?? []) as ArrayLike<number | bigint>, limit: intoValues ? (data.values?.length ?? 0) : (data.children[0]?.length ?? 0) };
}

/** Offsets that start at or after 0, never decrease and stay within what they index. */
function checkOffsets(offsets: ArrayLike<number | bigint>, length: number, limit: number, column: string): void {
  if (length === 0) return;
  if (offsets.length < length + 1) refuse(column, "has fewer offsets than values");
  if (Number(offsets[0]) < 0) refuse(column, "has a negative offset");
  for (let i = 0; i < length; i += 1) {
    if (offsets[i + 1]! < offsets[i]!) refuse(column, "has decreasing offsets");
  }
  if (Number(offsets[length]) > limit) refuse(column, `has offsets past the ${limit} entries they index`);
}

/**
 * A dictionary of values (not of nulls alone) that every present index names an entry of. A
 * dictionary shared by many batches is checked once.
 */
function checkDictionary(data: Data, column: string, checkedDictionaries: WeakSet<Vector>): void {
  // The reader gives a dictionary it never received as an empty one, which no index can name.
  const dictionary = data.dictionary as Vector;
  if (DataType.isNull(dictionary.type)) refuse(column, "has a dictionary of type null");
  if (!checkedDictionaries.has(dictionary)) {
    for (const part of dictionary.data) checkData(part, column, checkedDictionaries);
    checkedDictionaries.add(dictionary);
  }
  const size = dictionary.length;
  const indices = data.values as ArrayLike<number | bigint>;
  for (let i = 0; i < data.length; i += 1) {
    if (data.nullCount > 0 && !data.getValid(i)) continue;
    const index = Number(indices[i]);
    if (!(index >= 0 && index < size)) refuse(column, `names dictionary entry ${index} of ${size}`);
  }
}
