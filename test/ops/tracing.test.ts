// W3C Trace Context and OpenTelemetry traces: with --otel-endpoint (or the OTEL_* environment) a
// collector receives one span per request, named after its operation and in its caller's trace,
// with the catalog, store, engine and storage calls as children; without it, the caller's trace
// id still reaches the log and no OpenTelemetry module is loaded.
import assert from "node:assert/strict";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { startServer } from "../../src/cli/runtime.js";
import { parseServeOptions } from "../../src/cli/serve-options.js";
import { tracesUrlOf } from "../../src/tracing/start-tracing.js";
import { parseTraceParent } from "../../src/tracing/trace-context.js";
import { quiverVersion } from "../../src/server/version.js";
import { range, rowsTable, streamOf } from "../data/fixtures.js";
import { spawnServeOnFreshRoot } from "../helpers/cli-process.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

type OtlpAttribute = { key: string; value: Record<string, unknown> };

const attributesOf = (list: OtlpAttribute[] | undefined): Record<string, unknown> =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, Object.values(value)[0]]));

/** An OTLP/HTTP collector: spans posted to `/v1/traces` as JSON, flattened. */
async function startReceiver(t: { after(fn: () => Promise<void>): void }): Promise<{ url: string; spans: ReceivedSpan[]; posts: () => number }> {
  const spans: ReceivedSpan[] = [];
  let posts = 0;
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      posts += 1;
      if (request.method !== "POST" || request.url !== "/v1/traces") {
        response.writeHead(404).end();
        return;
      }
      const payload = JSON.parse(body) as {
        resourceSpans: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans: { spans: (Omit<ReceivedSpan, "attributes" | "resource"> & { attributes?: OtlpAttribute[] })[] }[] }[];
      };
      for (const resourceSpans of payload.resourceSpans) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scope of resourceSpans.scopeSpans) {
          for (const span of scope.spans) spans.push({ ...span, parentSpanId: span.parentSpanId ?? "", attributes: attributesOf(span.attributes), resource });
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, posts: () => posts };
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (const start = Date.now(); !check() && Date.now() - start < ms; ) await sleep(25);
  assert.ok(check(), what);
}

const randomHex = (digits: number) => Array.from({ length: digits }, () => Math.floor(Math.random() * 16).toString(16)).join("");
const callerSpan = () => ({ traceId: randomHex(32), spanId: randomHex(16) });
const traceparentOf = (caller: { traceId: string; spanId: string }) => `00-${caller.traceId}-${caller.spanId}-01`;

const jsonLines = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Whether `span` descends from the span `ancestorId` among `spans`. */
function descendsFrom(spans: ReceivedSpan[], span: ReceivedSpan, ancestorId: string): boolean {
  for (let parent = span.parentSpanId; parent; parent = spans.find((other) => other.spanId === parent)?.parentSpanId ?? "") {
    if (parent === ancestorId) return true;
  }
  return false;
}

test("tracing off: a request's traceparent puts its trace id in the log line, no traceparent is answered, the OpenTelemetry SDK and exporter are not loaded", async (t) => {
  const lines = new PassThrough();
  let log = "";
  lines.on("data", (chunk) => (log += chunk));
  const root = tempRoot();
  const runtime = await startServer({ root, host: "127.0.0.1", port: 0, logger: { level: "info", stream: lines } });
  t.after(() => runtime.close());
  const caller = callerSpan();
  const response = await fetch(`${runtime.url}/v1/namespace/list`, { headers: { traceparent: traceparentOf(caller) } });
  await expectJson(response);
  assert.equal(response.headers.get("traceparent"), null);
  await until(() => jsonLines(log).some((line) => line.msg === "request"), "the request's line is written");
  const line = jsonLines(log).find((entry) => entry.msg === "request");
  assert.equal(line?.trace_id, caller.traceId, log);
  // The API itself is loaded by dependencies (prom-client, @lancedb/lancedb) whatever Quiver does.
  const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => /@opentelemetry\/(sdk-trace|resources|exporter-trace-otlp-http|otlp-)/.test(file));
  assert.deepEqual(loaded, []);
});

