import assert from "node:assert/strict";
import { test } from "node:test";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";

test("namespaces", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());

  await t.test("CreateNamespace with properties → 200, properties echoed", async () => {
    const body = await expectJson(await server.post("/v1/namespace/sales/create", { properties: { owner: "ana" } }));
    assert.deepEqual(body, { properties: { owner: "ana" } });
  });

  await t.test("CreateNamespace nested three levels deep, percent-encoded id → 200", async () => {
    await expectJson(await server.post("/v1/namespace/sales%24eu/create?delimiter=%24", { id: ["sales", "eu"] }));
    await expectJson(await server.post("/v1/namespace/sales$eu$paris/create", {}));
    const list = await expectJson(await server.get("/v1/namespace/sales$eu/list"));
    assert.deepEqual(list.namespaces, ["paris"]);
  });

  await t.test("CreateNamespace again in mode Create → 409, code 2", async () => {
    await expectError(await server.post("/v1/namespace/sales/create", { mode: "Create" }), 409, 2);
  });

  await t.test("CreateNamespace in mode ExistOk keeps the existing properties", async () => {
    const body = await expectJson(await server.post("/v1/namespace/sales/create", { mode: "exist_ok", properties: { owner: "bo" } }));
    assert.deepEqual(body.properties, { owner: "ana" });
  });

  await t.test("CreateNamespace with a quoted mode string (LanceDB Cloud client) is understood", async () => {
    const body = await expectJson(await server.post("/v1/namespace/sales/create", { mode: '"ExistOk"' }));
    assert.deepEqual(body.properties, { owner: "ana" });
  });

  await t.test("CreateNamespace under a missing parent → 404, code 1", async () => {
    await expectError(await server.post("/v1/namespace/nowhere$child/create", {}), 404, 1);
  });

  await t.test("CreateNamespace with a bad name or mode → 400, code 13", async () => {
    await expectError(await server.post("/v1/namespace/bad%20name/create", {}), 400, 13);
    await expectError(await server.post("/v1/namespace/..%2F..%2Fetc/create", {}), 400, 13);
    await expectError(await server.post("/v1/namespace/ok/create", { mode: "Sometimes" }), 400, 13);
    await expectError(await server.post("/v1/namespace/ok/create", { properties: { a: 1 } }), 400, 13);
    const listed = await expectJson(await server.get("/v1/namespace/$/list"));
    assert.ok(!listed.namespaces.includes("ok"), "nothing was created by the refused requests");
  });

  await t.test("DescribeNamespace → its properties; root → {}; missing → 404, code 1", async () => {
    assert.deepEqual(await expectJson(await server.post("/v1/namespace/sales/describe", {})), { properties: { owner: "ana" } });
    assert.deepEqual(await expectJson(await server.post("/v1/namespace/%24/describe", {})), { properties: {} });
    await expectError(await server.post("/v1/namespace/ghost/describe", {}), 404, 1);
  });

  await t.test("NamespaceExists → 200 with no body, or 404 code 1", async () => {
    const yes = await server.post("/v1/namespace/sales$eu/exists", {});
    assert.equal(yes.status, 200);
    assert.equal(await yes.text(), "");
    await expectError(await server.post("/v1/namespace/sales$us/exists", {}), 404, 1);
  });

  await t.test("ListNamespaces pages with limit and page_token", async () => {
    for (const name of ["b", "c", "d"]) await expectJson(await server.post(`/v1/namespace/${name}/create`, {}));
    const first = await expectJson(await server.get("/v1/namespace/$/list?limit=2"));
    assert.deepEqual(first.namespaces, ["b", "c"]);
    assert.ok(first.page_token);
    const second = await expectJson(await server.get(`/v1/namespace/$/list?limit=2&page_token=${encodeURIComponent(first.page_token)}`));
    assert.deepEqual(second.namespaces, ["d", "sales"]);
    assert.ok(!second.page_token, "the last page carries no token");
  });

  await t.test("ListNamespaces of a missing namespace → 404, code 1", async () => {
    await expectError(await server.get("/v1/namespace/ghost/list"), 404, 1);
  });

  await t.test("DropNamespace with children under Restrict → 409, code 3, nothing dropped", async () => {
    await expectError(await server.post("/v1/namespace/sales/drop", {}), 409, 3);
    await expectJson(await server.post("/v1/namespace/sales$eu$paris/describe", {}));
  });

  await t.test("DropNamespace with Cascade drops the whole subtree", async () => {
    const body = await expectJson(await server.post("/v1/namespace/sales/drop", { behavior: "Cascade" }));
    assert.deepEqual(body.properties, { owner: "ana" });
    await expectError(await server.post("/v1/namespace/sales$eu/describe", {}), 404, 1);
    await expectError(await server.post("/v1/namespace/sales$eu$paris/describe", {}), 404, 1);
  });

  await t.test("DropNamespace of a missing namespace → 404 code 1 in mode Fail, 200 in mode Skip", async () => {
    await expectError(await server.post("/v1/namespace/sales/drop", {}), 404, 1);
    await expectJson(await server.post("/v1/namespace/sales/drop", { mode: "Skip" }));
  });

  await t.test("DropNamespace of the root → 400, code 13", async () => {
    await expectError(await server.post("/v1/namespace/%24/drop", {}), 400, 13);
  });

  await t.test("CreateNamespace in mode Overwrite replaces properties and empties it", async () => {
    await expectJson(await server.post("/v1/namespace/b$inner/create", {}));
    const body = await expectJson(await server.post("/v1/namespace/b/create", { mode: "Overwrite", properties: { v: "2" } }));
    assert.deepEqual(body.properties, { v: "2" });
    assert.deepEqual((await expectJson(await server.get("/v1/namespace/b/list"))).namespaces, []);
  });

  await t.test("a custom delimiter splits ids", async () => {
    await expectJson(await server.post("/v1/namespace/c::x/create?delimiter=::", {}));
    assert.deepEqual((await expectJson(await server.get("/v1/namespace/c/list"))).namespaces, ["x"]);
    assert.deepEqual((await expectJson(await server.get("/v1/namespace/::/list?delimiter=::"))).namespaces, ["b", "c", "d"]);
  });

  await t.test("body id differing from the path id → 400, code 13", async () => {
    await expectError(await server.post("/v1/namespace/d/describe", { id: ["c"] }), 400, 13);
    await expectJson(await server.post("/v1/namespace/%24/describe", { id: [] }));
  });
});
