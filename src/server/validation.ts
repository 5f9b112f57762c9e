/**
 * @module Request validation. JSON bodies are checked strictly (no type coercion: a number is
 * not a string, `null` stays `null`); query strings and path parameters are coerced, since
 * everything in a URL arrives as text.
 */
import { Ajv, type ValidateFunction } from "ajv";
import type { FastifyInstance } from "fastify";
import type { TSchema } from "@sinclair/typebox";

function makeAjv(coerceTypes: boolean | "array"): Ajv {
  return new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
}

/** Installs the two validators; `shared` are the schemas others reference by `$ref`. */
export function registerValidation(app: FastifyInstance, shared: TSchema[]): void {
  const body = makeAjv(false);
  const params = makeAjv("array");
  for (const schema of shared) {
    body.addSchema(schema);
    params.addSchema(schema);
  }
  const cache = new WeakMap<object, ValidateFunction>();
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const cached = cache.get(schema);
    if (cached) return cached;
    const validate = (httpPart === "body" ? body : params).compile(schema);
    cache.set(schema, validate);
    return validate;
  });
}
