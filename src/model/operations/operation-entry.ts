/**
 * @module What one entry of the operation table says: everything the server needs to route,
 * validate, authorize and document the operation, and everything the client needs to carry it
 * (the `dir` implementation calls the `Catalog` method named by the entry's key, `rest` puts the
 * call on the wire as the entry describes).
 */
import type { TObject, TProperties, TSchema } from "@sinclair/typebox";
import type { Privilege } from "../authz/privileges.js";
import type { ResponseShape } from "../wire-shapes.js";

export type HttpMethod = "GET" | "POST";

/** The roles, least first; an operation declares the least that may call it. */
export const accessLevels = ["read", "write", "admin"] as const;
export type Access = (typeof accessLevels)[number];

/** Whether `held` is at least `needed`: each level includes the ones before it. */
export function accessAllows(held: Access | undefined, needed: Access): boolean {
  return held !== undefined && accessLevels.indexOf(held) >= accessLevels.indexOf(needed);
}

/** What the request body is on the wire: JSON, an Arrow IPC stream, or nothing. */
export type BodyKind = "json" | "arrow" | "none";

/**
 * What `{id}` in the path names: a namespace (default: the root), a table, or nothing (the
 * operation has no path id; its identifiers are rendered with the request's delimiter).
 */
export type Target = "namespace" | "table" | "none";

/** What the server needs to serve and document any operation, catalog or admin. */
export interface ServedOperation {
  /** The spec's operation name, also the OpenAPI operationId; unique. */
  operationId: string;
  /** One line for the OpenAPI document. */
  summary: string;
  /** The OpenAPI tag. */
  tag: string;
  /** The methods the route takes; the client sends the first. */
  methods: readonly HttpMethod[];
  /** Path template in OpenAPI form, e.g. `/v1/table/{id}/describe`. */
  path: string;
  /** Further paths served alike, left out of the OpenAPI document. */
  aliases?: readonly string[];
  body: BodyKind;
  /** The JSON body's schema when it is not `request` (a bare map). */
  bodySchema?: TSchema;
  /** The request model; it is also the JSON body unless `bodySchema` says otherwise. */
  request?: TObject;
  /**
   * The query string. For a catalog operation each of its parameters but `delimiter` becomes the
   * request field of the same name, winning over the body's (DescribeTable's switches).
   */
  querySchema?: TObject;
  response: ResponseShape;
  /** Default 200. */
  successStatus?: number;
  access: Access;
}

/**
 * What a caller needs to run an operation under grants (docs/auth.md, "Authorization"):
 * - `needs`: a privilege, several that must all be held, or `visible` (any privilege that lets the
 *   caller see the object: a table's own, or USAGE on a namespace).
 * - `on`: the object `{id}` names (`object`), the namespace holding it (`parent`: where a table or
 *   namespace is created), or the request's database (operations whose objects the body names).
 * A caller whose role on the database allows `access` needs nothing more: the roles hold every
 * privilege their level implies, and the write role also restructures and drops every table.
 */
export interface PrivilegeNeed {
  needs: Privilege | readonly Privilege[] | "visible";
  on: "object" | "parent" | "database";
}

/** One catalog operation, keyed in the table by its camelCase name (the `Catalog` method's). */
export interface OperationEntry extends ServedOperation {
  target: Target;
  privilege: PrivilegeNeed;
  request: TObject;
  /**
   * Request fields the path carries besides `{id}` (`{index_name}`, `{transaction_id}`), made
   * required: without them the client could not address the route. On the server a path value
   * wins over the body's. A field the spec model lacks is left out of the JSON body.
   */
  pathFields?: TProperties;
  /** Left out of the client: the managed-deployment extras it leaves to HTTP. */
  client?: false;
  /** Table operations that also take `{ namespace, name }` instead of `id` (service description: create, open, drop, rename). */
  namespaceInput?: boolean;
  /** Request fields the client sends as query parameters (arrays repeat the parameter). */
  query?: readonly string[];
  /** Request fields sent as JSON-encoded query parameters (CreateTable's maps); the server decodes them. */
  jsonQuery?: readonly string[];
  /** The one request field that is the whole JSON body, sent bare (UpdateTableSchemaMetadata's map). */
  bodyField?: string;
}

/** Checks an entry against `OperationEntry` while keeping its literal type for the client's method types. */
export function operation<const E extends OperationEntry>(entry: E): E {
  return entry;
}

/** A JSON answer of `schema`. */
export function json<const S extends TSchema>(schema: S): { kind: "json"; schema: S } {
  return { kind: "json", schema };
}

/** The schema a JSON body is validated and documented with. */
export function bodySchemaOf(served: ServedOperation): TSchema | undefined {
  return served.body === "json" ? (served.bodySchema ?? served.request) : undefined;
}

/**
 * The OpenAPI operationId of one method of an operation: the spec's name for the first method
 * (the one the client sends), the name plus the method for the others (`CountTableRowsGet`), so
 * that every documented operation has its own id.
 */
export function operationIdOf(served: ServedOperation, method: HttpMethod): string {
  if (method === served.methods[0]) return served.operationId;
  return `${served.operationId}${method.charAt(0)}${method.slice(1).toLowerCase()}`;
}

/** The paging parameters of list operations, sent in the query string. */
export const pageQuery = ["page_token", "limit"] as const;
