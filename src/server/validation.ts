/**
 * @module Request validation. JSON bodies are checked strictly (no type coercion: a number is
 * not a string, `null` stays `null`); query strings and path parameters are coerced, since
 * everything in a URL arrives as text.
 */
import { Ajv, type ValidateFunction } from "ajv";
import type { FastifyInstance } from "fastify";
import type { TSchema } from "@sinclair/typebox";

function makeAjv(coerceTypes: boolean | "array"): Ajv {
  // validateSchema off: the schemas are Quiver's own, built with TypeBox; checking each against the
  // JSON Schema meta-schema at start-up cost tens of milliseconds and could only find Quiver's bugs,
  // which the tests do.
  return new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false, validateSchema: false });
}

/** Installs the two validators; `shared` are the schemas others reference by `$ref`. */
export function registerValidation(app: FastifyInstance, shared: TSchema[]): void {
  const body = makeAjv(false);
  const params = makeAjv("array");
  for (const schema of shared) {
    body.addSchema(schema);
    params.addSchema(schema);
  }
  const cache = new WeakMap<object, LazyValidator>();
  app.setValidatorCompiler(({ schema, httpPart }) => {
    let validate = cache.get(schema);
    if (!validate) {
      validate = lazyValidator(httpPart === "body" ? body : params, schema);
      cache.set(schema, validate);
    }
    return validate;
  });
}

type LazyValidator = ((data: unknown) => boolean) & { errors?: ValidateFunction["errors"] };

/**
 * A validator compiled on its first use: compiling every route's schemas at start-up took most
 * of a second, while a server answers only a few operations soon after it starts.
 */
function lazyValidator(ajv: Ajv, schema: object): LazyValidator {
  let compiled: ValidateFunction | undefined;
  const validate: LazyValidator = (data) => {
    compiled ??= ajv.compile(schema);
    const valid = compiled(data);
    // Fastify reads the failures from the function it was given.
    validate.errors = compiled.errors;
    return valid;
  };
  return validate;
}
