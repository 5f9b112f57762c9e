/**
 * @module The `Range` header of a byte read (RFC 9110 §14), in the one form blob reads serve: a
 * single range, `bytes=a-b`, `bytes=a-` or `bytes=-n`. Several ranges in one request are refused
 * rather than answered whole, so a client never gets more bytes than it planned for.
 */
import { invalidInput } from "../model/catalog-error.js";

/** A range as asked: `first`/`last` inclusive as in the header; a suffix is the last `suffix` bytes. */
export type ByteRangeRequest = { first: number; last: number | null } | { suffix: number };

/** What a range means for `size` bytes: `[start, end)`, or nothing that can be served (416). */
export type ResolvedRange = { start: number; end: number } | "unsatisfiable";

const singleRange = /^bytes=(\d*)-(\d*)$/;

function position(text: string, header: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw invalidInput(`Range '${header}' names a position past 2^53`);
  return value;
}

/** The range `header` asks for, undefined without one; throws 13 for anything but one byte range. */
export function parseRange(header: string | undefined): ByteRangeRequest | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (trimmed.includes(",")) throw invalidInput(`Range '${header}' asks for several ranges; blob reads serve one range a request`);
  const match = singleRange.exec(trimmed);
  if (!match || (match[1] === "" && match[2] === "")) {
    throw invalidInput(`Range '${header}' is not a byte range: use bytes=first-last, bytes=first- or bytes=-length`);
  }
  const [, first = "", last = ""] = match;
  if (first === "") return { suffix: position(last, header) };
  const range = { first: position(first, header), last: last === "" ? null : position(last, header) };
  if (range.last !== null && range.last < range.first) throw invalidInput(`Range '${header}' ends before it starts`);
  return range;
}

/** The bytes `range` selects of `size`; a range past the end, or any range of nothing, is unsatisfiable. */
export function resolveRange(range: ByteRangeRequest, size: number): ResolvedRange {
  if ("suffix" in range) return range.suffix === 0 || size === 0 ? "unsatisfiable" : { start: Math.max(0, size - range.suffix), end: size };
  if (range.first >= size) return "unsatisfiable";
  return { start: range.first, end: range.last === null ? size : Math.min(range.last + 1, size) };
}
