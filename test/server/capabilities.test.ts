import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { operations } from "../../src/model/operations/index.js";
import { unsupportedRoutes } from "../../src/model/unsupported-routes.js";
import { jsonBodyLimit } from "../../src/server/body-parsing.js";
import { addDatabase, apiKey, startAuthServer } from "../auth/auth-helpers.js";
import { testBackend } from "../helpers/test-backend.js";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";

const packageVersion = (JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }).version;
const tableOperationIds = Object.values(operations).map((entry) => entry.operationId);
/** The object stores the server under test has configured: its data location's. */
const configuredStores = testBackend === "azure" ? ["az"] : [];

test("GetCapabilities on a default server → 200: version, every operation of the table, features, limits, storage and database", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const document = await expectJson(await server.get("/v1/capabilities"));
  assert.equal(document.server, "quiver");
  assert.equal(document.version, packageVersion);
  assert.deepEqual(document.operations, tableOperationIds);
  assert.ok(document.operations.includes("QueryTable"));
  assert.deepEqual(document.auth, { mode: "none" });
  assert.deepEqual(document.features, { order_by: true, vectorless_queries: true, multipart_writes: true, async_jobs: true, worker_pools: ["default"], change_events: true, tracing: false });
  assert.equal(document.limits.max_json_body_bytes, jsonBodyLimit);
  assert.equal(document.limits.max_name_length, 256);
  assert.equal(document.limits.max_identifier_length, 4096);
  assert.equal(document.limits.max_upload_bytes, 1024 ** 3, "the default --max-upload-size");
  assert.equal(document.limits.name_pattern, "^[A-Za-z0-9_.-]+$");
  assert.deepEqual(document.storage, { credential_vending: "scoped", credential_ttl_seconds: 3600, object_stores: configuredStores });
  assert.deepEqual(document.database, { name: "default", managed_versioning: false });
  assert.deepEqual(
    document.unsupported.map((route: { path: string }) => route.path),
    unsupportedRoutes.map((route) => route.path),
  );
});

test("GetCapabilities reflects managed versioning, static vending with its lifetime and the worker pools the server runs with → 200", async (t) => {
  const server = await startTestServer({ managedVersioning: true, vending: { mode: "static", ttlSeconds: 600 }, jobs: { pools: ["default", "gpu"] } });
  t.after(() => server.close());
  const document = await expectJson(await server.get("/v1/capabilities"));
  assert.deepEqual(document.database, { name: "default", managed_versioning: true });
  assert.equal(document.storage.credential_vending, "static");
  assert.equal(document.storage.credential_ttl_seconds, 600);
  assert.deepEqual(document.features.worker_pools, ["default", "gpu"]);
});

test("GetCapabilities names the database the request addresses, with that database's managed versioning → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/admin/databases", { name: "managed", managed_versioning: true }), 201);
  const document = await expectJson(await server.get("/v1/capabilities", { "x-svc-database": "managed" }));
  assert.deepEqual(document.database, { name: "managed", managed_versioning: true });
  await expectError(await server.get("/v1/capabilities", { "x-svc-database": "missing" }), 404, 1);
});

test("GetCapabilities under --auth required without credentials → 200 with the protocol facts only, no storage or database", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const document = await expectJson(await server.get("/v1/capabilities"));
  assert.equal(document.version, packageVersion);
  assert.deepEqual(document.operations, tableOperationIds);
  assert.deepEqual(document.auth, { mode: "required" });
  assert.equal(document.features.order_by, true);
  assert.equal(document.storage, undefined);
  assert.equal(document.database, undefined);
});

test("GetCapabilities under --auth required with a read key → 200 with storage and the key's own database", async (t) => {
  const server = await startAuthServer({ vending: { mode: "none", ttlSeconds: 3600 } });
  t.after(() => server.close());
  await addDatabase(server, "tenant");
  const key = await apiKey(server, "tenant", "read");
  const document = await expectJson(await server.get("/v1/capabilities", { "x-api-key": key }));
  assert.deepEqual(document.database, { name: "tenant", managed_versioning: false });
  assert.equal(document.storage.credential_vending, "none");
});

test("GetCapabilities with a wrong key → 401, code 16; naming a database the key cannot read → 403, code 15", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  await addDatabase(server, "tenant");
  await addDatabase(server, "other");
  await expectError(await server.get("/v1/capabilities", { "x-api-key": "not-a-key" }), 401, 16);
  const key = await apiKey(server, "tenant", "read");
  await expectError(await server.get("/v1/capabilities", { "x-api-key": key, "x-svc-database": "other" }), 403, 15);
});

test("the OpenAPI document lists GET /v1/capabilities as GetCapabilities with its response schema", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const document = await expectJson(await server.get("/openapi.json"));
  const operation = document.paths["/v1/capabilities"]?.get;
  assert.equal(operation?.operationId, "GetCapabilities");
  assert.equal(operation.responses["200"].content["application/json"].schema.$ref, "#/components/schemas/Capabilities");
  assert.ok(document.components.schemas.Capabilities.properties.operations);
});
