/**
 * @module Schemas shared by every spec model (spec/endpoints.md §0.3, §12.3).
 */
import { Type, type Static, type TSchema, type TProperties } from "@sinclair/typebox";

export const StringMap = Type.Record(Type.String(), Type.String());
export type StringMap = Static<typeof StringMap>;

export const Identity = Type.Object(
  {
    api_key: Type.Optional(Type.String()),
    auth_token: Type.Optional(Type.String()),
  },
  { $id: "Identity" },
);
export type Identity = Static<typeof Identity>;

export const Context = Type.Record(Type.String(), Type.String(), { $id: "Context" });
export type Context = Static<typeof Context>;

export const ObjectId = Type.Array(Type.String(), { description: "List-form identifier: namespace parts, then the object name." });

export const PageToken = Type.Union([Type.String(), Type.Null()]);
export const PageLimit = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]);

/** A non-negative int64 carried as a JSON number. */
export const Version = Type.Integer({ minimum: 0 });

/** Nullable helper: the spec marks many optional fields nullable. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Every request model carries identity, context and id (spec/endpoints.md §0.3). */
export function RequestModel<P extends TProperties>(name: string, properties: P) {
  return Type.Object(
    {
      identity: Type.Optional(Identity),
      context: Type.Optional(Context),
      id: Type.Optional(ObjectId),
      ...properties,
    },
    { $id: name, additionalProperties: true },
  );
}

/** Every response model may carry context. */
export function ResponseModel<P extends TProperties>(name: string, properties: P) {
  return Type.Object({ context: Type.Optional(Context), ...properties }, { $id: name });
}

export const ErrorResponse = Type.Object(
  {
    code: Type.Integer({ minimum: 0 }),
    error: Type.Optional(Type.String()),
    detail: Type.Optional(Type.String()),
    instance: Type.Optional(Type.String()),
    context: Type.Optional(Context),
  },
  { $id: "ErrorResponse" },
);
export type ErrorResponse = Static<typeof ErrorResponse>;
