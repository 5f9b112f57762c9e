/**
 * @module Translates the narrow errors of the engine and the store into catalog errors with
 * spec codes. Backend failures sort into conflict (14), unavailable (17), a missing data file
 * (19: permanent, the table cannot be read) and unexpected (18).
 */
import { ArrowDecodeError, type EngineErrorKind, EngineError, classifyEngineError, missingDataFilePath } from "../engine/engine-errors.js";
import { ErrorCode, type ErrorCodeValue } from "../model/error-codes.js";
import { StoreUnavailable, UniqueViolation } from "../store/store-errors.js";
import { CatalogError } from "../model/catalog-error.js";
import { StorageUnavailable } from "../storage/storage-errors.js";

const codeByKind: Record<EngineErrorKind, ErrorCodeValue> = {
  "dataset-not-found": ErrorCode.TableNotFound,
  "dataset-exists": ErrorCode.TableAlreadyExists,
  "version-not-found": ErrorCode.TableVersionNotFound,
  "tag-not-found": ErrorCode.TableTagNotFound,
  "tag-exists": ErrorCode.TableTagAlreadyExists,
  "branch-not-found": ErrorCode.TableBranchNotFound,
  "branch-exists": ErrorCode.TableBranchAlreadyExists,
  "index-not-found": ErrorCode.TableIndexNotFound,
  "index-exists": ErrorCode.TableIndexAlreadyExists,
  "column-not-found": ErrorCode.TableColumnNotFound,
  "schema-mismatch": ErrorCode.TableSchemaValidationError,
  "invalid-input": ErrorCode.InvalidInput,
  "commit-conflict": ErrorCode.ConcurrentModification,
  "invalid-state": ErrorCode.InvalidTableState,
  "data-file-missing": ErrorCode.InvalidTableState,
  unavailable: ErrorCode.ServiceUnavailable,
  // Not 17: a client retrying a write that may have committed could apply it twice.
  "commit-unknown": ErrorCode.Internal,
  unexpected: ErrorCode.Internal,
};

/** The answer to an object store that cannot be reached: the store's words stay in the log. */
const storeUnreachable = "the object store cannot be reached; retry later";

/**
 * The CatalogError for an outage below the catalog (the metadata store or an object store cannot
 * serve now: a lost connection, a server restarting, a lock that cannot be taken now), or
 * undefined when `error` is no outage. Every failure the catalog lets through passes here (see
 * `catalog.ts`), and so does every error the server answers (auth, admin, console), so an outage
 * is 17 on every path, never Internal (18).
 */
export function outageError(error: unknown): CatalogError | undefined {
  if (error instanceof StoreUnavailable) return new CatalogError(ErrorCode.ServiceUnavailable, "the metadata store is unavailable; retry", { cause: error });
  if (error instanceof StorageUnavailable || (error instanceof EngineError && error.kind === "unavailable")) {
    return new CatalogError(ErrorCode.ServiceUnavailable, storeUnreachable, { cause: error });
  }
  return undefined;
}

/**
 * Turns any failure below the catalog into a CatalogError. `subject` names the object in
 * messages (e.g. "table 'a$b'"); `overrides` lets an operation give a kind its own meaning.
 */
export function toCatalogError(
  error: unknown,
  subject: string,
  overrides: Partial<Record<EngineErrorKind, CatalogError>> = {},
): CatalogError {
  if (error instanceof CatalogError) return error;
  if (error instanceof ArrowDecodeError) return new CatalogError(ErrorCode.InvalidInput, error.message, { cause: error });
  if (error instanceof UniqueViolation) {
    return new CatalogError(ErrorCode.ConcurrentModification, `${subject} was changed concurrently; retry`, { cause: error });
  }
  const outage = outageError(error);
  if (outage) return outage;
  const engineError = error instanceof EngineError ? error : classifyEngineError(error);
  const override = overrides[engineError.kind];
  if (override) return override;
  const code = codeByKind[engineError.kind];
  if (code === ErrorCode.ServiceUnavailable) return new CatalogError(code, storeUnreachable, { cause: error });
  return new CatalogError(code, messageOf(engineError, subject), { cause: error });
}

function messageOf(error: EngineError, subject: string): string {
  if (error.kind === "dataset-not-found") return `${subject} has no data`;
  if (error.kind === "data-file-missing") {
    // Permanent, and no fault of the request: the table's files were removed outside the catalog.
    return `${subject} cannot be read: its data file '${missingDataFilePath(error)}' is missing (removed outside Quiver, with the folder of a table it was cloned from or on its own)`;
  }
  return `${subject}: ${withoutStoreUrls(error.message)}`;
}

/**
 * `message` with every HTTP(S) URL replaced: the engine quotes the URLs of the store requests that
 * failed, which name the object cache's loopback proxy (and its path token) or the store's
 * endpoint with its query (a SAS token), neither of them a client's to see. Table locations
 * (`az://`, `s3://`, a path) stay.
 */
export function withoutStoreUrls(message: string): string {
  return message.replace(/\bhttps?:\/\/[^\s'"<>`)\]]+/gi, "<store URL>");
}

/**
 * The overrides of `parts` together, a later part's kind winning, copied as they are: an
 * override written as a getter (see `refOverrides`) is still built only when a request fails,
 * where spreading the parts would build every one on every request.
 */
export function overridesOf(...parts: Partial<Record<EngineErrorKind, CatalogError>>[]): Partial<Record<EngineErrorKind, CatalogError>> {
  const combined: Partial<Record<EngineErrorKind, CatalogError>> = {};
  for (const part of parts) Object.defineProperties(combined, Object.getOwnPropertyDescriptors(part));
  return combined;
}

/** Runs `fn`, translating any failure with `toCatalogError`. */
export async function translating<T>(
  subject: string,
  fn: () => Promise<T>,
  overrides?: Partial<Record<EngineErrorKind, CatalogError>>,
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toCatalogError(error, subject, overrides);
  }
}
