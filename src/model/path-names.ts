/**
 * @module Names a caller sends that become part of a storage path: branch and tag names (Lance
 * keeps them as `_refs/<kind>/<name>.json` and `tree/<branch>/`), multipart upload ids and part
 * ids (`_uploads/<upload id>/<part id>.arrow`). `pathName` is the one way such a value becomes a
 * name of its kind; storage code takes only the branded types it returns, so a value that skipped
 * the check does not compile. Values are checked as received (already percent-decoded by the
 * router or the JSON parser), and a name is one path segment of a fixed alphabet: no separator,
 * no `.` or `..`, no escape or control character can reach a path.
 */
import { echoed, invalidInput } from "./catalog-error.js";
import { maxNameLength, namePattern } from "./names.js";

declare const pathNameKind: unique symbol;

/** The kinds of caller-sent names that become path segments. */
export type PathNameKind = "branch" | "tag" | "upload_id" | "upload_part_id";

/** A value checked by `pathName` to be a valid name of kind `K`. */
export type PathName<K extends PathNameKind> = string & { readonly [pathNameKind]: K };
export type BranchName = PathName<"branch">;
export type TagName = PathName<"tag">;
export type UploadId = PathName<"upload_id">;
export type UploadPartId = PathName<"upload_part_id">;

interface NameRule {
  pattern: RegExp;
  maxLength: number;
  /** What a valid name looks like, for the refusal's message. */
  form: string;
}

/** A name of Quiver's own alphabet (`model/names.ts`), at most `maxLength` long. */
const nameRule = (maxLength: number): NameRule => ({ pattern: namePattern, maxLength, form: `only letters, digits, '_', '-' and '.' (at most ${maxLength})` });

const rules: Record<PathNameKind, NameRule> = {
  branch: nameRule(maxNameLength),
  tag: nameRule(maxNameLength),
  // The form Quiver issues (`randomUUID`): nothing else was ever an upload id.
  upload_id: { pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, maxLength: 36, form: "an upload id as CreateMultipartWrite answers it (a lower-case UUID)" },
  upload_part_id: nameRule(128),
};

function fits(rule: NameRule, value: string): boolean {
  return value.length > 0 && value.length <= rule.maxLength && rule.pattern.test(value) && value !== "." && value !== "..";
}

/**
 * `value` as a name of `kind`, or 400 code 13 naming `field` and the form expected. Refused: a
 * non-string, the empty string, `.` and `..`, anything longer than the kind allows or outside its
 * alphabet (separators, escapes, controls, NUL).
 */
export function pathName<K extends PathNameKind>(kind: K, value: unknown, field: string = kind): PathName<K> {
  const rule = rules[kind];
  if (typeof value !== "string") throw invalidInput(`${field} must be a string`);
  if (!fits(rule, value)) {
    throw invalidInput(`${field} ${echoed(value)} is not valid: it must be ${rule.form}, and not '.' or '..'`);
  }
  return value as PathName<K>;
}

/** Whether `value` is a valid name of `kind` (for listings and records that skip what is not, rather than refuse it). */
export function isPathName<K extends PathNameKind>(kind: K, value: string): value is PathName<K> {
  return fits(rules[kind], value);
}
