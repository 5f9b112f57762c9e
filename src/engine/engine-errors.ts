/**
 * @module Narrow errors of the engine. Lance reports failures as message text; this module is
 * the one place that reads those messages, so the catalog can map kinds, not strings.
 */
import { StorageUnavailable } from "../storage/storage-errors.js";

export { ArrowDecodeError } from "./arrow-decode-error.js";

export type EngineErrorKind =
  | "dataset-not-found"
  /** A dataset was created at the location meanwhile (two creates of one table raced). */
  | "dataset-exists"
  | "version-not-found"
  | "tag-not-found"
  | "tag-exists"
  | "branch-not-found"
  | "branch-exists"
  | "index-not-found"
  | "index-exists"
  | "column-not-found"
  | "schema-mismatch"
  | "invalid-input"
  | "commit-conflict"
  | "invalid-state"
  | "data-file-missing"
  /** The object store could not be reached or failed (refused, reset, timed out, 5xx); nothing was committed. */
  | "unavailable"
  /** The object store failed while a version's manifest was being written: the write may have committed. */
  | "commit-unknown"
  | "unexpected";

/** The staged manifest a commit names exists neither at its staged nor at its final name. */
export class StagedManifestMissing extends Error {
  constructor(readonly staged: string) {
    super(`staged manifest '${staged}' does not exist`);
    this.name = "StagedManifestMissing";
  }
}

export class EngineError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "EngineError";
  }
}

/** The engine could not read an uploaded batch (corrupt buffers, a compressed frame it cannot read). */
const unreadableUpload = /failed to read record batch from ipc|ipc error/i;

/** Whether a native failure means the engine could not read the upload it was given. */
export function isUnreadableUpload(error: unknown): boolean {
  return unreadableUpload.test(error instanceof Error ? error.message : String(error));
}

/**
 * A file a version lists (data, deletion or index file) is gone, removed outside the engine; its
 * path is the first or second group. Local and object-store wordings. Only the file's own name
 * counts, so a storage root with "data" in its path cannot make a missing dataset look like one.
 */
const missingDataFile = /not found: (?:wrapped error: not found: )?([^\s,]*\/(?:data\/[0-9a-f_-]{20,}\.lance|_deletions\/[^\s,\/]+|_indices\/[^\s,]+))(?=[\s,]|$)|object at location ([^\s,]*(?:data\/[0-9a-f_-]{20,}\.lance|_deletions\/[^\s,\/]+|_indices\/[^\s,]+)) not found/i;

/** The path of the missing data file a failure names, if it is one. */
export function missingDataFilePath(error: EngineError): string | undefined {
  const match = missingDataFile.exec(error.message);
  return match ? (match[1] ?? match[2]) : undefined;
}

/**
 * Lance's object store reports a store it could not reach, or that failed, as a "Generic <store>
 * error" (`Generic MicrosoftAzure error: ... HTTP error: error sending request`, a timeout, a 5xx
 * status), while a missing object is its own kind (`Object at location ... not found`) and a
 * refused credential says "permission"/"authentication". Only the first is an outage.
 */
const storeOutage =
  /error sending request|connection (refused|reset|closed|aborted)|operation timed out|timed out|deadline has elapsed|dns error|failed to lookup address|server error|status(:| code)? 5\d\d|\b5\d\d (internal server error|bad gateway|service unavailable|gateway timeout)|service unavailable/i;
/** A store's failure names the request that failed: a write of a manifest in `_versions/` is a commit. */
const manifestWrite = /\b(put|copy|rename|PUT)\b[^\n]*?_versions(\/|%2F)[^\s]*\.manifest/i;

/** Whether a native failure is the object store failing, and whether a commit was under way. */
function storeFailureKind(message: string): EngineErrorKind | undefined {
  if (!/Generic \w+ error|LanceError\(IO\)|object store/i.test(message) || !storeOutage.test(message)) return undefined;
  // Refused credentials and bad requests are answered by the store: not an outage.
  if (/client error|status(:| code)? 4\d\d|permission|unauthori[sz]ed|forbidden|authentication/i.test(message)) return undefined;
  return manifestWrite.test(message) ? "commit-unknown" : "unavailable";
}

const patterns: [RegExp, EngineErrorKind][] = [
  // First: a conflict's message quotes the other transaction, whose words must not decide the kind.
  // An incompatible transaction (an append racing an overwrite) is a lost race like any conflict.
  [/commit conflict|retryable commit conflict|incompatible transaction|concurrent (write|commit)|was modified|preempted/i, "commit-conflict"],
  // The body was bad.
  [unreadableUpload, "invalid-input"],
  // Before the not-found kinds: the missing file's path may hold any word.
  [missingDataFile, "data-file-missing"],
  [/version .*(not found|does not exist)|not found.*version|cannot find version/i, "version-not-found"],
  [/tag .*(not found|does not exist)|ref not found/i, "tag-not-found"],
  [/tag .*already exists/i, "tag-exists"],
  [/branch .*(not found|does not exist)/i, "branch-not-found"],
  [/branch .*already exists/i, "branch-exists"],
  [/index .*(not found|does not exist)/i, "index-not-found"],
  [/index .*already exists/i, "index-exists"],
  [/\btable '[^']*' already exists|dataset already exists/i, "dataset-exists"],
  [/(column|field) .*(not found|does not exist)|no (field|column) named|schema error: .*not found|cannot find column/i, "column-not-found"],
  [/(was not found|dataset .*not found|not found.*dataset|no such file|does not exist)/i, "dataset-not-found"],
  [/schema (mismatch|is not compatible|does not match)|append with different schema|incompatible schema|cannot cast|unable to cast/i, "schema-mismatch"],
  [/ref conflict|is referenced by/i, "invalid-state"],
  [/top level field .* cannot contain/i, "invalid-input"],
  [/divide by zero|arithmetic overflow|invalid distance type|invalid data type/i, "invalid-input"],
  [/invalid (input|user input|argument)|sql parser|parse error|error during planning|syntax error|invalid expression|expected .* but found|unsupported/i, "invalid-input"],
  // Index builds the data cannot support: a type the index does not cover, too few rows to train.
  [/index cannot be created on the field|not enough rows to train/i, "invalid-input"],
  // A vector search or index build that names no column, on a table with several vector columns.
  [/more than one vector column/i, "invalid-input"],
];

/** Classifies an error thrown by the native binding. */
export function classifyEngineError(error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // Quiver's own reads of a table's files (is there a dataset, which manifests) fail like Lance's.
  if (error instanceof StorageUnavailable) return new EngineError("unavailable", message, { cause: error });
  const kind = storeFailureKind(message) ?? patterns.find(([pattern]) => pattern.test(message))?.[1] ?? "unexpected";
  return new EngineError(kind, cleanMessage(message), { cause: error });
}

/** Lance messages end with a Rust source location; users need the sentence, not the file. */
function cleanMessage(message: string): string {
  return message
    .replace(/,\s*[\w/.-]+\.rs:\d+:\d+/g, "")
    // The cause chain repeats the message, and schema dumps run to kilobytes.
    .replace(/\s+Caused by:[\s\S]*$/, "")
    .replace(/:\s*Schema \{[\s\S]*$/, "")
    .trim();
}
