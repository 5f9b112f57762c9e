// Seeded fuzzing of every documented operation with malformed JSON, malformed Arrow and malformed
// paths, over a few keep-alive connections: a client's mistake is never a 5xx, every error is a
// JSON ErrorResponse with an integer code, and the connection keeps answering.
import assert from "node:assert/strict";
import { test } from "node:test";
import { arrowStream } from "../helpers/arrow.js";
import { RawConnection, errorBodyOf } from "../helpers/raw-http.js";
import { expectJson, startTestServer } from "../helpers/test-server.js";

// FUZZ_SEED replays another sequence; the default is the one CI runs.
const seed = Number(process.env.FUZZ_SEED ?? 20261124);
const requestCount = 1200;
const connectionCount = 4;

/** mulberry32: a small deterministic generator, so a failure replays exactly. */
function generator(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = ReturnType<typeof generator>;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const bytes = (random: Random, length: number): Buffer => Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));

const validIds = ["t", "ns$t", "ns", "missing", "ns$missing"];
const malformedIds = ["%ZZ", "%", "%C3%28", "%00", "..", "$", "$$", "t$", "$t", "ns$$t", "%2F..%2F..", "x".repeat(3000), "%E2%82", "t%20x", "%FF%FE"];
const malformedQueries = ["", "", "", "?mode=bogus", "?delimiter=%ZZ", "?delimiter=", "?properties=%7Bbad", "?version=abc", "?k=-1&mode=%00", "?storage_options=%5B1%5D"];

const validStream = Buffer.from(arrowStream({ id: Int32Array.from([1, 2, 3]) }));
const lz4Stream = Buffer.from(arrowStream({ id: Int32Array.from([1, 2, 3]) }, { lz4: true }));

interface Body {
  label: string;
  bytes: Buffer;
  contentType?: string;
}

const arrowType = "application/vnd.apache.arrow.stream";
const jsonType = "application/json";

function malformedJson(random: Random): Body {
  const cases: [string, () => string][] = [
    ["truncated JSON", () => '{"id": ["t"], "version":'],
    ["an open brace", () => "{"],
    ["deeply nested arrays", () => "[".repeat(20000) + "]".repeat(20000)],
    ["an overflowing number", () => '{"version": 1e400, "k": 1e400}'],
    ["a prototype key", () => '{"__proto__": {"polluted": true}, "constructor": {"prototype": {}}}'],
    ["wrong field types", () => JSON.stringify({ id: 5, version: "x", k: "many", mode: 3, name: [], updates: "x", predicate: 1, vector: { single_vector: ["a"] } })],
    ["a bare string", () => '"text"'],
    ["a bare number", () => "123"],
    ["an array", () => "[1, 2]"],
    ["unpaired surrogates", () => '{"id": ["\\ud800"], "filter": "\\udfff"}'],
    ["trailing garbage", () => '{} {"a": 1}'],
    ["a byte-order mark", () => "\ufeff{}"],
    ["random text", () => bytes(random, 1 + Math.floor(random() * 120)).toString("latin1")],
  ];
  const [label, make] = pick(random, cases);
  return { label, bytes: Buffer.from(make(), label === "random text" ? "latin1" : "utf8"), contentType: pick(random, [jsonType, jsonType, undefined, "text/plain"]) };
}

function malformedArrow(random: Random): Body {
  const cases: [string, () => Buffer][] = [
    ["random bytes", () => bytes(random, 1 + Math.floor(random() * 300))],
    ["a truncated stream", () => validStream.subarray(0, 1 + Math.floor(random() * (validStream.length - 9)))],
    ["a truncated LZ4 stream", () => lz4Stream.subarray(0, 1 + Math.floor(random() * (lz4Stream.length - 9)))],
    ["a negative metadata length", () => Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff, 0xf0, 0xff, 0xff, 0xff]), bytes(random, 200_000)])],
    ["a corrupt message after the schema", () => Buffer.concat([validStream.subarray(0, validStream.length - 8), Buffer.from([0xff, 0xff, 0xff, 0xff, 0x40, 0, 0, 0]), bytes(random, 64)])],
    ["a stream with flipped bytes", () => flipBytes(random, validStream)],
    ["an Arrow file instead of a stream", () => Buffer.concat([Buffer.from("ARROW1\0\0"), validStream, Buffer.from("ARROW1")])],
    ["an empty body", () => Buffer.alloc(0)],
    ["JSON", () => Buffer.from('{"id": ["t"]}')],
  ];
  const [label, make] = pick(random, cases);
  return { label, bytes: make(), contentType: pick(random, [arrowType, arrowType, undefined, jsonType]) };
}

