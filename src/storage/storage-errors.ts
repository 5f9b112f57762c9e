/**
 * @module Narrow errors of the storage layer, and the one place that decides which failures of an
 * object store's SDK mean the store cannot be reached or cannot serve now. The catalog turns them
 * into spec codes; everything else a backend raises stays as it is.
 */

/** An object store could not be reached or did not answer in time; the request may be retried. */
export class StorageUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StorageUnavailable";
  }
}

/** Socket and DNS failures (Node's and undici's codes): the store, or the way to it, is down. */
const networkCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "ESOCKETTIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_SOCKET",
  "REQUEST_SEND_ERROR",
]);

/** The SDKs' names for a request given up on: their own time limits and aborted sockets. */
const timeoutNames = new Set(["TimeoutError", "AbortError", "RequestTimeout", "RequestTimeoutException"]);

/** The HTTP status a failed SDK call carries, under whichever name its SDK uses. */
function statusOf(failure: Record<string, unknown>): number | undefined {
  const metadata = failure.$metadata as { httpStatusCode?: unknown } | undefined;
  for (const status of [failure.statusCode, metadata?.httpStatusCode, failure.status, failure.code]) {
    if (typeof status === "number" && status >= 100 && status < 600) return status;
  }
  return undefined;
}

/**
 * Whether `error`, raised by an object store's SDK, means the store is unreachable or failing
 * (refused, reset or timed-out connections, unresolvable hosts, 5xx answers): a condition that
 * passes, unlike a missing object, a refused credential or a bad request, which are answered as
 * such. The cause chain is followed, since SDKs wrap the socket's error.
 */
export function isStorageOutage(error: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (typeof current !== "object") return false;
    const failure = current as Record<string, unknown>;
    if (typeof failure.code === "string" && networkCodes.has(failure.code)) return true;
    if (typeof failure.name === "string" && timeoutNames.has(failure.name)) return true;
    const status = statusOf(failure);
    if (status !== undefined) return status >= 500 || status === 408;
    current = failure.cause;
  }
  return false;
}
