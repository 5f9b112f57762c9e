/**
 * @module Makes the Arrow reader refuse a FlatBuffers vector longer than the buffer holding it.
 * Arrow's metadata accessors trust every length they read, so one flipped byte in an upload's
 * schema can claim billions of metadata entries and hold the event loop for many seconds while
 * they are read one by one. A vector of n elements takes at least n bytes, so a length beyond the
 * bytes that follow it can only be corruption; refusing it turns the upload into a prompt 400.
 */
import { createRequire } from "node:module";

interface ByteBufferPrototype {
  __vector_len(offset: number): number;
  readInt32(offset: number): number;
  capacity(): number;
}

// Arrow imports its own copy of `flatbuffers`; resolve it from Arrow so the guard lands on the
// class Arrow actually uses.
const fromArrow = createRequire(import.meta.resolve("apache-arrow-21"));
const { ByteBuffer } = fromArrow("flatbuffers") as { ByteBuffer: { prototype: ByteBufferPrototype } };

ByteBuffer.prototype.__vector_len = function boundedVectorLength(this: ByteBufferPrototype, offset: number): number {
  const start = offset + this.readInt32(offset);
  const length = this.readInt32(start);
  if (length < 0 || length > this.capacity() - start - 4) {
    throw new RangeError(`Arrow metadata claims a vector of ${length >>> 0} entries in a ${this.capacity()}-byte message`);
  }
  return length;
};
