/**
 * @module Request validation: every route's schemas are checked by the models' one validator
 * (`model/schema-validators.ts`), the same the client checks its requests with before sending.
 */
import type { FastifyInstance } from "fastify";
import { validatorOf } from "../model/schema-validators.js";

/** Installs the models' validator: bodies strictly, query strings and path parameters coerced from text. */
export function registerValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => validatorOf(schema, httpPart === "body" ? "body" : "url"));
}
