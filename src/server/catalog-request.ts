/**
 * @module The catalog request of a call, built alike for every operation from its table entry,
 * and the upload an Arrow operation passes beside it.
 */
import type { Readable } from "node:stream";
import type { OperationEntry } from "../model/operations/operation-entry.js";
import { jsonMapParam } from "./query-json.js";

export interface RequestParts {
  /** The path id, reconciled with the body's. */
  id: string[];
  delimiter: string;
  body: Record<string, unknown>;
  query: Record<string, unknown>;
  params: Record<string, string>;
}

/**
 * The JSON body's fields (or the bare body as the entry's `bodyField`), then the query
 * parameters the entry's query schema declares, which win over the body (DescribeTable's
 * switches), then the names the path carries, which win too (the path names the index), then
 * the identifier: `id` for operations with a path id, else the delimiter their answers join
 * identifiers with.
 */
export function catalogRequestOf(entry: OperationEntry, parts: RequestParts): Record<string, unknown> {
  const request: Record<string, unknown> = entry.bodyField === undefined ? { ...parts.body } : { [entry.bodyField]: parts.body };
  for (const name of Object.keys(entry.querySchema?.properties ?? {})) {
    const value = parts.query[name];
    if (name === "delimiter" || value === undefined) continue;
    request[name] = entry.jsonQuery?.includes(name) ? jsonMapParam(value, name) : value;
  }
  for (const [name, value] of Object.entries(parts.params)) if (name !== "id") request[name] = value;
  if (entry.target === "none") request.delimiter = parts.delimiter;
  else request.id = parts.id;
  return request;
}

/**
 * The raw upload as plain chunks; an absent body is an empty one, which the Arrow reader refuses
 * with 13. The request stream is wrapped, and left open when the reader stops early, because
 * destroying the request would close the socket before the response and leave nothing to drain.
 */
export function arrowBody(body: unknown): AsyncIterable<Uint8Array> | Uint8Array {
  if (body === undefined || body === null) return new Uint8Array();
  if (body instanceof Uint8Array) return body;
  if (typeof body === "object" && typeof (body as Readable).pipe === "function") return (body as Readable).iterator({ destroyOnReturn: false });
  // Already taken apart by the route (counted against the upload limit).
  if (typeof body === "object" && Symbol.asyncIterator in body) return body as AsyncIterable<Uint8Array>;
  return Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
}
