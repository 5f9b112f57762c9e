/**
 * @module The only code that writes an `ErrorResponse` (spec/errors.md §1). Catalog errors keep
 * their code; framework failures become InvalidInput (13) or Unsupported (0); anything else is
 * Internal (18) without internals leaking.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { CatalogError } from "../catalog/catalog-error.js";
import { isCloudClientRequest } from "./cloud-client.js";
import { ErrorCode, type ErrorCodeValue, errorStatus, permanentConflictCodes } from "../model/error-codes.js";
import type { ErrorResponse } from "../model/common.js";

export interface MappedError {
  status: number;
  body: ErrorResponse;
}

/**
 * The LanceDB Cloud client retries 409 three times and maps a create conflict only from a 400
 * whose body says "already exists" (spec/clients.md §2.7): permanent conflicts answer it 400.
 */
function statusFor(code: ErrorCodeValue, request: FastifyRequest): number {
  if (permanentConflictCodes.has(code) && isCloudClientRequest(request)) return 400;
  return errorStatus[code] ?? 500;
}

function frameworkError(error: FastifyError): { code: ErrorCodeValue; message: string } | undefined {
  if (error.validation) {
    const where = error.validationContext ?? "request";
    const details = error.validation.map((v) => `${where}${v.instancePath} ${v.message ?? "is invalid"}`).join("; ");
    return { code: ErrorCode.InvalidInput, message: `invalid request: ${details}` };
  }
  if (error instanceof SyntaxError) return { code: ErrorCode.InvalidInput, message: `request body is not valid JSON: ${error.message}` };
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return { code: ErrorCode.InvalidInput, message: "request body is too large" };
  if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return { code: ErrorCode.InvalidInput, message: error.message };
  if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
    return { code: ErrorCode.InvalidInput, message: error.message };
  }
  return undefined;
}

export function mapError(error: unknown, request: FastifyRequest): MappedError {
  const instance = request.url.split("?", 1)[0];
  if (error instanceof CatalogError && error.code !== ErrorCode.Internal) {
    const body: ErrorResponse = { code: error.code, error: error.message, instance };
    if (error.detail) body.detail = error.detail;
    return { status: statusFor(error.code, request), body };
  }
  const known = frameworkError(error as FastifyError);
  if (known) return { status: statusFor(known.code, request), body: { code: known.code, error: known.message, instance } };
  return {
    status: 500,
    body: { code: ErrorCode.Internal, error: `internal error; quote request id ${request.id}`, instance },
  };
}

export function sendError(reply: FastifyReply, mapped: MappedError): FastifyReply {
  return reply.status(mapped.status).type("application/json").send(mapped.body);
}

export function registerErrorMapper(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const mapped = mapError(error, request);
    if (mapped.status >= 500) request.log.error({ err: error }, "request failed");
    else request.log.debug({ err: error }, "request refused");
    return sendError(reply, mapped);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, {
      status: errorStatus[ErrorCode.Unsupported],
      body: { code: ErrorCode.Unsupported, error: `no operation at ${request.method} ${request.url.split("?", 1)[0]}`, instance: request.url.split("?", 1)[0] },
    }),
  );
}
