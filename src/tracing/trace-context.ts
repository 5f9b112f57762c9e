/**
 * @module The W3C Trace Context `traceparent` header, read and written without the OpenTelemetry
 * packages: a server without tracing still puts its caller's trace id in the log.
 */

/** What a valid `traceparent` names: the caller's trace, its span and its flags. */
export interface TraceParent {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** 16 lowercase hex digits, not all zero: the caller's span, the parent of this server's. */
  spanId: string;
  /** The trace flags; bit 0 is "sampled". */
  flags: number;
}

const versionZero = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
// A later version may append fields; its first four are read as version 00's (the spec says so).
const laterVersion = /^([0-9a-e][0-9a-f]|f[0-9a-e])-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;
const zeroTrace = "0".repeat(32);
const zeroSpan = "0".repeat(16);

/** The `traceparent` header's value, or undefined when it is absent or malformed (then a new trace starts). */
export function parseTraceParent(header: string | string[] | undefined): TraceParent | undefined {
  if (typeof header !== "string") return undefined;
  const value = header.trim();
  const zero = versionZero.exec(value);
  const match = zero ? [zero[1], zero[2], zero[3]] : value.startsWith("00-") ? undefined : laterVersion.exec(value)?.slice(2, 5);
  if (!match) return undefined;
  const [traceId, spanId, flags] = match as [string, string, string];
  if (traceId === zeroTrace || spanId === zeroSpan) return undefined;
  return { traceId, spanId, flags: parseInt(flags, 16) };
}

/** The `traceparent` value naming `spanId` in `traceId`. */
export function formatTraceParent(traceId: string, spanId: string, flags: number): string {
  return `00-${traceId}-${spanId}-${(flags & 0xff).toString(16).padStart(2, "0")}`;
}
