/**
 * @module Locations and how they compose. A location is a local path or an object-store URI
 * (`az://container/path`, `s3://bucket/path`, `gs://bucket/path`). A URI's path composes like a
 * POSIX path below its bucket, which it can never leave: `..` stops at the bucket.
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

/** `location` with `parts` appended, in the location's own syntax. */
export function joinLocation(location: string, ...parts: string[]): string {
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
