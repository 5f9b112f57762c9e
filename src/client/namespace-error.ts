/**
 * @module The one error type of the client. Both implementations throw it with the same code,
 * name, status and message for the same refusal: `rest` rebuilds it from the server's
 * `ErrorResponse`, `dir` from the catalog's `CatalogError`.
 */
import { ErrorCode, type ErrorCodeName, type ErrorCodeValue, errorCodeName, errorStatus } from "../model/error-codes.js";

export interface NamespaceErrorOptions {
  /** Longer explanation (the `detail` field of the spec's `ErrorResponse`). */
  detail?: string | undefined;
  /** The occurrence, e.g. the route of a REST call (`instance`). */
  instance?: string | undefined;
  cause?: unknown;
}

/**
 * A refusal or failure of a namespace operation, classified by its Lance Namespace error code
 * (spec/errors.md §2). `name` is the code's spec name (e.g. `TableNotFound`), `status` the HTTP
 * status the spec pairs with the code, so callers can branch on either. An unknown code is
 * treated as Internal (18), as the reference clients do.
 */
export class NamespaceError extends Error {
  readonly code: ErrorCodeValue;
  override readonly name: ErrorCodeName;
  readonly status: number;
  readonly detail: string | undefined;
  readonly instance: string | undefined;

  constructor(code: number, message: string, options: NamespaceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const name = errorCodeName(code);
    this.code = ErrorCode[name];
    this.name = name;
    this.status = errorStatus[this.code];
    this.detail = options.detail;
    this.instance = options.instance;
  }

  /** Builds an error from a code's spec name: `NamespaceError.of("InvalidInput", "...")`. */
  static of(name: ErrorCodeName, message: string, options?: NamespaceErrorOptions): NamespaceError {
    return new NamespaceError(ErrorCode[name], message, options);
  }
}

/** Whether `error` is a NamespaceError, optionally with the given code name. */
export function isNamespaceError(error: unknown, name?: ErrorCodeName): error is NamespaceError {
  return error instanceof NamespaceError && (name === undefined || error.name === name);
}
