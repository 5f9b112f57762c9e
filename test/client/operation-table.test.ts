/**
 * The client's operations kept in step with the spec, the server and the catalog: every operation
 * of the spec's endpoint list (kept as data in `spec-endpoints.ts`) is in the operation table with
 * its method and path, the table holds nothing else but Quiver's listed extensions, answered by a real route of the server and exposed by the client; every
 * Lance Namespace route the server documents has a client entry with the same path and methods,
 * and every client entry names a `Catalog` method that `dir` can call.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Catalog } from "../../src/catalog/catalog.js";
import { connect, operations } from "../../src/client/index.js";
import { type OperationEntry, operationIdOf, operations as allOperations } from "../../src/model/operations/index.js";
import type { ServedOperation } from "../../src/model/operations/operation-entry.js";
import { startTestServer } from "../helpers/test-server.js";
import { specEndpoints } from "./spec-endpoints.js";

/** Routes outside the Lance Namespace API: the deployment's admin, authorization, token, job, extended, capability and change-event routes. */
const notNamespaceApi = /^\/(oauth\/|admin\/authz\/|v1\/admin\/|v1\/jobs(\/|$)|v1\/tables(\/|$)|v1\/capabilities$|v1\/events$)/;

const camelCase = (operationId: string) => operationId[0]!.toLowerCase() + operationId.slice(1);

test("every namespace route in the server's OpenAPI document has a client entry with its path and methods", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };

  // Each method of an operation is documented under its own operationId (`operationIdOf`).
  const served = new Map<string, { path: string; method: string }>();
  // Operations the client leaves to HTTP (`client: false`: the managed deployment's extras).
  const httpOnly = new Set((Object.values(allOperations) as OperationEntry[]).filter((entry) => entry.client === false).flatMap((entry) => entry.methods.map((method) => operationIdOf(entry, method))));
  for (const [path, item] of Object.entries(document.paths)) {
    if (notNamespaceApi.test(path)) continue;
    for (const [method, operation] of Object.entries(item)) if (!httpOnly.has(operation.operationId)) served.set(operation.operationId, { path, method: method.toUpperCase() });
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

/** A concrete request path for a spec path: names no object that exists, so routes answer their own errors. */
function instanceOf(specPath: string): string {
  return specPath.replaceAll("{id}", "spec_probe").replaceAll("{index_name}", "spec_probe_idx");
}

/** A path template with its parameters unnamed. */
const routeShape = (template: string) => template.replaceAll(/\{[^}]+\}/g, "{}");

test("every operation of the spec's endpoint list is in the operation table with the spec's method and path", () => {
  assert.equal(specEndpoints.length, 54, "the spec lists 54 operations");
  const byId = new Map<string, ServedOperation>(Object.values(allOperations).map((entry) => [entry.operationId, entry]));
  for (const spec of specEndpoints) {
    const entry = byId.get(spec.operation);
    assert.ok(entry, `${spec.operation} is in the operation table`);
    // Path parameters may be named differently (`{transaction_id}` for the spec's `{id}`); the route is the same.
    assert.equal(routeShape(entry.path), routeShape(spec.path), `${spec.operation} path`);
    assert.ok((entry.methods as readonly string[]).includes(spec.method), `${spec.operation} takes ${spec.method}`);
  }
});

/**
 * The operations Quiver serves beyond the spec's endpoint list, each with why it exists and the
 * document that describes it (which must name it): the table holds exactly the spec's operations
 * and these, so an operation dropped from the table or added to it unlisted fails here.
 */
