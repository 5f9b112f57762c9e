/**
 * @module W3C Trace Context on every request. A `traceparent` from the caller puts its trace id
 * in the request's log lines; with tracing on (`tracing/start-tracing.ts`), each request also
 * gets a server span named after its operation id (`QueryTable`; `GET /health` for the service
 * routes), a child of the caller's span or the root of a new trace, with the HTTP attributes and
 * the answer's status. The catalog, store, engine and storage calls the request makes are its
 * children, the response carries the span's `traceparent`, and the log lines its trace and span ids.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type RequestSpan, startRequestSpan, tracingOn } from "../tracing/spans.js";
import { parseTraceParent } from "../tracing/trace-context.js";
import { errorAnswerOf } from "./error-mapper.js";
import { operationLabel } from "./request-metrics.js";

const requestSpans = new WeakMap<FastifyRequest, RequestSpan>();

function spanNameOf(request: FastifyRequest): string {
  const label = operationLabel(request);
  // Operation ids name themselves; a route template gets its method, as HTTP spans are named.
  return label.startsWith("/") ? `${request.method} ${label}` : label === "unmatched" ? request.method : label;
}

/** Every line the request's and the reply's loggers write from now on carries `traceId`. */
function bindTraceId(request: FastifyRequest, reply: FastifyReply, traceId: string): void {
  request.log = request.log.child({ trace_id: traceId });
  reply.log = request.log;
}

export function registerRequestTracing(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    const header = request.headers.traceparent;
    if (!tracingOn()) {
      // Nothing to export, but the caller's trace id still ties this request's log lines to its trace.
      if (header !== undefined) {
        const parent = parseTraceParent(header);
        if (parent) bindTraceId(request, reply, parent.traceId);
      }
      done();
      return;
    }
    const parent = parseTraceParent(header);
    const state = request.headers.tracestate;
    const span = startRequestSpan(spanNameOf(request), parent, parent && typeof state === "string" ? state : undefined, {
      "http.request.method": request.method,
      "http.route": request.routeOptions.url,
      "url.path": request.url.split("?", 1)[0],
      "url.scheme": request.protocol,
      "network.protocol.version": request.raw.httpVersion,
      "user_agent.original": request.headers["user-agent"],
      "client.address": request.ip,
      "quiver.request.id": request.id,
    });
    if (!span) {
      done();
      return;
    }
    requestSpans.set(request, span);
    bindTraceId(request, reply, span.traceId);
    reply.header("traceparent", span.traceparent);
    // The hooks after this one, and the handler (re-entered below once the body is read), run in
    // the span's context.
    span.run(done);
  });
  if (!tracingOn()) return;
  app.addHook("preHandler", (request, _reply, done) => {
    const span = requestSpans.get(request);
    if (span) span.run(done);
    else done();
  });
  app.addHook("onResponse", async (request, reply) => {
    const span = requestSpans.get(request);
    if (!span) return;
    requestSpans.delete(request);
    const refusal = errorAnswerOf(request);
    span.setAttributes({ "http.response.status_code": reply.statusCode, ...(refusal ? { "quiver.error.code": refusal.code } : {}) });
    span.end(reply.statusCode >= 500);
  });
  app.addHook("onRequestAbort", async (request) => {
    const span = requestSpans.get(request);
    if (!span) return;
    requestSpans.delete(request);
    span.setAttributes({ "quiver.request.aborted": true });
    span.end(false);
  });
}
