/**
 * @module Conditional reads of DescribeTable and DescribeNamespace: the answer carries a strong
 * `ETag`, and a request whose `If-None-Match` names it is answered 304 without a body.
 *
 * The tag is a hash of the operation, the database, the object's id and the answer itself (keys
 * sorted), so it changes whenever any part of the answer does: a write (new version, stats), a
 * property change, a schema or index change, a rename (another id), a drop and re-create (another
 * location), and request switches such as `load_detailed_metadata` or `vend_credentials` that
 * change what is answered. The catalog knows nothing of this; the answer is all the tag needs.
 *
 * An answer carrying expiring credentials (`expires_at_millis` among its `storage_options`: scoped
 * vending) has no tag and always comes whole: a 304 would leave the client holding credentials
 * that run out. Static or no credentials do not expire, so those answers are tagged.
 */
import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Catalog } from "../catalog/catalog.js";
import type { OperationName } from "../model/operations/index.js";

/** The operations whose answers are tagged. */
const taggedOperations: ReadonlySet<OperationName> = new Set<OperationName>(["describeTable", "describeNamespace"]);

/** What a tagged answer depends on besides itself. */
export interface TaggedAnswer {
  name: OperationName;
  catalog: Catalog;
  id: readonly string[];
  answer: unknown;
}

/**
 * Sets the answer's `ETag` and, when the request's `If-None-Match` names it, sends 304. Returns
 * whether the answer was sent; otherwise the caller sends the answer as usual.
 */
export function answerConditionally(http: FastifyRequest, reply: FastifyReply, tagged: TaggedAnswer): boolean {
  if (!taggedOperations.has(tagged.name) || carriesExpiringCredentials(tagged.answer)) return false;
  const tag = entityTagOf(tagged);
  reply.header("etag", tag);
  if (!matchesAny(http.headers["if-none-match"], tag)) return false;
  reply.status(304).send();
  return true;
}

/** A strong entity tag: 128 bits of SHA-256 over the canonical form of what the answer is. */
function entityTagOf({ name, catalog, id, answer }: TaggedAnswer): string {
  const hash = createHash("sha256").update(canonicalJson([name, catalog.database.name, id, answer])).digest("base64url");
  return `"${hash.slice(0, 22)}"`;
}

function carriesExpiringCredentials(answer: unknown): boolean {
  const options = (answer as { storage_options?: Record<string, unknown> } | undefined)?.storage_options;
  return options !== undefined && options !== null && "expires_at_millis" in options;
}

/**
 * Whether `header` (a list of tags, or `*`) names `tag`. If-None-Match compares weakly (RFC 9110
 * §13.1.2): a `W/` prefix is ignored.
 */
function matchesAny(header: string | string[] | undefined, tag: string): boolean {
  if (header === undefined) return false;
  const listed = (Array.isArray(header) ? header.join(",") : header).split(",").map((part) => part.trim());
  return listed.some((candidate) => candidate === "*" || candidate.replace(/^W\//, "") === tag);
}

/** JSON with object keys sorted, so equal answers hash equally whatever order their keys were built in. */
function canonicalJson(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  // Built by appending rather than through arrays of entries: every describe's answer is hashed.
  if (Array.isArray(value)) {
    let text = "[";
    for (let index = 0; index < value.length; index += 1) text += (index === 0 ? "" : ",") + canonicalJson(value[index]);
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = "{";
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined) continue;
    text += (text.length === 1 ? "" : ",") + JSON.stringify(key) + ":" + canonicalJson(item);
  }
  return `${text}}`;
}