function flipBytes(random: Random, source: Buffer): Buffer {
  const copy = Buffer.from(source);
  for (let i = 0; i < 4; i += 1) copy[Math.floor(random() * copy.length)] = Math.floor(random() * 256);
  return copy;
}

interface Route {
  method: "GET" | "POST";
  template: string;
  arrow: boolean;
}

interface FuzzRequest {
  method: string;
  path: string;
  body?: Body;
}

/** One malformed request: a valid route with a broken body, or a broken path with a plausible one. */
function fuzzRequest(random: Random, routes: Route[]): FuzzRequest {
  const route = pick(random, routes);
  const breakPath = route.method === "GET" || random() < 0.35;
  const fill = (): string => (breakPath && random() < 0.7 ? pick(random, malformedIds) : pick(random, validIds));
  let path = route.template.replace(/\{[a-z_]+\}/g, fill);
  if (breakPath) {
    path = pick(random, [
      (p: string) => p,
      (p: string) => `${p}/`,
      (p: string) => `${p}/extra`,
      (p: string) => p.replace(/\/v1\//, "/v1//"),
      (p: string) => p.replace(/\/([a-z_]+)$/, (_m, last: string) => `/${last.toUpperCase()}`),
      (p: string) => p.replace(/\/[^/]+\/([a-z_-]+)$/, "//$1"),
    ])(path);
  }
  path += pick(random, malformedQueries);
  if (route.method === "GET") return { method: "GET", path };
  const body = breakPath ? { label: "an empty object", bytes: Buffer.from("{}"), contentType: jsonType } : route.arrow ? malformedArrow(random) : random() < 0.85 ? malformedJson(random) : malformedArrow(random);
  return { method: "POST", path, body };
}

test(`fuzzing every operation (seed ${seed}): never a 5xx, always an ErrorResponse, the connection keeps answering`, async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/ns/create", {}));
  await expectJson(await server.upload("/v1/table/ns$t/create", arrowStream({ id: Int32Array.from([1, 2]) })));
  await expectJson(await server.upload("/v1/table/t/create", arrowStream({ id: Int32Array.from([1, 2]) })));

  const doc = await expectJson(await server.get("/openapi.json"));
  const routes: Route[] = [];
  for (const [template, operations] of Object.entries(doc.paths as Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>)) {
    for (const [method, operation] of Object.entries(operations)) {
      const arrow = Object.keys(operation.requestBody?.content ?? {}).some((type) => type.includes("arrow"));
      routes.push({ method: method.toUpperCase() as Route["method"], template, arrow });
    }
  }
  assert.ok(routes.length > 50, `${routes.length} routes documented`);

  const random = generator(seed);
  const requests = Array.from({ length: requestCount }, () => fuzzRequest(random, routes));
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  const started = Date.now();

  await Promise.all(
    Array.from({ length: connectionCount }, async (_, lane) => {
      let connection = await RawConnection.open(server.url);
      for (let i = lane; i < requests.length; i += connectionCount) {
        const { method, path, body } = requests[i] as FuzzRequest;
        const label = `#${i} ${method} ${path.slice(0, 120)}${body ? ` with ${body.label} (${body.contentType ?? "no content type"})` : ""}`;
        connection.request(method, path, { headers: body?.contentType ? { "content-type": body.contentType } : {}, body: body?.bytes });
        try {
          const response = await connection.response(10_000);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status >= 500) failures.push(`${label} → ${response.status}: ${response.body.toString().slice(0, 200)}`);
          else if (response.status >= 400) errorBodyOf(response);
          if (response.headers.connection === "close") failures.push(`${label} → ${response.status} closed the connection`);
        } catch (error) {
          failures.push(`${label} → ${(error as Error).message}`);
        }
        // Later requests are judged on their own: a closed or broken connection is replaced.
        if (failures.length > 0 || connection.closed) {
          connection.close();
          connection = await RawConnection.open(server.url);
        }
      }
      connection.request("GET", "/health");
      const last = await connection.response();
      if (last.status !== 200) failures.push(`lane ${lane}: the connection no longer answers: ${last.status}`);
      connection.close();
    }),
  );
  const tally = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(" ");
  t.diagnostic(`${requests.length} requests over ${connectionCount} connections in ${Date.now() - started} ms: ${tally}`);
  assert.deepEqual(failures, []);
});
