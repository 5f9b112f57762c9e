// What real clients send and expect on the wire (trailing slashes, bodies without a content
// type, ids with custom delimiters), the service routes, and the shape of every error.
import assert from "node:assert/strict";
import { test } from "node:test";
import { arrowStream } from "../helpers/arrow.js";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";

test("HTTP compatibility", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.upload("/v1/table/t1/create", arrowStream({ a: Int32Array.from([1]) })));

  await t.test("trailing slashes reach the same operation", async () => {
    const body = await expectJson(await server.post("/v1/table/t1/describe/", {}));
    assert.equal(body.version, 1);
    assert.deepEqual((await expectJson(await server.get("/v1/table/"))).tables, ["t1"]);
  });

  await t.test("POST without body or content type is accepted on JSON routes", async () => {
    const response = await fetch(`${server.url}/v1/table/t1/describe/`, { method: "POST" });
    assert.equal((await expectJson(response)).version, 1);
  });

  await t.test("a JSON body `null`, and a JSON body sent without content type, are accepted", async () => {
    const nullBody = await fetch(`${server.url}/v1/table/t1/describe`, { method: "POST", body: "null", headers: { "content-type": "application/json" } });
    assert.equal((await expectJson(nullBody)).version, 1);
    const bare = await fetch(`${server.url}/v1/table/t1/describe`, { method: "POST", body: JSON.stringify({ version: 1 }) });
    assert.equal((await expectJson(bare)).version, 1);
  });

  await t.test("malformed JSON → 400, code 13, naming the problem", async () => {
    const response = await fetch(`${server.url}/v1/table/t1/describe`, { method: "POST", body: "{oops", headers: { "content-type": "application/json" } });
    const body = await expectError(response, 400, 13);
    assert.match(body.error, /not valid JSON/);
  });

  await t.test("a field of the wrong type → 400, code 13, naming the field", async () => {
    const body = await expectError(await server.post("/v1/table/t1/describe", { version: "one" }), 400, 13);
    assert.match(body.error, /version/);
  });

  await t.test("an unknown operation → 406, code 0", async () => {
    await expectError(await server.post("/v1/table/t1/teleport", {}), 406, 0);
  });

  await t.test("a permanent conflict on a trailing-slash route is 400 (LanceDB Cloud retries 409s)", async () => {
    const body = await expectError(await server.upload("/v1/table/t1/create/", arrowStream({ a: Int32Array.from([1]) })), 400, 5);
    assert.match(body.error, /already exists/);
    await expectError(await server.upload("/v1/table/t1/create", arrowStream({ a: Int32Array.from([1]) })), 409, 5);
  });

  await t.test("the root under the delimiter '.' survives URL dot-segment removal", async () => {
    await expectJson(await server.post("/v1/namespace/n1/create", {}));
    assert.deepEqual((await expectJson(await server.get("/v1/namespace/list?delimiter=."))).namespaces, ["n1"]);
    assert.deepEqual((await expectJson(await server.get("/v1/namespace/table/list?delimiter=."))).tables, ["t1"]);
  });

  await t.test("the service description's connection check: list /v1/tables, create via /v1/tables/{name}, list again", async () => {
    const before = await expectJson(await server.get("/v1/tables"));
    assert.ok(!before.tables.includes("checked"));
    await expectJson(await server.upload("/v1/tables/checked", arrowStream({ ok: Int32Array.from([1]) })));
    const after = await expectJson(await server.get("/v1/tables"));
    assert.ok(after.tables.includes("checked"));
  });

  await t.test("every response carries x-request-id, echoing the client's", async () => {
    const response = await server.get("/health", { "x-request-id": "trace-123" });
    assert.equal(response.headers.get("x-request-id"), "trace-123");
    assert.ok((await server.get("/health")).headers.get("x-request-id"));
  });

  await t.test("/openapi.json documents the served operations with their operationIds", async () => {
    const doc = await expectJson(await server.get("/openapi.json"));
    assert.equal(doc.openapi, "3.1.0");
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) => Object.values(p).map((o) => o.operationId));
    for (const id of ["CreateNamespace", "ListNamespaces", "DescribeTable", "CreateTable", "ListAllTables", "RenameTable"]) assert.ok(ids.includes(id), id);
    assert.ok(doc.components.schemas.CreateNamespaceRequest);
    assert.equal(doc.paths["/v1/namespace/{id}/create"].post.operationId, "CreateNamespace");
  });
});
