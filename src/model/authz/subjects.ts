/**
 * @module Who a grant is for, in the grammar of LanceDB's authorization API: `p:<id>` and
 * `P:<name>` (a principal by identity-provider id or name), `g:<id>` and `G:<name>` (a group),
 * `r:<role>` (a role) and `a:<api key>` (the principal holding that key). Values after the
 * prefix are kept verbatim. An `a:` subject carries a secret: no message ever repeats it, and
 * since a mistyped prefix may hide one too, refusals repeat no value at all.
 */
import { invalidInput } from "../catalog-error.js";
import { validateName } from "../names.js";

export const subjectKinds = {
  "p:": "principal_id",
  "P:": "principal_name",
  "g:": "group_id",
  "G:": "group_name",
  "r:": "role",
  "a:": "principal_api_key",
} as const;
export type SubjectPrefix = keyof typeof subjectKinds;
export type SubjectKind = (typeof subjectKinds)[SubjectPrefix];

export interface Subject {
  kind: SubjectKind;
  /** The text after the prefix, verbatim. */
  value: string;
}

/** The kinds a listing answers with (`subject_id`): names and API keys are resolved before storing. */
export const canonicalKinds: readonly SubjectKind[] = ["principal_id", "group_id", "role"];

/** Longest value after the prefix: ids and names of identity providers are far shorter. */
export const maxSubjectValueLength = 1024;

const prefixOf = Object.fromEntries(Object.entries(subjectKinds).map(([prefix, kind]) => [kind, prefix])) as Record<SubjectKind, SubjectPrefix>;

/** A subject as the wire writes it. Never log or echo the text of an API key subject. */
export function formatSubject(subject: Subject): string {
  return `${prefixOf[subject.kind]}${subject.value}`;
}

/** How a subject is named in messages and logs: an API key subject never shows its key. */
export function describeSubject(subject: Subject): string {
  return subject.kind === "principal_api_key" ? "an API key subject" : formatSubject(subject);
}

/**
 * Parses a subject; throws 13 for an unknown prefix, an empty or over-long value, a control
 * character, an invalid role name, or a kind `accepted` leaves out (role-binding members are
 * never roles; a principal lookup takes `p:`, `P:` or `a:`).
 */
export function parseSubject(text: string, accepted: readonly SubjectKind[] = Object.values(subjectKinds)): Subject {
  const prefix = text.slice(0, 2);
  if (!(prefix in subjectKinds)) {
    throw invalidInput(`subject must start with one of ${Object.keys(subjectKinds).join(" ")} (case-sensitive) followed by a value`);
  }
  const kind = subjectKinds[prefix as SubjectPrefix];
  const value = text.slice(2);
  const what = kind === "principal_api_key" ? "an API key subject" : `a ${kind} subject (${prefix})`;
  if (!accepted.includes(kind)) {
    throw invalidInput(`${what} is not accepted here: use ${accepted.map((one) => prefixOf[one]).join(" ")}`);
  }
  if (value.length === 0) throw invalidInput(`${what} needs a value after its prefix`);
  if (value.length > maxSubjectValueLength) throw invalidInput(`${what} is longer than ${maxSubjectValueLength} characters`);
  if (/\p{Cc}/u.test(value)) throw invalidInput(`${what} contains a control character`);
  if (kind === "role") validateName(value, "role");
  return { kind, value };
}

/** Parses the `subject_id` of a listing entry: `p:`, `g:` or `r:` only. */
export function parseCanonicalSubject(text: string): Subject {
  return parseSubject(text, canonicalKinds);
}
