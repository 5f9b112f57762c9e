/**
 * @module The Lance Namespace error codes (spec/errors.md §2): one table of code → name → HTTP status.
 * Every layer speaks these codes; only `server/error-mapper` turns them into HTTP.
 */

export const ErrorCode = {
  Unsupported: 0,
  NamespaceNotFound: 1,
  NamespaceAlreadyExists: 2,
  NamespaceNotEmpty: 3,
  TableNotFound: 4,
  TableAlreadyExists: 5,
  TableIndexNotFound: 6,
  TableIndexAlreadyExists: 7,
  TableTagNotFound: 8,
  TableTagAlreadyExists: 9,
  TransactionNotFound: 10,
  TableVersionNotFound: 11,
  TableColumnNotFound: 12,
  InvalidInput: 13,
  ConcurrentModification: 14,
  PermissionDenied: 15,
  Unauthenticated: 16,
  ServiceUnavailable: 17,
  Internal: 18,
  InvalidTableState: 19,
  TableSchemaValidationError: 20,
  Throttling: 21,
  TableBranchNotFound: 22,
  TableBranchAlreadyExists: 23,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];

/** HTTP status for each code (spec/errors.md §2; 22/23 as the reference server maps them). */
export const errorStatus: Record<ErrorCodeValue, number> = {
  0: 406,
  1: 404,
  2: 409,
  3: 409,
  4: 404,
  5: 409,
  6: 404,
  7: 409,
  8: 404,
  9: 409,
  10: 404,
  11: 404,
  12: 404,
  13: 400,
  14: 409,
  15: 403,
  16: 401,
  17: 503,
  18: 500,
  19: 409,
  20: 400,
  21: 429,
  22: 404,
  23: 409,
};

const nameByCode = new Map<number, ErrorCodeName>(
  (Object.entries(ErrorCode) as [ErrorCodeName, ErrorCodeValue][]).map(([name, code]) => [code, name]),
);

/** The spec name of a code; unknown codes are Internal, as real clients treat them. */
export function errorCodeName(code: number): ErrorCodeName {
  return nameByCode.get(code) ?? "Internal";
}

/** Codes that name a lasting conflict rather than a lost race (see docs/compatibility.md). */
export const permanentConflictCodes: ReadonlySet<number> = new Set([
  ErrorCode.NamespaceAlreadyExists,
  ErrorCode.NamespaceNotEmpty,
  ErrorCode.TableAlreadyExists,
  ErrorCode.TableIndexAlreadyExists,
  ErrorCode.TableTagAlreadyExists,
  ErrorCode.InvalidTableState,
]);
