/**
 * @module The shape of one entry of the client's operation table, and the method types derived
 * from it. An entry says everything both implementations need: which catalog method `dir`
 * calls (the entry's key), and how `rest` puts the call on the wire (method, path template,
 * body and response kinds, query parameters). Request and response types come from the
 * server's TypeBox models, so the client never restates a wire shape.
 */
import { type Static, type TObject, type TProperties, type TSchema, Type } from "@sinclair/typebox";
import type { Table } from "apache-arrow";
import type { ResponseShape } from "../model/wire-shapes.js";
import type { ArrowInput } from "./arrow-io.js";

export type HttpMethod = "GET" | "POST";

/** What the request body is on the wire: the JSON request model, an Arrow IPC stream, or nothing. */
export type BodyKind = "json" | "arrow" | "none";

/**
 * What `{id}` in the path names: a namespace (default: the root), a table, or nothing (the
 * operation has no path id).
 */
export type Target = "namespace" | "table" | "none";

/** What a success answer holds, and what the method resolves with (the server's own shapes). */
export type ResponseSpec = ResponseShape;

export interface OperationEntry {
  /** The spec's operation name (the server's OpenAPI operationId). */
  operationId: string;
  method: HttpMethod;
  /**
   * Path template. `{id}` is the target's identifier joined with the delimiter (the delimiter
   * alone for the root); any other `{field}` is that request field.
   */
  path: string;
  target: Target;
  /** Table operations that also take `{ namespace, name }` instead of `id` (service description: create, open, drop, rename). */
  namespaceInput?: boolean;
  body: BodyKind;
  /** Request fields `rest` sends as query parameters (arrays repeat the parameter). */
  query?: readonly string[];
  /** Request fields `rest` sends as JSON-encoded query parameters (maps on CreateTable). */
  jsonQuery?: readonly string[];
  /**
   * The one request field that is the whole JSON body, sent bare instead of the request model
   * (UpdateTableSchemaMetadata's map); the other fields travel in `query`.
   */
  bodyField?: string;
  /**
   * Request fields the path carries that name something other than a namespace or table (the
   * transaction id of `/v1/transaction/{transaction_id}/...`). `rest` leaves them out of the
   * body; `dir` passes their values, in order, as the catalog method's first arguments.
   */
  pathArgs?: readonly string[];
  /** Whether the catalog method takes the request model (default true); DescribeTransaction's takes only its path arguments. */
  catalogRequest?: boolean;
  /** The request model; it also validates every call before either implementation runs it. */
  request: TObject;
  response: ResponseSpec;
}

/** A table named by its namespace and name (service description: "Client methods that accept a namespace input"). */
export interface TableNameInput {
  /** Namespace path; default the root. */
  namespace?: string[];
  name: string;
  id?: never;
}

type IdInput<E extends OperationEntry> = E["target"] extends "table"
  ? E["namespaceInput"] extends true
    ? { id: string[] } | TableNameInput
    : { id: string[] }
  : E["target"] extends "namespace"
    ? { /** Namespace path; default the root `[]`. */ id?: string[] }
    : unknown;

/** What a method takes: the request model with its `id` in the form the entry allows. */
export type RequestOf<E extends OperationEntry> = Omit<Static<E["request"]>, "id"> & IdInput<E>;

/** What a method resolves with. */
export type ResultOf<E extends OperationEntry> = E["response"] extends { kind: "json"; schema: infer S extends TSchema }
  ? Static<S>
  : E["response"] extends { kind: "arrow-file" }
    ? Table
    : E["response"] extends { kind: "integer" }
      ? number
      : E["response"] extends { kind: "string" }
        ? string
        : void;

type ArgsOf<E extends OperationEntry, Request> = E["body"] extends "arrow"
  ? [request: Request, data: ArrowInput]
  : {} extends Request
    ? [request?: Request]
    : [request: Request];

export type OperationMethod<E extends OperationEntry> = (...args: ArgsOf<E, RequestOf<E>>) => Promise<ResultOf<E>>;

/** A table operation bound to an opened table: the request without its identifier. */
export type BoundTableMethod<E extends OperationEntry> = (
  ...args: ArgsOf<E, Omit<Static<E["request"]>, "id">>
) => Promise<ResultOf<E>>;

/** Checks an entry against `OperationEntry` while keeping its literal type for the method types. */
export function operation<const E extends OperationEntry>(entry: E): E {
  return entry;
}

/**
 * A request model with the fields its route's path needs made required: without them the
 * client could not address the route, so both implementations refuse the call alike (13).
 */
export function withPathFields<T extends TObject, P extends TProperties>(model: T, fields: P) {
  const properties = { ...model.properties, ...fields } as Omit<T["properties"], keyof P> & P;
  return Type.Object(properties, { title: model.title, additionalProperties: true });
}

/** The paging parameters of list operations, sent in the query string. */
export const pageQuery = ["page_token", "limit"] as const;
