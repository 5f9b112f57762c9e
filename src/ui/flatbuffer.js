/**
 * A minimal reader of FlatBuffers tables, the encoding of Arrow's IPC metadata (Schema,
 * Message, Footer): scalars, strings, child tables, and vectors of tables, structs and int64s.
 * Absent fields answer the caller's default, as the schema declares it.
 */

const decoder = new TextDecoder();

/** Reads flatbuffer tables: just the accessors the Arrow metadata needs. */
export class Flat {
  constructor(view, pos) {
    this.view = view;
    this.pos = pos;
    this.vtable = pos - view.getInt32(pos, true);
  }

  static root(view, start) {
    return new Flat(view, start + view.getUint32(start, true));
  }

  fieldOffset(index) {
    const slot = 4 + 2 * index;
    return slot < this.view.getUint16(this.vtable, true) ? this.view.getUint16(this.vtable + slot, true) : 0;
  }

  uint8(index, fallback = 0) {
    const at = this.fieldOffset(index);
    return at ? this.view.getUint8(this.pos + at) : fallback;
  }

  int16(index, fallback = 0) {
    const at = this.fieldOffset(index);
    return at ? this.view.getInt16(this.pos + at, true) : fallback;
  }

  int32(index, fallback = 0) {
    const at = this.fieldOffset(index);
    return at ? this.view.getInt32(this.pos + at, true) : fallback;
  }

  int64(index, fallback = 0) {
    const at = this.fieldOffset(index);
    return at ? Number(this.view.getBigInt64(this.pos + at, true)) : fallback;
  }

  bool(index) {
    return this.uint8(index) !== 0;
  }

  /** Position of an offset-addressed child (table, vector or string), or 0 when absent. */
  target(index) {
    const at = this.fieldOffset(index);
    if (!at) return 0;
    const pos = this.pos + at;
    return pos + this.view.getUint32(pos, true);
  }

  table(index) {
    const pos = this.target(index);
    return pos ? new Flat(this.view, pos) : null;
  }

  string(index) {
    const pos = this.target(index);
    if (!pos) return null;
    const length = this.view.getUint32(pos, true);
    return decoder.decode(new Uint8Array(this.view.buffer, this.view.byteOffset + pos + 4, length));
  }

  /** Elements of a vector of tables. */
  tables(index) {
    const pos = this.target(index);
    if (!pos) return [];
    const count = this.view.getUint32(pos, true);
    const out = [];
    for (let i = 0; i < count; i++) {
      const slot = pos + 4 + 4 * i;
      out.push(new Flat(this.view, slot + this.view.getUint32(slot, true)));
    }
    return out;
  }

  /** Start and length of a vector of structs of `size` bytes. */
  structs(index, size) {
    const pos = this.target(index);
    if (!pos) return [];
    const count = this.view.getUint32(pos, true);
    return Array.from({ length: count }, (_, i) => pos + 4 + size * i);
  }

  int64s(index) {
    const pos = this.target(index);
    if (!pos) return [];
    const count = this.view.getUint32(pos, true);
    return Array.from({ length: count }, (_, i) => Number(this.view.getBigInt64(pos + 4 + 8 * i, true)));
  }
}
