/**
 * @module The few pieces of Lance's protobuf files read by hand: the top-level fields of a
 * message, and a manifest's message found through its file's footer. Enough to read a field or
 * two without a protobuf library or a Lance call.
 */

/** A Lance file ends with the metadata's position (u64), the format version (2 × u16) and "LANC". */
const footerLength = 16;

export type Field = { number: number; value: bigint | Buffer };

function readVarint(bytes: Buffer, at: number): [bigint, number] {
  let value = 0n;
  let shift = 0n;
  for (let i = at; i < bytes.length; i++) {
    value |= BigInt(bytes[i]! & 0x7f) << shift;
    if ((bytes[i]! & 0x80) === 0) return [value, i + 1];
    shift += 7n;
  }
  throw new Error("truncated varint");
}

/** The top-level fields of a protobuf message: varints and length-delimited bytes (fixed widths skipped). */
export function fieldsOf(bytes: Buffer): Field[] {
  const fields: Field[] = [];
  let at = 0;
  while (at < bytes.length) {
    const [key, next] = readVarint(bytes, at);
    at = next;
    const number = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [value, after] = readVarint(bytes, at);
      fields.push({ number, value });
      at = after;
    } else if (wire === 2) {
      const [length, after] = readVarint(bytes, at);
      const end = after + Number(length);
      if (end > bytes.length) throw new Error("truncated field");
      fields.push({ number, value: bytes.subarray(after, end) });
      at = end;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
  return fields;
}

/** The manifest's protobuf message, found through the file's footer. */
export function manifestMessage(file: Buffer): Buffer {
  if (file.length < footerLength) throw new Error("not a Lance manifest");
  const position = Number(file.readBigUInt64LE(file.length - footerLength));
  const length = file.readUInt32LE(position);
  return file.subarray(position + 4, position + 4 + length);
}

