/**
 * @module Exact-length reads from a stream of byte chunks (a request body). The bytes of the
 * first reads are kept until `stopRecording`, so a reader that only looked at the head of the
 * stream can hand the whole stream on.
 */
import { Buffer } from "node:buffer";

export class ByteQueue {
  private readonly chunks: AsyncIterator<Uint8Array> | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private ended = false;
  private recorded: Buffer[] | undefined = [];

  constructor(source: AsyncIterable<Uint8Array> | Uint8Array) {
    if (source instanceof Uint8Array) {
      this.pending = [Buffer.from(source.buffer, source.byteOffset, source.byteLength)];
      this.pendingBytes = source.byteLength;
      this.ended = true;
    } else {
      this.chunks = source[Symbol.asyncIterator]();
    }
  }

  /**
   * Exactly `length` bytes, or undefined when the stream has none left; `onTruncated()` is
   * thrown when it ends part-way through them.
   */
  async read(length: number, onTruncated: () => Error): Promise<Buffer | undefined> {
    while (this.pendingBytes < length && !this.ended) {
      const next = await (this.chunks as AsyncIterator<Uint8Array>).next();
      if (next.done) {
        this.ended = true;
        break;
      }
      const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
    }
    if (this.pendingBytes === 0) return undefined;
    if (this.pendingBytes < length) throw onTruncated();
    const joined = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending);
    const taken = joined.subarray(0, length);
    const rest = joined.subarray(length);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
    this.recorded?.push(taken);
    return taken;
  }

  /** Forgets the recorded head: the stream will be read through, not handed on. */
  stopRecording(): void {
    this.recorded = undefined;
  }

  /** Every byte of the stream from its start (recording must still be on); the queue is spent. */
  replayFromStart(): AsyncIterable<Uint8Array> {
    if (!this.recorded) throw new Error("the head of the stream was not recorded");
    const { recorded, pending, chunks, ended } = this;
    this.recorded = undefined;
    return (async function* () {
      yield* recorded;
      yield* pending;
      if (!ended && chunks) for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    })();
  }
}
