/**
 * @module Checks of a batch Arrow's JavaScript reader decoded from an upload, before it is written
 * anew for the engine (streams with dictionary columns take that path). The reader takes a
 * message's counts as they come: a corrupted null count, offset or dictionary index passes it, and
 * the engine's reader then aborts on the file written from it instead of refusing it. Each column
 * and what it holds (children, dictionaries) is checked as the engine's reader would use it.
 */
import { type Data, DataType, type RecordBatch } from "apache-arrow-21";
import { ArrowDecodeError } from "./arrow-decode-error.js";

/** Throws ArrowDecodeError naming the column when a column of `batch` is not consistent. */
export function checkDecodedBatch(batch: RecordBatch): void {
  batch.data.children.forEach((column, index) => checkData(column, batch.schema.fields[index]?.name ?? String(index)));
}

function refuse(column: string, problem: string): never {
  throw new ArrowDecodeError(`column '${column}' ${problem}`);
}

function checkData(data: Data, column: string): void {
  const { length, offset, nullCount } = data;
  if (!(nullCount >= 0 && nullCount <= length)) refuse(column, `claims ${nullCount} nulls in ${length} values`);
  if (DataType.isNull(data.type)) {
    if (nullCount !== length) refuse(column, "is of type null with non-null values");
  } else if (nullCount > 0) {
    checkNullBitmap(data, column);
  }
  if (DataType.isUtf8(data.type) || DataType.isBinary(data.type) || DataType.isList(data.type)) {
    const limit = DataType.isList(data.type) ? (data.children[0]?.length ?? 0) : (data.values?.length ?? 0);
    checkOffsets(data.valueOffsets as Int32Array | undefined, offset, length, limit, column);
  }
  if (DataType.isDictionary(data.type)) checkDictionary(data, column);
  for (const child of data.children) checkData(child, column);
}

/** A column with nulls has a validity bitmap covering its values, with as many unset bits as it claims nulls. */
function checkNullBitmap({ nullBitmap, offset, length, nullCount }: Data, column: string): void {
  if (!nullBitmap || nullBitmap.length * 8 < offset + length) refuse(column, `claims ${nullCount} nulls without a validity bitmap covering its values`);
  let unset = 0;
  for (let i = offset; i < offset + length; i += 1) if ((nullBitmap[i >> 3]! & (1 << (i & 7))) === 0) unset += 1;
  if (unset !== nullCount) refuse(column, `claims ${nullCount} nulls where its validity bitmap holds ${unset}`);
}

/** Offsets that never decrease and stay within what they index. */
function checkOffsets(offsets: Int32Array | undefined, offset: number, length: number, limit: number, column: string): void {
  if (length === 0) return;
  if (!offsets || offsets.length < offset + length + 1) refuse(column, "has fewer offsets than values");
  if (offsets[offset]! < 0) refuse(column, "has a negative offset");
  for (let i = offset; i < offset + length; i += 1) if (offsets[i + 1]! < offsets[i]!) refuse(column, "has decreasing offsets");
  if (offsets[offset + length]! > limit) refuse(column, `has offsets past the ${limit} entries they index`);
}

/** A dictionary of values (not of nulls alone) that every present index names an entry of. */
function checkDictionary(data: Data, column: string): void {
  const dictionary = data.dictionary;
  if (!dictionary) refuse(column, "has no dictionary");
  if (DataType.isNull(dictionary.type)) refuse(column, "has a dictionary of type null");
  for (const part of dictionary.data) checkData(part, column);
  const size = dictionary.length;
  const indices = data.values as ArrayLike<number | bigint>;
  for (let i = data.offset; i < data.offset + data.length; i += 1) {
    if (data.nullCount > 0 && !data.getValid(i - data.offset)) continue;
    const index = Number(indices[i]);
    if (!(index >= 0 && index < size)) refuse(column, `names dictionary entry ${index} of ${size}`);
  }
}
