/**
 * @module Locations and how they compose. A location is a local path or an object-store URI
 * (`az://container/path`, `s3://bucket/path`, `gs://bucket/path`). A URI's path composes like a
 * POSIX path below its bucket, which it can never leave: `..` stops at the bucket. A location
 * from outside (a client, an operator) is first put in its one spelling by `checkedLocation`.
 */
import path from "node:path";

/** Whether `location` is a URI with a scheme rather than a local path. */
export function isUri(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location);
}

interface UriParts {
  /** `scheme://bucket`, lower-cased scheme. */
  base: string;
  /** The path below the bucket, always starting with `/`. */
  path: string;
}

function uriParts(location: string): UriParts {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)(.*)$/i.exec(location);
  if (!match) throw new Error(`'${location}' is not a URI`);
  return { base: `${(match[1] as string).toLowerCase()}://${match[2]}`, path: path.posix.resolve("/", match[3] as string) };
}

function uriOf({ base, path: under }: UriParts): string {
  return under === "/" ? base : `${base}${under}`;
}

/** The URI scheme of `location` (`az`, `s3`, `gs`), or undefined for a local path. */
export function schemeOf(location: string): string | undefined {
  return isUri(location) ? (/^([a-z][a-z0-9+.-]*):/i.exec(location) as RegExpExecArray)[1]?.toLowerCase() : undefined;
}

/**
 * `location` with `parts` appended, in the location's own syntax. A part is a name or a relative
 * path of names; one that could climb out of `location` (a `.` or `..` segment, a backslash, a
 * control character, a leading `/`) throws instead: names from callers come checked
 * (`model/path-names.ts`), so reaching this is a defect, not a request to honour.
 */
export function joinLocation(location: string, ...parts: string[]): string {
  for (const part of parts) {
    if (part.startsWith("/") || forbiddenCharacter.test(part) || part.split("/").some((segment) => segment === "." || segment === "..")) {
      throw new Error(`refusing to join ${JSON.stringify(part)} to '${location}': it is not a relative path of names`);
    }
  }
  return isUri(location) ? [location.replace(/\/+$/, ""), ...parts].join("/") : path.join(location, ...parts);
}

/** One spelling per location (no trailing `/`, no `.` or `..`), so two spellings of one place compare equal. */
export function normalizeLocation(location: string): string {
  return isUri(location) ? uriOf(uriParts(location)) : path.resolve(location);
}

/** The location `location` lies directly in; a bucket or the file-system root is its own parent. */
export function parentLocation(location: string): string {
  if (!isUri(location)) return path.dirname(location);
  const parts = uriParts(location);
  return uriOf({ ...parts, path: path.posix.dirname(parts.path) });
}

/** The last component of `location`'s path. */
export function locationName(location: string): string {
  return isUri(location) ? path.posix.basename(uriParts(location).path) : path.basename(location);
}

/**
 * Resolves `text` (a location of `root`'s kind, or a path relative to `root`) against `root`,
 * normalized. A URI of another scheme or bucket comes back as it is, to be refused by the caller.
 */
export function resolveLocation(root: string, text: string): string {
  if (isUri(text)) return normalizeLocation(text);
  if (!isUri(root)) return path.resolve(root, text);
  const parts = uriParts(root);
  return uriOf({ ...parts, path: path.posix.resolve(parts.path, text) });
}

/** Whether `candidate` lies strictly inside `root` (both normalized). */
export function isInsideLocation(root: string, candidate: string): boolean {
  if (isUri(root) !== isUri(candidate)) return false;
  // A spelling Lance may read as another place is never inside anything.
  if (unsafeSpellingOf(candidate) !== undefined) return false;
  if (!isUri(root)) {
    const relative = path.relative(root, candidate);
    return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  }
  const rootParts = uriParts(root);
  const parts = uriParts(candidate);
  if (rootParts.base !== parts.base) return false;
  const prefix = rootParts.path === "/" ? "/" : `${rootParts.path}/`;
  return parts.path !== rootParts.path && parts.path.startsWith(prefix);
}

/** A deletion that would reach outside the place it belongs to: a defect in Quiver, never a client's doing. */
export class DeletionOutsideScope extends Error {}

/**
 * Refuses (`DeletionOutsideScope`) to delete `target` unless it lies strictly inside `scope`: the
 * table, the database's storage root or the data location the deletion belongs to. Every
 * `TableStorage.deletePrefix` asks this first, so no value that reached a path unchecked can make
 * a deletion leave its table or database.
 */
export function assertDeletableInside(scope: string, target: string): void {
  const normalized = normalizeLocation(target);
  // A target not already in its one spelling (a `..`, a doubled `/`) may mean another place to the store than to this check.
  if (normalized !== target.replace(/\/+$/, "") || !isInsideLocation(normalizeLocation(scope), normalized)) {
    throw new DeletionOutsideScope(`refusing to delete '${target}': it does not lie inside '${scope}'`);
  }
}

/** The root of `location`'s store: `scheme://bucket` for a URI, `/` for a local path. */
export function storeRootOf(location: string): string {
  return isUri(location) ? uriParts(location).base : path.parse(path.resolve(location)).root;
}

