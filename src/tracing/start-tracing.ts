/**
 * @module Starts OpenTelemetry tracing: loads the API, the SDK and the OTLP/HTTP exporter (only
 * now: a server without tracing never loads them), registers the context manager and the tracer
 * provider, and makes the helpers of `spans.ts` start spans. Spans are batched and sent as
 * OTLP JSON to `<endpoint>`; `stop()` sends what is left.
 */
import { AsyncContextManager } from "./async-context.js";
import { setActiveTracing } from "./spans.js";

export interface TracingConfig {
  /** Where spans are posted: the full URL of the collector's traces path. */
  tracesUrl: string;
  /** `service.name` unless `OTEL_SERVICE_NAME` (or `OTEL_RESOURCE_ATTRIBUTES`) says otherwise. */
  serviceName: string;
  serviceVersion: string;
  /** Milliseconds between two batches of spans (`OTEL_BSP_SCHEDULE_DELAY`, default 5000). */
  batchDelayMs?: number;
  /** Where the SDK's warnings and errors go (an export the collector refused or never got). */
  warn(message: string): void;
}

export interface Tracing {
  /** Ends tracing: spans still batched are sent first. */
  stop(): Promise<void>;
}

/**
 * The traces URL the settings and the standard environment give, or undefined when tracing is
 * off: `--otel-endpoint` and `OTEL_EXPORTER_OTLP_ENDPOINT` name the collector (`/v1/traces` is
 * added), `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` the traces path itself. `OTEL_SDK_DISABLED=true`
 * or `OTEL_TRACES_EXPORTER=none` turn it off.
 */
export function tracesUrlOf(endpoint: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return undefined;
  if (endpoint) return withTracesPath(endpoint);
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) return withTracesPath(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  return undefined;
}

/** `endpoint` if it is an http:// or https:// URL; otherwise an error saying so. */
export function checkOtelEndpoint(endpoint: string): string {
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new Error(`--otel-endpoint must be the http:// or https:// URL of an OpenTelemetry collector (http://localhost:4318), got '${endpoint}'`);
  }
  return endpoint;
}

function withTracesPath(endpoint: string): string {
  const url = new URL(endpoint);
  if (!url.pathname.endsWith("/v1/traces")) url.pathname = `${url.pathname.replace(/\/+$/, "")}/v1/traces`;
  return url.toString();
}

/** Milliseconds from `OTEL_BSP_SCHEDULE_DELAY`, when it holds a positive number. */
export function batchDelayOf(env: NodeJS.ProcessEnv): number | undefined {
  const value = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** A diagnostic argument as text: errors (also the exporter's serialized ones) by their message. */
function messageOf(arg: unknown): string {
  if (typeof arg === "string") return arg;
  if (arg && typeof arg === "object" && typeof (arg as { message?: unknown }).message === "string") return (arg as { message: string }).message;
  return JSON.stringify(arg);
}

export async function startTracing(config: TracingConfig): Promise<Tracing> {
  const [api, sdk, resources, { OTLPTraceExporter }] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/exporter-trace-otlp-http"),
  ]);
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over Quiver's own name.
  const fromEnv = resources.detectResources({ detectors: [resources.envDetector] });
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": config.serviceName, "service.version": config.serviceVersion }))
    .merge(fromEnv);
  const exporter = new OTLPTraceExporter({ url: config.tracesUrl });
  const processor = new sdk.BatchSpanProcessor({ exporter, ...(config.batchDelayMs ? { scheduledDelayMillis: config.batchDelayMs } : {}) });
  const provider = new sdk.TracerProvider({ resource, spanProcessors: [processor] });
  // Without a logger the SDK drops its own failures silently; an operator should see a collector that is down.
  const report = (...args: unknown[]) => config.warn(args.map(messageOf).join(" "));
  const ignore = () => undefined;
  api.diag.setLogger({ error: report, warn: report, info: ignore, debug: ignore, verbose: ignore }, api.DiagLogLevel.WARN);
  api.context.setGlobalContextManager(new AsyncContextManager(api.ROOT_CONTEXT));
  api.trace.setGlobalTracerProvider(provider);
  setActiveTracing({ api, tracer: provider.getTracer("quiver", config.serviceVersion) });
  return {
    async stop() {
      setActiveTracing(undefined);
      await provider.shutdown();
      api.trace.disable();
      api.context.disable();
      api.diag.disable();
    },
  };
}
