/**
 * @module The one validator of the spec's models, used by the server for what arrives and by the
 * client before it sends: both hold a request to the same compiled check, so a request one
 * accepts is exactly one the other accepts. JSON bodies are checked strictly (no type coercion:
 * a number is not a string, `null` stays `null`); query strings and path parameters are coerced,
 * since everything in a URL arrives as text.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { JsonArrowSchema, sharedSchemas } from "./schema-json.js";

/** Where a value arrives: a JSON body, or text in a URL (query string, path parameters). */
export type ValidatedPart = "body" | "url";

/** A check of one schema, with the failures of its last call as Ajv reports them. */
export type SchemaValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

function makeAjv(part: ValidatedPart): Ajv {
  // validateSchema off: the schemas are Quiver's own, built with TypeBox; checking each against the
  // JSON Schema meta-schema at start-up cost tens of milliseconds and could only find Quiver's bugs,
  // which the tests do.
  const ajv = new Ajv({
    coerceTypes: part === "url" ? "array" : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
    validateSchema: false,
  });
  // The schemas others reference by `$ref`.
  for (const schema of [...sharedSchemas, JsonArrowSchema]) ajv.addSchema(schema);
  return ajv;
}

const ajvs = new Map<ValidatedPart, Ajv>();
const validators = { body: new WeakMap<object, SchemaValidator>(), url: new WeakMap<object, SchemaValidator>() };

/**
 * The validator of `schema` for values arriving as `part`, made once per schema and compiled on
 * its first use: compiling every route's schemas at start-up took most of a second, while a
 * server answers only a few operations soon after it starts. The validator fills in the
 * schema's defaults where fields are absent.
 */
export function validatorOf(schema: object, part: ValidatedPart): SchemaValidator {
  let validate = validators[part].get(schema);
  if (validate) return validate;
  let compiled: ValidateFunction | undefined;
  const check: SchemaValidator = (data) => {
    if (!compiled) {
      let ajv = ajvs.get(part);
      if (!ajv) ajvs.set(part, (ajv = makeAjv(part)));
      compiled = ajv.compile(schema);
    }
    const valid = compiled(data);
    // Fastify reads the failures from the function it was given.
    check.errors = compiled.errors;
    return valid;
  };
  validate = check;
  validators[part].set(schema, validate);
  return validate;
}
