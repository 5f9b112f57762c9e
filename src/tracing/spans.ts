/**
 * @module Spans for every layer, at no cost while tracing is off. The OpenTelemetry API, SDK and
 * exporter are loaded only by `start-tracing.ts`, when an endpoint is configured; until then
 * `tracing` is undefined, the helpers here run the work as it is, and `withSpans` hands back its
 * target unwrapped. Child spans are started only under a span: a request's work is traced, the
 * background tasks between requests (sweeps, purges, job polls) are not.
 */
import type * as OpenTelemetry from "@opentelemetry/api";
import type { Span, SpanKind, Tracer } from "@opentelemetry/api";
import { type TraceParent, formatTraceParent } from "./trace-context.js";

/** Attribute values a span carries. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** What the loaded SDK gives the helpers. */
export interface ActiveTracing {
  api: typeof OpenTelemetry;
  tracer: Tracer;
}

let tracing: ActiveTracing | undefined;

/** Called by `start-tracing.ts` once the SDK is registered, and with undefined when it stops. */
export function setActiveTracing(active: ActiveTracing | undefined): void {
  tracing = active;
}

/** Whether spans are being made. */
export function tracingOn(): boolean {
  return tracing !== undefined;
}

/** The span of one HTTP request, the parent of every span its work starts. */
export interface RequestSpan {
  readonly traceId: string;
  /** The `traceparent` naming this span, for the response. */
  readonly traceparent: string;
  /** Runs `fn` with this span active, so the spans `fn` starts (also after `await`s) are its children. */
  run<T>(fn: () => T): T;
  setAttributes(attributes: SpanAttributes): void;
  /** Ends the span; `failed` marks it as an error (a 5xx answer). */
  end(failed: boolean): void;
}

/**
 * Starts the server span of a request: a child of the caller's span when `parent` names one
 * (with its `tracestate`), the root of a new trace otherwise. Undefined while tracing is off.
 */
export function startRequestSpan(name: string, parent: TraceParent | undefined, traceState: string | undefined, attributes: SpanAttributes): RequestSpan | undefined {
  if (!tracing) return undefined;
  const { api, tracer } = tracing;
  let parentContext = api.ROOT_CONTEXT;
  if (parent) {
    parentContext = api.trace.setSpanContext(parentContext, {
      traceId: parent.traceId,
      spanId: parent.spanId,
      traceFlags: parent.flags,
      isRemote: true,
      traceState: traceState ? api.createTraceState(traceState) : undefined,
    });
  }
  const span = tracer.startSpan(name, { kind: api.SpanKind.SERVER, attributes }, parentContext);
  const spanContext = span.spanContext();
  const active = api.trace.setSpan(parentContext, span);
  return {
    traceId: spanContext.traceId,
    traceparent: formatTraceParent(spanContext.traceId, spanContext.spanId, spanContext.traceFlags),
    run: (fn) => api.context.with(active, fn),
    setAttributes: (more) => span.setAttributes(more),
    end(failed) {
      if (failed) span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end();
    },
  };
}

type Kind = "internal" | "client";

function kindOf(api: typeof OpenTelemetry, kind: Kind): SpanKind {
  return kind === "client" ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL;
}

function failSpan(api: typeof OpenTelemetry, span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** Runs `fn` in a span `name` under the active span; `fn` alone when tracing is off or no span is active. */
export function inSpan<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>, kind: Kind = "internal"): Promise<T> {
  if (!tracing) return fn();
  const { api, tracer } = tracing;
  if (!api.trace.getSpan(api.context.active())) return fn();
  return tracer.startActiveSpan(name, { kind: kindOf(api, kind), attributes }, async (span) => {
    try {
      return await fn();
    } catch (error) {
      failSpan(api, span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * A view of `target` whose methods each run in a span `prefix + name` (`store.findTableByName`),
 * or `target` itself while tracing is off, so an untraced server calls it directly. Methods run
 * with the unwrapped object as `this`, so a method calling another makes one span.
 */
export function withSpans<T extends object>(target: T, prefix: string, attributes: SpanAttributes, kind: Kind = "internal", skip: ReadonlySet<string> = new Set()): T {
  if (!tracing) return target;
  const { api, tracer } = tracing;
  const spanKind = kindOf(api, kind);
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver) as unknown;
      if (typeof value !== "function" || typeof property !== "string" || skip.has(property)) return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        if (!api.trace.getSpan(api.context.active())) return method.apply(object, args);
        return tracer.startActiveSpan(prefix + property, { kind: spanKind, attributes }, (span) => {
          let result: unknown;
          try {
            result = method.apply(object, args);
          } catch (error) {
            failSpan(api, span, error);
            span.end();
            throw error;
          }
          if (!(result instanceof Promise)) {
            span.end();
            return result;
          }
          return result.then(
            (resolved) => {
              span.end();
              return resolved;
            },
            (error: unknown) => {
              failSpan(api, span, error);
              span.end();
              throw error;
            },
          );
        });
      };
    },
  });
}
