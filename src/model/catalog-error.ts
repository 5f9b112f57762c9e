import { ErrorCode, type ErrorCodeName, type ErrorCodeValue } from "./error-codes.js";

export interface CatalogErrorOptions {
  /** Longer explanation for the `detail` field of the error response. */
  detail?: string;
  cause?: unknown;
  /**
   * The HTTP status when the code's own does not say enough: a body over the upload limit is
   * code 13 (the client's mistake) but answered 413, which proxies and clients know as "too large".
   */
  status?: number;
}

/**
 * The one error type for a refusal. `code` is a Lance Namespace error code (spec/errors.md §2);
 * the server maps it to the HTTP status and `ErrorResponse`. It sits in `model`, below every
 * layer that throws it (catalog, auth, jobs, server), so auth needs no catalog import for it.
 */
export class CatalogError extends Error {
  readonly code: ErrorCodeValue;
  readonly detail: string | undefined;
  readonly status: number | undefined;

  constructor(code: ErrorCodeValue, message: string, options: CatalogErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CatalogError";
    this.code = code;
    this.detail = options.detail;
    this.status = options.status;
  }

  static of(name: ErrorCodeName, message: string, options?: CatalogErrorOptions): CatalogError {
    return new CatalogError(ErrorCode[name], message, options);
  }
}

/** Shorthand for the most common refusal: bad input, code 13. */
export function invalidInput(message: string, options?: CatalogErrorOptions): CatalogError {
  return CatalogError.of("InvalidInput", message, options);
}

/** The longest stretch of a refused value a message repeats: enough to recognise it, never a whole oversized value. */
const echoedLength = 64;

/** How a refused value appears in a message: JSON-quoted (controls and NUL visible), cut short when long. */
export function echoed(value: string): string {
  return JSON.stringify(value.length > echoedLength ? `${value.slice(0, echoedLength)}…` : value);
}
