/**
 * @module Makes the Arrow reader refuse a FlatBuffers vector longer than the buffer holding it.
 * Arrow's metadata accessors trust every length they read, so one flipped byte in an upload's
 * schema can claim billions of metadata entries and hold the event loop for many seconds while
 * they are read one by one. A vector of n elements takes at least n bytes, so a length beyond the
 * bytes that follow it can only be corruption; refusing it turns the upload into a prompt 400.
 */
import { createRequire } from "node:module";
import { ByteBuffer as ImportedByteBuffer } from "flatbuffers";

interface ByteBufferPrototype {
  __vector_len(offset: number): number;
  readInt32(offset: number): number;
  capacity(): number;
}

// The guard must land on the class Arrow uses. Arrow's `flatbuffers` is this package's own
// dependency (same version, so one installed copy), imported here statically so that a bundle,
// which holds its own copy of each package, patches the copy its Arrow reads with. A layout in
// which Arrow finds another copy fails here, at start-up, instead of leaving uploads unguarded.
const arrowsCopy = createRequire(import.meta.resolve("apache-arrow-21")).resolve("flatbuffers");
const ownCopy = createRequire(import.meta.url).resolve("flatbuffers");
if (arrowsCopy !== ownCopy) throw new Error(`apache-arrow-21 reads FlatBuffers from ${arrowsCopy}, not from ${ownCopy}: reinstall the packages (npm install)`);
const ByteBuffer = ImportedByteBuffer as unknown as { prototype: ByteBufferPrototype };

ByteBuffer.prototype.__vector_len = function boundedVectorLength(this: ByteBufferPrototype, offset: number): number {
  const start = offset + this.readInt32(offset);
  const length = this.readInt32(start);
  if (length < 0 || length > this.capacity() - start - 4) {
    throw new RangeError(`Arrow metadata claims a vector of ${length >>> 0} entries in a ${this.capacity()}-byte message`);
  }
  return length;
};