const extensions: readonly { operation: string; doc: string; mention?: string; why: string }[] = [
  { operation: "CloneTable", doc: "docs/architecture.md", why: "a shallow clone reading another table's data files" },
  { operation: "ListDroppedTables", doc: "docs/undrop.md", why: "the tables a drop retention keeps, for undropping" },
  { operation: "UndropTable", doc: "docs/undrop.md", why: "brings back a table dropped under a retention" },
  { operation: "ListTablesExtended", doc: "docs/auth.md", why: "the managed deployment's `/v1/tables` listing the LanceDB Cloud client calls" },
  { operation: "CreateTableExtended", doc: "docs/auth.md", why: "the managed deployment's `/v1/tables/{table_name}` create the LanceDB Cloud client calls" },
  { operation: "CreateMultipartWrite", doc: "README.md", mention: "createMultipartWrite", why: "opens a write whose data arrives in several uploads" },
  { operation: "CompleteMultipartWrite", doc: "README.md", mention: "completeMultipartWrite", why: "commits a multipart write's uploads as one version" },
  { operation: "AbortMultipartWrite", doc: "docs/architecture.md", why: "discards a multipart write's staged uploads" },
  { operation: "PrewarmTableIndex", doc: "docs/compatibility.md", mention: "index/{name}/prewarm", why: "the LanceDB client's index prewarm" },
  { operation: "PrewarmTablePageCache", doc: "docs/compatibility.md", mention: "page_cache/prewarm", why: "the LanceDB client's page-cache prewarm, answered Unsupported" },
  { operation: "DiffTableBranch", doc: "docs/versions.md", why: "the commits one branch has that another lacks" },
  { operation: "CherryPickTableBranch", doc: "docs/versions.md", why: "applies another branch's commits onto a branch" },
  { operation: "GetJob", doc: "docs/materialized-views.md", mention: "GET /v1/jobs/{job_id}", why: "the managed deployment's job look-up" },
  { operation: "DescribeJob", doc: "docs/architecture.md", why: "a job's state, for the 202 answers of long operations" },
  { operation: "ListJobs", doc: "docs/architecture.md", why: "a database's jobs" },
  { operation: "CancelJob", doc: "docs/architecture.md", why: "stops a queued or running job" },
  { operation: "QueryJobEvents", doc: "docs/architecture.md", why: "a job's progress events" },
  { operation: "CompactTable", doc: "docs/architecture.md", why: "table maintenance: merges small data files" },
  { operation: "CleanupTableVersions", doc: "docs/architecture.md", why: "table maintenance: deletes old versions, keeping tagged ones" },
  { operation: "OptimizeTableIndices", doc: "docs/architecture.md", why: "table maintenance: brings indices up to date with new rows" },
  { operation: "SetTableMaintenanceSchedule", doc: "docs/architecture.md", why: "runs the maintenance periodically as jobs" },
  { operation: "DescribeTableMaintenanceSchedule", doc: "docs/architecture.md", why: "the schedule a table's maintenance runs on" },
  { operation: "ListTablesNeedingMaintenance", doc: "docs/maintenance.md", why: "the tables whose maintenance is due, for the console" },
  { operation: "FetchTableBlobs", doc: "docs/compatibility.md", mention: "fetch_blobs", why: "the LanceDB client's fetchBlobs: blob bytes by row id" },
  { operation: "GetTableBlobBytes", doc: "docs/compatibility.md", mention: "/bytes", why: "the LanceDB client's ranged reads of one blob" },
  { operation: "GetTableLsmWriteSpec", doc: "docs/compatibility.md", mention: "get_lsm_write_spec", why: "the LanceDB client's look at a table's LSM write spec" },
  { operation: "GetTableLsmStats", doc: "docs/compatibility.md", mention: "get_lsm_stats", why: "the LanceDB client's look at a table's LSM statistics" },
];

test("the operation table serves exactly the spec's operations and Quiver's listed extensions, each named in its document", () => {
  const served = Object.values(allOperations).map((entry) => entry.operationId).sort();
  const expected = [...specEndpoints.map((spec) => spec.operation), ...extensions.map((extension) => extension.operation)].sort();
  assert.deepEqual(served, expected);
  const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));
  for (const { operation, doc, mention } of extensions) {
    assert.ok(readFileSync(`${repositoryRoot}${doc}`, "utf8").includes(mention ?? operation), `${doc} names ${mention ?? operation}`);
  }
});

test("every operation of the spec's endpoint list, sent to the server with its method and path → answered by its route, never 405 or 'no operation'", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  for (const spec of specEndpoints) {
    const url = `${server.url}${instanceOf(spec.path)}`;
    const response = await fetch(url, spec.method === "GET" ? {} : { method: spec.method, headers: { "content-type": "application/json" }, body: "{}" });
    const text = await response.text();
    assert.notEqual(response.status, 405, `${spec.operation}: ${spec.method} ${spec.path} answered 405: ${text}`);
    const error = response.status >= 400 && text.startsWith("{") ? (JSON.parse(text) as { error?: unknown }).error : undefined;
    assert.ok(typeof error !== "string" || !/^(no operation|nothing) at /.test(error), `${spec.operation}: ${spec.method} ${spec.path} has no route: ${response.status} ${text}`);
  }
});

test("every operation of the spec's endpoint list → the client has a method for it", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const namespace = await connect("rest", { uri: server.url });
  t.after(() => namespace.close());
  for (const spec of specEndpoints) {
    assert.equal(typeof (namespace as unknown as Record<string, unknown>)[camelCase(spec.operation)], "function", `client method ${camelCase(spec.operation)}`);
  }
});
