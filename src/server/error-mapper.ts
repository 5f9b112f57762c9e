/**
 * @module The only code that writes an `ErrorResponse` (spec/errors.md §1). Catalog errors keep
 * their code; framework failures become InvalidInput (13) or Unsupported (0); anything else is
 * Internal (18) without internals leaking. This holds below the router too: a path that is not
 * valid percent-encoding, and requests Node's HTTP parser refuses (oversized headers, broken
 * `Content-Length` or chunked framing), get the same JSON shape.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from "fastify";
import { CatalogError } from "../model/catalog-error.js";
import { isCloudClientRequest } from "./cloud-client.js";
import { ErrorCode, type ErrorCodeValue, errorStatus, permanentConflictCodes } from "../model/error-codes.js";
import type { ErrorResponse } from "../model/common.js";
import { unsupportedRouteAt } from "../model/unsupported-routes.js";
import { outageError } from "../catalog/failures.js";

/**
 * Seconds a client is asked to wait before retrying a 503 (`Retry-After`): outages of the
 * metadata or object store last seconds (a restart, a fail-over), and clients back off further.
 */
export const retryAfterSeconds = 1;

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

export function mapError(raw: unknown, request: FastifyRequest): MappedError {
  const instance = request.url.split("?", 1)[0];
  const error = outageError(raw) ?? raw;
  if (error instanceof CatalogError && error.code !== ErrorCode.Internal) {
    const body: ErrorResponse = { code: error.code, error: error.message, instance };
    if (error.detail) body.detail = error.detail;
    return { status: error.status ?? statusFor(error.code, request), body };
  }
  const known = frameworkError(error as FastifyError);
  if (known) return { status: statusFor(known.code, request), body: { code: known.code, error: known.message, instance } };
  return {
    status: 500,
    body: { code: ErrorCode.Internal, error: `internal error; quote request id ${request.id}`, instance },
  };
}

/** The error body each refused request was answered with, for its log line. */
const answeredErrors = new WeakMap<FastifyRequest, ErrorResponse>();

/** The `ErrorResponse` `request` was answered with, if it was refused. */
export function errorAnswerOf(request: FastifyRequest): ErrorResponse | undefined {
  return answeredErrors.get(request);
}

export function sendError(reply: FastifyReply, mapped: MappedError): FastifyReply {
  answeredErrors.set(reply.request, mapped.body);
  if (mapped.status === 503) reply.header("retry-after", String(retryAfterSeconds));
  return reply.status(mapped.status).type("application/json").send(mapped.body);
}

/** The answer to a request Node's parser refused; the connection is closed after it. */
function answerUnparsableRequest(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const message =
    status === 431 ? "request headers are too large" : status === 408 ? "the request was not received in time" : `malformed HTTP request: ${error.message}`;
  const body = JSON.stringify({ code: ErrorCode.InvalidInput, error: message } satisfies ErrorResponse);
  // Like Node's own answer: never inside a response already being written on this socket.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`;
  socket.end(head + body, () => socket.destroy());
}

/** Fastify options sending the failures met before routing (bad URL, unparsable request) through the mapper. */
export const frameworkErrorOptions = {
  frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => sendError(reply, mapError(error, request)),
  clientErrorHandler: answerUnparsableRequest,
} satisfies Partial<FastifyServerOptions>;

/** `/v1/<resource>` of a route, the part that says which kind of object its operation acts on. */
function resourceOf(path: string): string {
  return path.replace(/\/{2,}/g, "/").split("/", 3).join("/");
}

/** A route's path pattern as a matcher of request paths: a `:param` is one path segment, `*` the rest. */
function patternOf(url: string): RegExp {
  const body = url
    .replace(/\/+$/, "")
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/]+" : part === "*" ? ".*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${body}$`);
}

/** The methods the routes of this server take at each path pattern, to name them in a 405's `Allow`. */
class RouteMethods {
  private readonly patterns = new Map<string, { matcher: RegExp; methods: Set<string> }>();

  add(url: string, methods: string | string[]): void {
    let entry = this.patterns.get(url);
    if (!entry) {
      entry = { matcher: patternOf(url), methods: new Set() };
      this.patterns.set(url, entry);
    }
    for (const method of Array.isArray(methods) ? methods : [methods]) entry.methods.add(method);
  }

  /** The methods some route takes at `path` (sorted), empty when none serves it. */
  allowedAt(path: string): string[] {
    const normalized = path.replace(/\/{2,}/g, "/").replace(/(.)\/+$/, "$1");
    const allowed = new Set<string>();
    for (const { matcher, methods } of this.patterns.values()) {
      if (matcher.test(normalized)) for (const method of methods) allowed.add(method);
    }
    return [...allowed].sort();
  }
}

export function registerErrorMapper(app: FastifyInstance): void {
  const resources = new Set<string>();
  const routeMethods = new RouteMethods();
  app.addHook("onRoute", (route) => {
    if (route.url.startsWith("/v1/")) resources.add(resourceOf(route.url));
    routeMethods.add(route.url, route.method);
  });
  app.setErrorHandler((error, request, reply) => {
    const mapped = mapError(error, request);
    if (mapped.status >= 500) request.log.error({ err: error }, "request failed");
    else request.log.debug({ err: error }, "request refused");
    return sendError(reply, mapped);
  });
  // A path some route serves, asked with another method, is 405 naming the methods in `Allow`.
  // An unknown operation on a resource this server has is Unsupported (406); a path outside
  // every resource is 404. All keep code 0: the spec has no code for a missing route.
  app.setNotFoundHandler((request, reply) => {
    const instance = request.url.split("?", 1)[0] as string;
    const allowed = routeMethods.allowedAt(instance);
    // A route that takes this method and still found nothing (a missing asset) is a plain 404.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header("allow", allowed.join(", "));
      return sendError(reply, {
        status: 405,
        body: { code: ErrorCode.Unsupported, error: `${request.method} is not allowed at ${instance}; use ${allowed.join(" or ")}`, instance },
      });
    }
    // A route other clients call for a feature Quiver does not serve says which feature.
    const unsupported = allowed.length === 0 ? unsupportedRouteAt(instance) : undefined;
    if (unsupported) {
      return sendError(reply, { status: errorStatus[ErrorCode.Unsupported], body: { code: ErrorCode.Unsupported, error: unsupported.feature, instance } });
    }
    const unknownOperation = allowed.length === 0 && resources.has(resourceOf(instance));
    return sendError(reply, {
      status: unknownOperation ? errorStatus[ErrorCode.Unsupported] : 404,
      body: { code: ErrorCode.Unsupported, error: `${unknownOperation ? "no operation" : "nothing"} at ${request.method} ${instance}`, instance },
    });
  });
}
