// Client mistakes and races that once produced wrong answers: each must answer its spec code and
// keep the table as it was.
import assert from "node:assert/strict";
import { test } from "node:test";
import { arrowStream, readArrow } from "../helpers/arrow.js";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";

test("row operations refuse what the engine cannot do exactly, with 400 code 13", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.upload("/v1/table/t/create", arrowStream({ id: Int32Array.from([1, 2, 3, 4]) })));

  const all = await server.post("/v1/table/t/query", { k: 4294967296, vector: null });
  assert.equal((await readArrow(all)).numRows, 4, "a k beyond 32 bits means no limit, not zero rows");
  await expectError(await server.post("/v1/table/t/query", { k: 10, vector: null, offset: 4294967296 }), 400, 13);
  await expectError(await server.post("/v1/table/t/query", { k: 10, vector: null, filter: "id / 0 > 1" }), 400, 13);
  await expectError(await server.post("/v1/table/t/count_rows", { predicate: "id / 0 > 1" }), 400, 13);
  await expectError(await server.post("/v1/table/t/update", { updates: [["id", "id / 0"]] }), 400, 13);
  await expectError(await server.post("/v1/table/t/query", { k: 1, vector: { single_vector: [1] }, distance_type: "bogus" }), 400, 13);
  await expectError(await server.post("/v1/table/t/add_columns", { new_columns: [{ name: "x.y", expression: "1" }] }), 400, 13);
  assert.equal(await expectJson(await server.post("/v1/table/t/count_rows", {})), 4);
  assert.equal((await expectJson(await server.post("/v1/table/t/describe", {}))).version, 1, "no refused request committed a version");
});

test("UpdateTable properties from concurrent callers are all kept", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.upload("/v1/table/t/create", arrowStream({ id: Int32Array.from([1]) })));
  const callers = Array.from({ length: 8 }, (_, i) => server.post("/v1/table/t/update", { updates: [["id", "id + 1"]], properties: { [`p${i}`]: "x" } }));
  for (const response of await Promise.all(callers)) await expectJson(response);
  const described = await expectJson(await server.post("/v1/table/t/describe", {}));
  assert.deepEqual(Object.keys(described.properties).sort(), ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"]);
});

test("versions beyond exact JSON numbers are refused; a branch another branch forks from cannot be deleted (19)", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.upload("/v1/table/t/create", arrowStream({ id: Int32Array.from([1]) })));
  await expectError(await server.post("/v1/table/t/describe", { version: 9007199254740993 }), 400, 13);
  await expectJson(await server.post("/v1/table/t/branches/create", { name: "b1" }));
  await expectJson(await server.post("/v1/table/t/branches/create", { name: "b2", from_branch: "b1" }));
  await expectError(await server.post("/v1/table/t/branches/delete", { name: "b1" }), 409, 19);
  const branches = await expectJson(await server.post("/v1/table/t/branches/list"));
  assert.deepEqual(Object.keys(branches.branches).sort(), ["b1", "b2"]);
});

test("a malformed Basic credential at the token endpoint → 401, code 16", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const response = await fetch(`${server.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("a%zz:b").toString("base64")}` },
    body: "grant_type=client_credentials",
  });
  assert.equal(response.status, 401);
  assert.equal(((await response.json()) as { code: number }).code, 16);
});

test("AlterTableAddColumns whose computed column fails → 400, and the expression columns beside it are undone", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.upload("/v1/table/t/create", arrowStream({ id: Int32Array.from([1, 2]) })));
  await expectError(
    await server.post("/v1/table/t/add_columns", { new_columns: [{ name: "a1", expression: "1" }, { name: "c1", computed: "nosuch + 1" }] }),
    400,
    13,
  );
  const described = await expectJson(await server.post("/v1/table/t/describe", {}));
  assert.deepEqual(described.schema.fields.map((f: { name: string }) => f.name), ["id"]);
});
