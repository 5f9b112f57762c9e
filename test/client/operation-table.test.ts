/**
 * The client's operations kept in step with the server and the catalog: every Lance Namespace
 * route the server documents has a client entry with the same path and methods, and every client
 * entry names a `Catalog` method that `dir` can call.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Catalog } from "../../src/catalog/catalog.js";
import { operations } from "../../src/client/index.js";
import { type OperationEntry, operationIdOf, operations as allOperations } from "../../src/model/operations/index.js";
import { startTestServer } from "../helpers/test-server.js";

/** Routes outside the Lance Namespace API: the deployment's admin, token, job, extended and capability routes. */
const notNamespaceApi = /^\/(oauth\/|v1\/admin\/|v1\/jobs(\/|$)|v1\/tables(\/|$)|v1\/capabilities$)/;

const camelCase = (operationId: string) => operationId[0]!.toLowerCase() + operationId.slice(1);

test("every namespace route in the server's OpenAPI document has a client entry with its path and methods", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };

  // Each method of an operation is documented under its own operationId (`operationIdOf`).
  const served = new Map<string, { path: string; method: string }>();
  for (const [path, item] of Object.entries(document.paths)) {
    if (notNamespaceApi.test(path)) continue;
    for (const [method, operation] of Object.entries(item)) served.set(operation.operationId, { path, method: method.toUpperCase() });
  }
  assert.ok(served.size >= 50, `the document lists the namespace routes (${served.size})`);

  const byDocumentedId = new Map<string, { entry: OperationEntry; method: string }>(
    Object.values(operations).flatMap((entry) => entry.methods.map((method) => [operationIdOf(entry, method), { entry, method }] as const)),
  );
  for (const [operationId, route] of served) {
    const documented = byDocumentedId.get(operationId);
    assert.ok(documented, `${operationId} has a client entry`);
    assert.equal(documented.entry.path, route.path, `${operationId} path`);
    assert.equal(documented.method, route.method, `${operationId} method`);
  }
  assert.deepEqual([...byDocumentedId.keys()].filter((operationId) => !served.has(operationId)), [], "no entry without a route");
});

test("every entry is keyed by its operation name in camelCase; every client entry's is a Catalog method", () => {
  for (const [name, entry] of Object.entries(allOperations)) assert.equal(name, camelCase(entry.operationId));
  for (const name of Object.keys(operations)) {
    assert.equal(typeof (Catalog.prototype as unknown as Record<string, unknown>)[name], "function", `Catalog.${name}`);
  }
});
