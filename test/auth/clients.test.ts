/**
 * Real clients against an auth-required Quiver: the service description's connection check over plain HTTP,
 * and the LanceDB client in mode B (`db://NAME` with an API key) and mode A (REST namespace
 * with an `x-api-key` header).
 */
import assert from "node:assert/strict";
import test from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { arrowStream } from "../helpers/arrow.js";
import { expectError, expectJson } from "../helpers/test-server.js";
import { addDatabase, apiKey, startAuthServer } from "./auth-helpers.js";

test("Connection check (service description: Authentication §6) with x-api-key and x-svc-database: list, create, list again → the table appears", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  await addDatabase(server, "demo");
  const key = await apiKey(server, "demo", "write");
  const headers = { "x-api-key": key, "x-svc-database": "demo" };

  const before = await expectJson<{ tables: string[] }>(await server.get("/v1/tables", headers));
  assert.deepEqual(before.tables, []);
  const created = await fetch(`${server.url}/v1/tables/connection_check`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/vnd.apache.arrow.stream" },
    body: arrowStream({ id: Int32Array.from([1, 2]) }, { lz4: true }),
  });
  await expectJson(created);
  const after = await expectJson<{ tables: string[] }>(await server.get("/v1/tables", headers));
  assert.deepEqual(after.tables, ["connection_check"]);
  // The same sequence without the key is refused before anything is written.
  await expectError(await server.get("/v1/tables", { "x-svc-database": "demo" }), 401, 16);
  const defaultKey = await apiKey(server, "default", "read");
  assert.deepEqual((await expectJson<{ tables: string[] }>(await server.get("/v1/tables", { "x-api-key": defaultKey }))).tables, []);
});

test("LanceDB client mode B (db://demo, apiKey) against auth-required Quiver → creates, lists and opens; a wrong key and a read key are refused", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  await addDatabase(server, "demo");
  const key = await apiKey(server, "demo", "write");

  const db = await lancedb.connect("db://demo", { apiKey: key, hostOverride: server.url });
  await db.createTable("people", [{ id: 1, name: "ada" }, { id: 2, name: "grace" }]);
  assert.deepEqual(await db.tableNames(), ["people"]);
  const table = await db.openTable("people");
  assert.equal(table.name, "people");

  const wrong = await lancedb.connect("db://demo", { apiKey: "qk_0000000000000000_not-a-key", hostOverride: server.url });
  await assert.rejects(wrong.tableNames(), /401|nauthenticated|not valid/);

  const reader = await lancedb.connect("db://demo", { apiKey: await apiKey(server, "demo", "read"), hostOverride: server.url });
  assert.deepEqual(await reader.tableNames(), ["people"]);
  await assert.rejects(reader.createTable("planted", [{ id: 1 }]), /403|ermission|role/);
  assert.deepEqual(await db.tableNames(), ["people"]);
});

test("LanceDB client mode A (REST namespace, x-api-key header) against auth-required Quiver → creates and lists in the key's own database", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  await addDatabase(server, "team");
  const key = await apiKey(server, "team", "write");

  const db = await lancedb.connectNamespace("rest", { uri: server.url, headers: { "x-api-key": key } });
  await db.createTable("events", [{ id: 1, kind: "click" }]);
  assert.deepEqual(await db.tableNames(), ["events"]);

  // Without the header, the same client is refused; the table went to "team", not "default".
  const anonymous = await lancedb.connectNamespace("rest", { uri: server.url });
  await assert.rejects(anonymous.tableNames());
  const listed = await expectJson<{ tables: string[] }>(await server.get("/v1/tables", { "x-api-key": key }));
  assert.deepEqual(listed.tables, ["events"]);
  const defaultKey = await apiKey(server, "default", "read");
  assert.deepEqual((await expectJson<{ tables: string[] }>(await server.get("/v1/tables", { "x-api-key": defaultKey }))).tables, []);
});
