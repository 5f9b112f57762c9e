import assert from "node:assert/strict";
import { test } from "node:test";
import { type OperationEntry, operations } from "../../src/model/operations/index.js";
import { unsupportedRoutes } from "../../src/model/unsupported-routes.js";
import { expectError, startTestServer } from "../helpers/test-server.js";

/** The routes the LanceDB 0.39 client sends that Quiver does not serve, as the client writes them, and a word of the feature the answer must name. */
const clientRoutes: { method: "GET" | "POST"; path: string; names: RegExp }[] = [
  { method: "POST", path: "/v1/table/t/set_lsm_write_spec/", names: /LSM .*Enterprise/ },
  { method: "POST", path: "/v1/table/t/unset_lsm_write_spec/", names: /LSM .*Enterprise/ },
  { method: "POST", path: "/v1/table/t/flush_lsm/", names: /LSM .*Enterprise/ },
  { method: "POST", path: "/v1/table/t/compact_lsm/", names: /LSM .*Enterprise/ },
  { method: "POST", path: "/v1/functions/create", names: /functions .*Enterprise/ },
  { method: "POST", path: "/v1/functions/get", names: /functions .*Enterprise/ },
  { method: "POST", path: "/v1/function/embed_text/create", names: /functions .*Enterprise/ },
  { method: "POST", path: "/v1/function/embed_text/describe", names: /functions .*Enterprise/ },
  { method: "POST", path: "/v1/function/embed_text/drop", names: /functions .*Enterprise/ },
  { method: "GET", path: "/v1/namespace/team/function/list", names: /functions .*Enterprise/ },
];

test("client routes Quiver does not serve → 406, code 0, naming the feature", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  for (const route of clientRoutes) {
    const response = await fetch(server.url + route.path, {
      method: route.method,
      headers: route.method === "POST" ? { "content-type": "application/json" } : {},
      body: route.method === "POST" ? "{}" : undefined,
    });
    const body = await expectError(response, 406, 0);
    assert.match(body.error, route.names, `${route.method} ${route.path}`);
    assert.doesNotMatch(body.error, /no operation/);
  }
  // Every entry of the table is exercised above.
  assert.equal(clientRoutes.length, unsupportedRoutes.length);
});

test("no route listed as unsupported is also served by an operation", () => {
  const entries: OperationEntry[] = Object.values(operations);
  const served = new Set(entries.flatMap((entry) => [entry.path, ...(entry.aliases ?? [])]));
  for (const route of unsupportedRoutes) assert.ok(!served.has(route.path), `${route.path} is served; remove it from the unsupported routes`);
});

test("the other misses keep their answers: a served route asked with another method → 405 with Allow; an unknown table operation → 406 'no operation'; outside every resource → 404", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const wrongMethod = await fetch(`${server.url}/v1/table/t/describe`, { method: "GET" });
  assert.equal(wrongMethod.headers.get("allow"), "POST");
  await expectError(wrongMethod, 405, 0);
  const unknown = await expectError(await server.post("/v1/table/t/no_such_operation", {}), 406, 0);
  assert.match(unknown.error, /no operation at POST/);
  await expectError(await server.post("/v2/anything", {}), 404, 0);
});
