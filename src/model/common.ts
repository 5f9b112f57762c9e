/**
 * @module Schemas shared by every spec model (spec/endpoints.md §0.3, §12.3).
 */
import { Type, type Static, type TSchema, type TProperties, type TUnsafe } from "@sinclair/typebox";

/**
 * Nullable helper: the spec marks many optional fields nullable. It widens `type` to include
 * "null" instead of using anyOf, because type coercion of query strings would otherwise turn a
 * JSON `null` into 0 or "" before validation.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  if (typeof schema.type !== "string") return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, "null"] });
}

export const StringMap = Type.Record(Type.String(), Type.String());
export type StringMap = Static<typeof StringMap>;

export const Identity = Type.Object(
  {
    api_key: Type.Optional(Type.String()),
    auth_token: Type.Optional(Type.String()),
  },
  { title: "Identity" },
);
export type Identity = Static<typeof Identity>;

export const Context = Type.Record(Type.String(), Type.String(), { title: "Context" });
export type Context = Static<typeof Context>;

export const ObjectId = Type.Array(Type.String(), { description: "List-form identifier: namespace parts, then the object name." });

export const PageToken = Nullable(Type.String());
/** Largest page a listing serves in one answer; larger limits are refused (13). */
export const maxPageLimit = 2_147_483_647;
export const PageLimitValue = Type.Integer({ minimum: 0, maximum: maxPageLimit, description: "inclusive maximum of items per page; 0 or absent means no limit" });
export const PageLimit = Nullable(PageLimitValue);

/** The paging fields of a list request. */
export const pageFields = { page_token: Type.Optional(PageToken), limit: Type.Optional(PageLimit) };

/** The same in a query string, where they arrive as text. */
export const pageQueryFields = { page_token: Type.Optional(Type.String()), limit: Type.Optional(PageLimitValue) };

/** The identifier delimiter in a query string (default `$`). */
export const delimiterField = { delimiter: Type.Optional(Type.String({ minLength: 1 })) };

/** A non-negative version number; beyond 2^53 − 1 a JSON number would no longer be exact. */
export const Version = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** Which version of which branch a read sees; absent, the latest of main. */
export const readAtFields = { version: Type.Optional(Nullable(Version)), branch: Type.Optional(Nullable(Type.String())) };

/** Every request model carries identity, context and id (spec/endpoints.md §0.3). */
export function RequestModel<P extends TProperties>(name: string, properties: P) {
  return Type.Object(
    {
      identity: Type.Optional(Identity),
      context: Type.Optional(Context),
      id: Type.Optional(ObjectId),
      ...properties,
    },
    { title: name, additionalProperties: true },
  );
}

/** Every response model may carry context. */
export function ResponseModel<P extends TProperties>(name: string, properties: P) {
  return Type.Object({ context: Type.Optional(Context), ...properties }, { title: name });
}

/** A list answer: its items, then the token of the next page when there is one. */
export function PageResponse<P extends TProperties>(name: string, properties: P) {
  return ResponseModel(name, { ...properties, page_token: Type.Optional(PageToken) });
}

/** A write's answer that carries only its optional transaction id. */
export function TransactionResponse(name: string) {
  return ResponseModel(name, { transaction_id: Type.Optional(Type.String()) });
}

export const ErrorResponse = Type.Object(
  {
    code: Type.Integer({ minimum: 0 }),
    error: Type.Optional(Type.String()),
    detail: Type.Optional(Type.String()),
    instance: Type.Optional(Type.String()),
    context: Type.Optional(Context),
  },
  { title: "ErrorResponse" },
);
export type ErrorResponse = Static<typeof ErrorResponse>;

/** The query string of routes whose only parameter is the identifier delimiter (default `$`). */
export const DelimiterQuery = Type.Object(delimiterField);
