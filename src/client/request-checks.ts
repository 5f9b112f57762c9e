/**
 * @module Checks every call makes before either implementation runs it, so that `dir` and
 * `rest` refuse the same requests with the same code (13) and message.
 */
import { type TObject, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { OperationEntry } from "../model/operations/operation-entry.js";
import { NamespaceError } from "./namespace-error.js";

/**
 * Drops `null` properties before checking. The models' `Nullable` helper widens the JSON
 * schema's `type` (which the server's validator honours) but keeps the base TypeBox kind, so
 * TypeBox's own checker would refuse the `null`s the server accepts. Every nullable field is
 * optional, so a dropped `null` checks exactly as the server checks it.
 */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return value;
  const entries = Object.entries(value).filter(([, v]) => v !== null && v !== undefined);
  return Object.fromEntries(entries.map(([k, v]) => [k, withoutNulls(v)]));
}

const checkedModels = new WeakMap<OperationEntry, TObject>();

/**
 * The entry's request model with the fields its path carries made required: without them the
 * client could not address the route, so both implementations refuse the call alike (13).
 */
function checkedModelOf(entry: OperationEntry): TObject {
  if (entry.pathFields === undefined) return entry.request;
  let model = checkedModels.get(entry);
  if (!model) {
    model = Type.Object({ ...entry.request.properties, ...entry.pathFields }, { title: entry.request.title, additionalProperties: true });
    checkedModels.set(entry, model);
  }
  return model;
}

/** Throws 13 naming the first field of `request` that does not fit the entry's request model. */
export function checkRequest(entry: OperationEntry, request: Record<string, unknown>): void {
  const schema = checkedModelOf(entry);
  const operationId = entry.operationId;
  const candidate = withoutNulls(request);
  if (Value.Check(schema, candidate)) return;
  const first = Value.Errors(schema, candidate).First();
  const where = first?.path ? `request${first.path.replace(/\//g, ".")}` : "request";
  throw NamespaceError.of("InvalidInput", `invalid ${operationId} request: ${where} ${first?.message.toLowerCase() ?? "is invalid"}`);
}

/**
 * Refuses empty, `.` and `..` identifier parts. They are never valid names (service description:
 * namespace paths), and in REST an empty or dots-only path segment is dropped by URL
 * normalisation before it is sent, which would address a different route.
 */
export function checkIdentifier(id: readonly string[] | undefined): void {
  for (const part of id ?? []) {
    if (part === "") throw NamespaceError.of("InvalidInput", "identifier parts must not be empty");
    if (part === "." || part === "..") throw NamespaceError.of("InvalidInput", `identifier part '${part}' is reserved`);
  }
}

/** An HTTP header name (RFC 9110 token). */
const tokenPattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * `context` entries travel as `x-svc-ctx-<key>` headers in REST (service description: Context), so both
 * implementations accept only keys and values a header can carry.
 */
export function checkContext(context: unknown): Record<string, string> {
  if (context === undefined || context === null) return {};
  const checked: Record<string, string> = {};
  for (const [key, value] of Object.entries(context as Record<string, unknown>)) {
    if (!tokenPattern.test(key)) throw NamespaceError.of("InvalidInput", `context key '${key}' cannot be sent as a header name`);
    if (typeof value !== "string" || /[\0\r\n]/.test(value) || /[^\x20-\xff\t]/.test(value)) {
      throw NamespaceError.of("InvalidInput", `context entry '${key}' must be a string that a header can carry`);
    }
    checked[key] = value;
  }
  return checked;
}
