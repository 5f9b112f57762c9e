/** `capabilities()`: the server's document over `rest`, the in-process catalog's over `dir`. */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { test } from "node:test";
import { type Capabilities, connect, operations } from "../../src/client/index.js";
import { jsonBodyLimit } from "../../src/server/body-parsing.js";
import { startAuthServer, apiKey } from "../auth/auth-helpers.js";
import { startTestServer, tempRoot } from "../helpers/test-server.js";
import { rejectsWith } from "./client-fixtures.js";

test("capabilities() over rest answers the server's document: its version, operations and managed versioning", async (t) => {
  const server = await startTestServer({ managedVersioning: true, vending: { mode: "static", ttlSeconds: 900 } });
  const ns = await connect("rest", { uri: server.url });
  t.after(async () => {
    await ns.close();
    await server.close();
  });
  const served = (await (await server.get("/v1/capabilities")).json()) as Capabilities;
  const document = await ns.capabilities();
  assert.deepEqual(document, served);
  assert.ok(document.operations.includes("QueryTable"));
  assert.deepEqual(document.database, { name: "default", managed_versioning: true });
  assert.equal(document.storage?.credential_vending, "static");
  assert.equal(document.limits.max_json_body_bytes, jsonBodyLimit);
});

test("capabilities() over dir answers the same document from the in-process catalog: every client operation, no wire limits, no change-event feed", async (t) => {
  const root = tempRoot("quiver-client-dir-");
  const ns = await connect("dir", { root });
  t.after(async () => {
    await ns.close();
    rmSync(root, { recursive: true, force: true });
  });
  const server = await startTestServer();
  t.after(() => server.close());
  const served = (await (await server.get("/v1/capabilities")).json()) as Capabilities;
  const document = await ns.capabilities();
  assert.deepEqual(document.operations, Object.values(operations).map((entry) => entry.operationId));
  assert.equal(document.version, served.version);
  // Change events are read over HTTP (`GET /v1/events`); in-process there is no feed to read.
  assert.equal(document.features.change_events, false);
  assert.deepEqual({ ...document.features, change_events: served.features.change_events }, served.features);
  assert.deepEqual(document.auth, { mode: "none" });
  assert.deepEqual(document.database, { name: "default", managed_versioning: false });
  assert.equal(document.limits.max_json_body_bytes, null);
  assert.equal(document.limits.max_name_length, served.limits.max_name_length);
  assert.deepEqual(document.unsupported, served.unsupported);
});

test("capabilities() over rest sends the connection's credentials: a wrong key → code 16, a good one sees its database", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const wrong = await connect("rest", { uri: server.url, "headers.x-api-key": "wrong" });
  await rejectsWith(wrong.capabilities(), "Unauthenticated");
  const key = await apiKey(server, null, "read");
  const right = await connect("rest", { uri: server.url, "headers.x-api-key": key });
  assert.deepEqual((await right.capabilities()).database, { name: "default", managed_versioning: false });
});

test("capabilities() over rest against an unreachable server → code 17", async () => {
  const ns = await connect("rest", { uri: "http://127.0.0.1:1" });
  await rejectsWith(ns.capabilities(), "ServiceUnavailable");
});