test("--otel-endpoint: QueryTable with a traceparent → a server span QueryTable in the caller's trace, with catalog, store and engine children, and the trace id in the log", async (t) => {
  const receiver = await startReceiver(t);
  const server = await spawnServeOnFreshRoot(t, ["--otel-endpoint", receiver.url], {
    QUIVER_LOG_LEVEL: "info",
    OTEL_BSP_SCHEDULE_DELAY: "50",
    OTEL_SERVICE_NAME: undefined,
    OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
  });
  const writer = callerSpan();
  await expectJson(
    await fetch(`${server.url}/v1/table/traced/create`, {
      method: "POST",
      headers: { "content-type": "application/vnd.apache.arrow.stream", traceparent: traceparentOf(writer), tracestate: "vendor=abc" },
      body: streamOf(rowsTable(range(0, 3))),
    }),
  );
  const reader = callerSpan();
  const query = await fetch(`${server.url}/v1/table/traced/query`, {
    method: "POST",
    headers: { "content-type": "application/json", traceparent: traceparentOf(reader) },
    body: JSON.stringify({ k: 10, vector: null, columns: { column_names: ["id"] } }),
  });
  assert.equal(query.status, 200);
  await query.arrayBuffer();
  assert.match(query.headers.get("traceparent") ?? "", new RegExp(`^00-${reader.traceId}-[0-9a-f]{16}-01$`));

  const inTrace = (traceId: string) => receiver.spans.filter((span) => span.traceId === traceId);
  await until(() => inTrace(reader.traceId).some((span) => span.name === "QueryTable") && inTrace(writer.traceId).some((span) => span.name === "CreateTable"), "both requests' spans arrive");
  const spans = inTrace(reader.traceId);
  const root = spans.find((span) => span.name === "QueryTable") as ReceivedSpan;
  assert.equal(root.parentSpanId, reader.spanId, "the server span is a child of the caller's");
  assert.equal(root.kind, 2, "a server span");
  assert.equal(root.attributes["http.request.method"], "POST");
  assert.equal(Number(root.attributes["http.response.status_code"]), 200);
  assert.equal(root.attributes["http.route"], "/v1/table/:id/query");
  assert.equal(root.resource["service.name"], "quiver");
  assert.equal(root.resource["service.version"], quiverVersion);
  assert.equal(query.headers.get("traceparent")?.split("-")[2], root.spanId, "the answer names the server span");
  const under = (prefix: string) => spans.filter((span) => span.name.startsWith(prefix) && descendsFrom(spans, span, root.spanId)).map((span) => span.name);
  assert.deepEqual(under("catalog."), ["catalog.queryTable"]);
  assert.ok(under("store.").length > 0, JSON.stringify(spans.map((span) => span.name)));
  assert.ok(under("engine.").includes("engine.query"), JSON.stringify(spans.map((span) => span.name)));
  assert.ok(under("storage.").length > 0, JSON.stringify(spans.map((span) => span.name)));

  const written = inTrace(writer.traceId);
  const create = written.find((span) => span.name === "CreateTable") as ReceivedSpan;
  const writeChildren = written.filter((span) => descendsFrom(written, span, create.spanId)).map((span) => span.name);
  assert.ok(writeChildren.includes("catalog.createTable") && writeChildren.includes("engine.createTable"), JSON.stringify(writeChildren));
  assert.ok(writeChildren.includes("store.transaction"), JSON.stringify(writeChildren));

  await until(() => jsonLines(server.stdout()).some((line) => line.msg === "request" && line.trace_id === reader.traceId), "the query's log line carries its trace id");
  assert.equal((await expectJson(await fetch(`${server.url}/v1/capabilities`))).features.tracing, true);
});

test("OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_SERVICE_NAME: a request without traceparent starts a new trace, and stopping the server sends its spans", async (t) => {
  const receiver = await startReceiver(t);
  const server = await spawnServeOnFreshRoot(t, [], { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: "quiver-east", OTEL_BSP_SCHEDULE_DELAY: undefined });
  const response = await fetch(`${server.url}/v1/namespace/list`);
  await expectJson(response);
  const answered = (response.headers.get("traceparent") ?? "").split("-");
  assert.equal(answered.length, 4);
  // The batch waits 5 s by default; the shutdown sends it at once.
  assert.equal(await server.stop("SIGTERM"), 0);
  await until(() => receiver.spans.some((span) => span.name === "ListNamespaces"), "the span is sent at shutdown", 5_000);
  const span = receiver.spans.find((entry) => entry.name === "ListNamespaces") as ReceivedSpan;
  assert.equal(span.traceId, answered[1]);
  assert.equal(span.parentSpanId, "", "the root of a new trace");
  assert.equal(span.resource["service.name"], "quiver-east");
});

test("where traces go: --otel-endpoint and OTEL_EXPORTER_OTLP_ENDPOINT get /v1/traces, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as it is, OTEL_SDK_DISABLED=true turns tracing off, a flag that is no http(s) URL stops serve", () => {
  assert.equal(tracesUrlOf("http://collector:4318", {}), "http://collector:4318/v1/traces");
  assert.equal(tracesUrlOf(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "https://collector/otlp/" }), "https://collector/otlp/v1/traces");
  assert.equal(tracesUrlOf(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/custom", OTEL_EXPORTER_OTLP_ENDPOINT: "http://other:4318" }), "http://collector:4318/custom");
  assert.equal(tracesUrlOf("http://collector:4318", { OTEL_SDK_DISABLED: "true" }), undefined);
  assert.equal(tracesUrlOf(undefined, {}), undefined);
  assert.throws(() => parseServeOptions(["--otel-endpoint", "collector:4318"], {}), /--otel-endpoint must be the http:\/\/ or https:\/\/ URL/);
});

test("traceparent as W3C Trace Context reads it: a valid one (a later version's extra fields too) names the caller's span; an all-zero id, version ff, uppercase or a wrong length is ignored and a new trace starts", () => {
  const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
  const spanId = "00f067aa0ba902b7";
  assert.deepEqual(parseTraceParent(`00-${traceId}-${spanId}-01`), { traceId, spanId, flags: 1 });
  assert.deepEqual(parseTraceParent(`cc-${traceId}-${spanId}-00-later`), { traceId, spanId, flags: 0 });
  for (const malformed of [`00-${"0".repeat(32)}-${spanId}-01`, `00-${traceId}-${"0".repeat(16)}-01`, `ff-${traceId}-${spanId}-01`, `00-${traceId.toUpperCase()}-${spanId}-01`, `00-${traceId}-${spanId}-01-extra`, `00-${traceId}-${spanId}`]) {
    assert.equal(parseTraceParent(malformed), undefined, malformed);
  }
});
