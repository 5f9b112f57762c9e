// A client's mistake never produces a 5xx: every documented operation is sent malformed bodies
// and identifiers, and must answer a JSON ErrorResponse with a 4xx status (or succeed).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Dictionary, Int32, Table, Utf8, tableToIPC, vectorFromArray } from "apache-arrow";
import { arrowStream } from "../helpers/arrow.js";
import { expectJson, startTestServer } from "../helpers/test-server.js";

const bodies: [string, string | Uint8Array, string | undefined][] = [
  ["no body", "", undefined],
  ["null", "null", "application/json"],
  ["an array", "[1,2]", "application/json"],
  ["a string", '"text"', "application/json"],
  ["broken JSON", '{"a":', "application/json"],
  ["wrong field types", JSON.stringify({ id: 5, version: "x", k: "many", mode: 3, tag: 7, name: [], updates: "x", predicate: 1 }), "application/json"],
  ["negative numbers", JSON.stringify({ version: -5, k: -1, limit: -2, start_version: -9 }), "application/json"],
  ["binary garbage", new Uint8Array([0xff, 0xff, 0xff, 0xff, 1, 2, 3]), "application/vnd.apache.arrow.stream"],
];

const ids = ["t", "ns$t", "$", "..", "a%00b", "x".repeat(300)];

test("malformed requests to every operation answer 4xx with an ErrorResponse, never 5xx", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/ns/create", {}));
  await expectJson(await server.upload("/v1/table/ns$t/create", arrowStream({ id: Int32Array.from([1, 2]) })));
  await expectJson(await server.upload("/v1/table/t/create", arrowStream({ id: Int32Array.from([1, 2]) })));

  const doc = await expectJson(await server.get("/openapi.json"));
  const failures: string[] = [];
  let requests = 0;
  for (const [template, methods] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(methods)) {
      for (const id of template.includes("{") ? ids : [""]) {
        const path = template.replace(/\{id\}|\{transaction_id\}|\{table_name\}|\{job_id\}/g, id).replace(/\{index_name\}/g, "idx");
        for (const [label, body, type] of method === "get" ? [bodies[0] as (typeof bodies)[number]] : bodies) {
          requests += 1;
          const response = await fetch(server.url + path, {
            method: method.toUpperCase(),
            headers: type ? { "content-type": type } : {},
            body: method === "get" || body === "" ? undefined : body,
          });
          const text = await response.text();
          if (response.status >= 500) failures.push(`${method.toUpperCase()} ${path} with ${label} → ${response.status}: ${text.slice(0, 200)}`);
          else if (response.status >= 400) {
            try {
              assert.equal(typeof JSON.parse(text).code, "number");
            } catch {
              failures.push(`${method.toUpperCase()} ${path} with ${label} → ${response.status} without an ErrorResponse: ${text.slice(0, 200)}`);
            }
          }
        }
      }
    }
  }
  assert.ok(requests > 500, `sent ${requests} requests`);
  assert.deepEqual(failures, []);
});

test("an upload with a dictionary column, each word corrupted in turn → 200 or 400 code 13, never a 5xx", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  // Such a stream is decoded and written anew before the engine reads it, so a corrupted null
  // count, offset or dictionary must be refused here: the engine's reader would abort on it.
  const color = vectorFromArray(["red", "green", "blue", "red", "blue", "green"], new Dictionary(new Utf8(), new Int32()));
  const stream = Buffer.from(tableToIPC(new Table({ id: vectorFromArray([1, 2, 3, 4, 5, 6], new Int32()), color }), "stream"));
  const failures: string[] = [];
  const refusals: string[] = [];
  const created: string[] = [];
  for (let offset = 0; offset + 4 <= stream.length; offset += 4) {
    const corrupt = Buffer.from(stream);
    corrupt.writeInt32LE(7, offset);
    const response = await server.upload(`/v1/table/w${offset}/create`, corrupt);
    const body = await response.text();
    const refusal = response.status === 400 ? (JSON.parse(body) as { code: number; error: string }) : undefined;
    if (refusal?.code === 13) refusals.push(refusal.error);
    else if (response.status === 200) created.push(`w${offset}`);
    else failures.push(`word at ${offset}: ${response.status} ${body}`);
  }
  assert.deepEqual(failures, []);
  // The checks of what the reader decoded are among the refusals: a corrupted null count, and a dictionary of type null.
  assert.ok(refusals.some((error) => /claims \d+ nulls/.test(error)), refusals.join("\n"));
  assert.ok(refusals.some((error) => /dictionary of type null/.test(error)), refusals.join("\n"));
  // A refused create leaves no table behind.
  const listed = await expectJson(await server.get("/v1/namespace/%24/table/list?limit=1000"));
  assert.deepEqual([...listed.tables].sort(), created.sort());
});