/**
 * `location` as Lance's object store names it: the path below the store root, no leading `/`
 * (what namespace clients send as a staged `manifest_path`). Local paths are answered as they are.
 */
export function objectPathOf(location: string): string {
  return isUri(location) ? uriParts(location).path.slice(1) : location;
}

/** Splits `scheme://bucket/a/b` into its bucket and the object name (or prefix) below it, without a leading or trailing `/`. */
export function splitBucketLocation(location: string, scheme: string): { bucket: string; name: string } {
  const match = new RegExp(`^${scheme}://([^/]+)/?(.*)$`).exec(location);
  if (!match) throw new Error(`'${location}' is not a ${scheme}:// location`);
  return { bucket: match[1] as string, name: (match[2] as string).replace(/\/+$/, "") };
}

/** A location refused by `checkedLocation`: its message says why, for the client who sent it. */
export class UnsafeLocation extends Error {}

/**
 * Characters no location may hold, written or decoded: controls (a URL parser drops tab and
 * newline, so `.\t.` would become `..`) and backslashes (a separator to some parsers and stores).
 */
const forbiddenCharacter = /[\u0000-\u001f\u007f-\u009f\\]/;

/** The ASCII characters a percent escape may not stand for: they would change a path's segments or be decoded again. */
const forbiddenEscaped = /[\u0000-\u001f\u007f./\\%?#]/;

/** A bucket or container name: what S3, GCS and Azure allow, and nothing a URL parser reads as user, port or escape. */
const bucketName = /^[A-Za-z0-9._-]+$/;

/**
 * Why `text` could be read as a different place by Quiver and by Lance, or undefined. Lance parses
 * an object-store URI as a WHATWG URL (where `%2e` and `.%2E` are dot segments, tabs and newlines
 * vanish, and `?` or `#` end the path) and then percent-decodes the path once more (object_store's
 * `Path::from_url_path`); object stores decode it again on the wire. Quiver compares paths as
 * written, so every spelling any of these steps would change is refused here instead of guessed.
 */
function unsafeSpellingOf(text: string): string | undefined {
  if (/\p{Cs}/u.test(text)) return "holds an unpaired surrogate";
  if (forbiddenCharacter.test(text)) return "holds a control character or a backslash";
  if (isUri(text)) {
    const match = /^[a-z][a-z0-9+.-]*:\/\/([^/]*)(.*)$/i.exec(text) as RegExpExecArray;
    const authority = match[1] as string;
    if (!/^file:/i.test(text) && !bucketName.test(authority)) return `names '${authority}', which is not a bucket or container name`;
    if (/[?#]/.test(match[2] as string)) return "holds '?' or '#', which end a URI's path";
  }
  for (const escape of text.matchAll(/%(?:[0-9a-f]{2})?/gi)) {
    const hex = escape[0].slice(1);
    if (hex === "") return "holds a '%' that starts no escape";
    // Bytes from 0x80 up are parts of UTF-8 sequences, checked once decoded.
    if (forbiddenEscaped.test(String.fromCharCode(Number.parseInt(hex, 16)))) return `holds '${escape[0]}', an encoded '.', '/', '\\', '%', '?', '#' or control character`;
  }
  return undefined;
}

/** The percent escapes of `text` decoded, or an `UnsafeLocation` when they are not UTF-8 or stand for a control character. */
function decodedPath(text: string, original: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    throw new UnsafeLocation(`location '${original}' holds percent escapes that are not UTF-8`);
  }
  if (forbiddenCharacter.test(decoded)) throw new UnsafeLocation(`location '${original}' holds an encoded control character`);
  return decoded;
}

/**
 * A path already through `checkedLocation`, relative to an object-store location (or below its
 * bucket), with its escapes decoded as Lance reads them, so it joins that location in the same
 * spelling a URI naming the same place gets.
 */
export function objectStoreSpelling(relative: string): string {
  return decodedPath(relative, relative);
}

/**
 * `text`, a location from outside, in the one spelling Quiver and Lance both read as the same
 * place, or throws `UnsafeLocation`. Refused: anything `unsafeSpellingOf` finds, and `.` or `..`
 * segments (after decoding). An object-store URI comes back with its percent escapes decoded
 * (Lance reads `%20` and a space alike); a local path, and a `file://` URI (whose escapes
 * `fileURLToPath` decodes), come back as they are.
 */
export function checkedLocation(text: string): string {
  const problem = unsafeSpellingOf(text);
  if (problem !== undefined) throw new UnsafeLocation(`location '${text}' ${problem}`);
  const served = isUri(text) && !/^file:/i.test(text);
  const spelled = served ? decodedPath(text, text) : text;
  const pathPart = isUri(spelled) ? (/^[a-z][a-z0-9+.-]*:\/\/[^/]*(.*)$/i.exec(spelled) as RegExpExecArray)[1] as string : spelled;
  const segments = (/^file:/i.test(text) ? decodedPath(pathPart, text) : pathPart).split("/");
  if (segments.some((segment) => segment === "." || segment === "..")) throw new UnsafeLocation(`location '${text}' holds a '.' or '..' segment; name the place itself`);
  return spelled;
}
