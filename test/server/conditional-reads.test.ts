// DescribeTable and DescribeNamespace answer an ETag; a client that sends it back in
// If-None-Match gets 304 with no body while nothing it depends on changed, and the full answer
// with a new tag once something did.
import assert from "node:assert/strict";
import { test } from "node:test";
import { arrowStream } from "../helpers/arrow.js";
import { type TestServer, expectError, expectJson, startTestServer } from "../helpers/test-server.js";

const rows = (ids: number[]) => arrowStream({ id: Int32Array.from(ids) });

/** A describe, with an If-None-Match when `tag` is given. */
function describe(server: TestServer, route: string, tag?: string, body: unknown = {}): Promise<Response> {
  return server.post(route, body, tag === undefined ? {} : { "if-none-match": tag });
}

/** The tag of a 200 answer, which must have one. */
async function taggedAnswer(response: Response): Promise<{ tag: string; body: any }> {
  const body = await expectJson(response);
  const tag = response.headers.get("etag");
  assert.ok(tag, "the answer has an ETag");
  assert.match(tag, /^"[^"]+"$/, "a strong tag");
  return { tag, body };
}

async function assertNotModified(response: Response, tag: string): Promise<void> {
  assert.equal(response.status, 304);
  assert.equal(await response.text(), "", "a 304 has no body");
  assert.equal(response.headers.get("etag"), tag);
}

test("conditional DescribeTable", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/shop/create", {}));
  await expectJson(await server.upload("/v1/table/shop$orders/create?properties=%7B%22team%22%3A%22eng%22%7D", rows([1, 2])));
  const route = "/v1/table/shop$orders/describe";

  await t.test("DescribeTable twice with the first answer's ETag in If-None-Match → 304, no body", async () => {
    const { tag } = await taggedAnswer(await describe(server, route));
    await assertNotModified(await describe(server, route, tag), tag);
    await assertNotModified(await describe(server, route, `"other", W/${tag}`), tag);
  });

  await t.test("DescribeTable with a stale or foreign If-None-Match → 200 with the answer", async () => {
    const { tag, body } = await taggedAnswer(await describe(server, route, '"not-the-tag"'));
    assert.equal(body.version, 1);
    assert.equal((await taggedAnswer(await describe(server, route))).tag, tag, "the same answer keeps its tag");
  });

  await t.test("DescribeTable after an insert → 200 with a new ETag and the new version", async () => {
    const { tag } = await taggedAnswer(await describe(server, route));
    await expectJson(await server.upload("/v1/table/shop$orders/insert", rows([3])));
    const after = await taggedAnswer(await describe(server, route, tag));
    assert.notEqual(after.tag, tag);
    assert.equal(after.body.version, 2);
    await assertNotModified(await describe(server, route, after.tag), after.tag);
  });

  await t.test("DescribeTable after a property change → 200 with a new ETag and the new properties", async () => {
    const { tag, body } = await taggedAnswer(await describe(server, route));
    // Registering the same location again in Overwrite mode changes only the properties.
    await expectJson(await server.post("/v1/table/shop$orders/register", { location: body.location, mode: "Overwrite", properties: { team: "ops" } }));
    const after = await taggedAnswer(await describe(server, route, tag));
    assert.notEqual(after.tag, tag);
    assert.equal(after.body.version, body.version, "the data did not change");
    assert.deepEqual(after.body.properties, { team: "ops" });
  });

  await t.test("DescribeTable of a renamed table → 200 with a new ETag; the old name → 404", async () => {
    const { tag } = await taggedAnswer(await describe(server, route));
    await expectJson(await server.post("/v1/table/shop$orders/rename", { new_table_name: "sales" }));
    const renamed = await taggedAnswer(await describe(server, "/v1/table/shop$sales/describe", tag));
    assert.notEqual(renamed.tag, tag);
    await expectError(await describe(server, route, tag), 404, 4);
  });

  await t.test("DescribeTable with load_detailed_metadata → a tag of its own, each form answering 304 to its own tag", async () => {
    const sales = "/v1/table/shop$sales/describe";
    const plain = await taggedAnswer(await describe(server, sales, undefined, { load_detailed_metadata: false }));
    const detailed = await taggedAnswer(await describe(server, sales, plain.tag, { load_detailed_metadata: true }));
    assert.notEqual(detailed.tag, plain.tag);
    assert.ok(detailed.body.schema, "the detailed answer has the schema");
    await assertNotModified(await describe(server, sales, detailed.tag, { load_detailed_metadata: true }), detailed.tag);
  });

  await t.test("DescribeTable of a table dropped and created again with the same rows → 200 with a new ETag", async () => {
    const sales = "/v1/table/shop$sales/describe";
    const { tag } = await taggedAnswer(await describe(server, sales));
    await expectJson(await server.post("/v1/table/shop$sales/drop", {}));
    await expectJson(await server.upload("/v1/table/shop$sales/create", rows([1, 2, 3])));
    const again = await taggedAnswer(await describe(server, sales, tag));
    assert.notEqual(again.tag, tag);
  });
});

test("conditional DescribeNamespace", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/team/create", { properties: { owner: "ana" } }));
  const route = "/v1/namespace/team/describe";

  await t.test("DescribeNamespace twice with the first answer's ETag in If-None-Match → 304, no body", async () => {
    const { tag, body } = await taggedAnswer(await describe(server, route));
    assert.deepEqual(body.properties, { owner: "ana" });
    await assertNotModified(await describe(server, route, tag), tag);
  });

  await t.test("DescribeNamespace after its properties changed (dropped and created again) → 200 with a new ETag", async () => {
    const { tag } = await taggedAnswer(await describe(server, route));
    await expectJson(await server.post("/v1/namespace/team/drop", {}));
    await expectJson(await server.post("/v1/namespace/team/create", { properties: { owner: "bo" } }));
    const after = await taggedAnswer(await describe(server, route, tag));
    assert.notEqual(after.tag, tag);
    assert.deepEqual(after.body.properties, { owner: "bo" });
  });

  await t.test("DescribeNamespace of another namespace with the same properties → its own ETag", async () => {
    await expectJson(await server.post("/v1/namespace/twin/create", { properties: { owner: "bo" } }));
    const { tag } = await taggedAnswer(await describe(server, route));
    const twin = await taggedAnswer(await describe(server, "/v1/namespace/twin/describe", tag));
    assert.notEqual(twin.tag, tag);
  });

  await t.test("DescribeNamespace of a dropped namespace with its old ETag → 404, code 1", async () => {
    const { tag } = await taggedAnswer(await describe(server, "/v1/namespace/twin/describe"));
    await expectJson(await server.post("/v1/namespace/twin/drop", {}));
    await expectError(await describe(server, "/v1/namespace/twin/describe", tag), 404, 1);
  });
});
