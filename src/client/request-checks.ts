/**
 * @module Checks every call makes before either implementation runs it, so that `dir` and
 * `rest` refuse the same requests with the same code (13) and message.
 */
import { type TObject, Type } from "@sinclair/typebox";
import type { OperationEntry } from "../model/operations/operation-entry.js";
import { validatorOf } from "../model/schema-validators.js";
import { NamespaceError } from "./namespace-error.js";

/**
 * A copy of the request's plain objects and arrays: the validator fills in the models' defaults,
 * which belong to whoever serves the call, not to the request the caller handed over.
 */
function copyOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyOf);
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyOf(v)]));
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

/**
 * Throws 13 naming the first field of `request` that does not fit the entry's request model,
 * checked by the validator the server checks JSON bodies with.
 */
export function checkRequest(entry: OperationEntry, request: Record<string, unknown>): void {
  const validate = validatorOf(checkedModelOf(entry), "body");
  if (validate(copyOf(request))) return;
  const first = validate.errors?.[0];
  const where = `request${(first?.instancePath ?? "").replace(/\//g, ".")}`;
  throw NamespaceError.of("InvalidInput", `invalid ${entry.operationId} request: ${where} ${first?.message ?? "is invalid"}`);
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
