import assert from "node:assert/strict";
import { test } from "node:test";
import { readArrow, rowsOf } from "../helpers/arrow.js";
import { type TestServer, expectError, expectJson, startTestServer, committed } from "../helpers/test-server.js";
import { createRowsTable } from "./fixtures.js";

async function rows(server: TestServer, table: string, filter?: string): Promise<Record<string, any>[]> {
  const result = await readArrow(await server.post(`/v1/table/${table}/query`, { k: 1000, vector: null, filter, columns: { column_names: ["id", "text", "meta"] } }));
  return rowsOf(result).sort((a, b) => (a.id as number) - (b.id as number));
}

test("UpdateTable sets columns on the matching rows → 200 with updated_rows, rows_updated, version and properties", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 5);
  const body = await expectJson(
    await server.post("/v1/table/t/update/", { predicate: "id >= 3", updates: [["text", "concat(text, '!')"]], properties: { owner: "ops" } }),
  );
  assert.deepEqual(committed(body), { updated_rows: 2, rows_updated: 2, version: 2, properties: { owner: "ops" } });
  const after = await rows(server, "t");
  assert.deepEqual(after.map((r) => r.text.endsWith("!")), [false, false, false, true, true]);
  const described = await expectJson(await server.post("/v1/table/t/describe", {}));
  assert.deepEqual(described.properties, { owner: "ops" });
});

test("UpdateTable without a predicate updates every row → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 3);
  const body = await expectJson(await server.post("/v1/table/t/update", { predicate: null, updates: [["id", "id + 100"]] }));
  assert.equal(body.updated_rows, 3);
  assert.deepEqual((await rows(server, "t")).map((r) => r.id), [100, 101, 102]);
});

test("UpdateTable on nested struct fields, with a backtick-quoted segment, keeps sibling fields → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 3);
  const body = await expectJson(
    await server.post("/v1/table/t/update", {
      predicate: "`meta`.`a.b` = 's1'",
      updates: [
        ["meta.x", "meta.x + 1000"],
        ["meta.`a.b`", "'changed'"],
      ],
    }),
  );
  assert.equal(body.updated_rows, 1);
  const after = await rows(server, "t");
  assert.deepEqual(after.map((r) => ({ ...r.meta })), [
    { x: 0, "a.b": "s0" },
    { x: 1001, "a.b": "changed" },
    { x: 2, "a.b": "s2" },
  ]);
  assert.deepEqual(after.map((r) => r.text), ["row number 0 lance fish", "row number 1 plain bird", "row number 2 plain bird"]);
});

test("UpdateTable with a 1-element or 3-element update → 400, code 13, and nothing changes", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 2);
  await expectError(await server.post("/v1/table/t/update", { updates: [["id"]] }), 400, 13);
  await expectError(await server.post("/v1/table/t/update", { updates: [["id", "1", "2"]] }), 400, 13);
  await expectError(await server.post("/v1/table/t/update", { updates: [["id", 1]] , predicate: 5 }), 400, 13);
  assert.deepEqual((await rows(server, "t")).map((r) => r.id), [0, 1]);
});

test("UpdateTable with a bad SQL predicate → 400, code 13 with the engine's message", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 2);
  const error = await expectError(await server.post("/v1/table/t/update", { predicate: "id >>> 1", updates: [["id", "0"]] }), 400, 13);
  assert.match(error.error, /sql parser error/);
  await expectError(await server.post("/v1/table/t/update", { updates: [["meta.x.y", "1"]] }), 400, 13);
  await expectError(await server.post("/v1/table/t/update", { updates: [["`meta", "1"]] }), 400, 13);
});

test("UpdateTable on an unknown column, top-level or nested → 404, code 12", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 2);
  await expectError(await server.post("/v1/table/t/update", { updates: [["nope", "1"]] }), 404, 12);
  await expectError(await server.post("/v1/table/t/update", { updates: [["meta.nope", "1"]] }), 404, 12);
  await expectError(await server.post("/v1/table/t/update", { predicate: "nope = 1", updates: [["id", "1"]] }), 404, 12);
});

test("UpdateTable and DeleteFromTable on a missing table → 404, code 4", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectError(await server.post("/v1/table/missing/update", { updates: [["id", "1"]] }), 404, 4);
  await expectError(await server.post("/v1/table/missing/delete", { predicate: "true" }), 404, 4);
  await expectError(await server.post("/v1/table/ns$missing/delete", { predicate: "true" }), 404, 1);
});

test("DeleteFromTable removes the matching rows → 200 with the version and, for the LanceDB Cloud client, num_deleted_rows", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 5);
  const body = await expectJson(await server.post("/v1/table/t/delete/", { predicate: "id in (1, 3)" }));
  assert.deepEqual(committed(body), { version: 2, num_deleted_rows: 2 });
  assert.deepEqual((await rows(server, "t")).map((r) => r.id), [0, 2, 4]);
});

test("DeleteFromTable with a bad predicate → 400, code 13; an unknown column → 404, code 12; rows stay", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 3);
  await expectError(await server.post("/v1/table/t/delete", { predicate: "id = " }), 400, 13);
  await expectError(await server.post("/v1/table/t/delete", { predicate: "" }), 400, 13);
  await expectError(await server.post("/v1/table/t/delete", {}), 400, 13);
  await expectError(await server.post("/v1/table/t/delete", { predicate: "nope = 1" }), 404, 12);
  assert.equal((await rows(server, "t")).length, 3);
});

test("UpdateTable from 8 concurrent writers on one row loses no update", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 2);
  const writers = 8;
  const responses = await Promise.all(
    Array.from({ length: writers }, () => server.post("/v1/table/t/update", { predicate: "id = 1", updates: [["meta.x", "meta.x + 1"]] })),
  );
  const bodies = await Promise.all(responses.map((r) => expectJson(r)));
  const versions = new Set(bodies.map((b) => b.version));
  assert.equal(versions.size, writers, "each update commits its own version");
  const after = await rows(server, "t", "id = 1");
  assert.equal(after[0]?.meta.x, 1 + writers);
});
