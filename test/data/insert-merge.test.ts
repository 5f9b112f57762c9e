import assert from "node:assert/strict";
import { test } from "node:test";
import { readArrow } from "../helpers/arrow.js";
import { expectError, expectJson, startTestServer, committed } from "../helpers/test-server.js";
import { createRowsTable, range, rowsTable, streamOf } from "./fixtures.js";

async function ids(server: Awaited<ReturnType<typeof startTestServer>>, table: string): Promise<number[]> {
  const result = await readArrow(await server.post(`/v1/table/${table}/query`, { k: 1000, vector: null, columns: { column_names: ["id"] } }));
  return [...(result.getChild("id")?.toArray() ?? [])].map(Number).sort((a, b) => a - b);
}

test("InsertIntoTable appends an LZ4-compressed stream → 200 with the new version and row count", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 5);
  const body = await expectJson(await server.upload("/v1/table/t/insert/", streamOf(rowsTable(range(5, 8)), { lz4: true }), null));
  assert.deepEqual(committed(body), { version: 2, num_inserted_rows: 3 });
  assert.deepEqual(await ids(server, "t"), range(0, 8));
});

test("InsertIntoTable with mode overwrite (quoted, any case) replaces every row → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 5);
  const body = await expectJson(await server.upload(`/v1/table/t/insert?mode=${encodeURIComponent('"Overwrite"')}`, streamOf(rowsTable([42]))));
  assert.equal(body.version, 2);
  assert.deepEqual(await ids(server, "t"), [42]);
  // History is kept: version 1 still holds the original rows.
  const old = await readArrow(await server.post("/v1/table/t/query", { k: 100, vector: null, version: 1 }));
  assert.equal(old.numRows, 5);
});

test("InsertIntoTable on a declared-only table creates its data at the declared location → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const declared = await expectJson(await server.post("/v1/table/d/declare", {}));
  const body = await expectJson(await server.upload("/v1/table/d/insert", streamOf(rowsTable([1, 2]))));
  assert.equal(body.num_inserted_rows, 2);
  const described = await expectJson(await server.post("/v1/table/d/describe", {}));
  assert.equal(described.location, declared.location);
  assert.equal(described.version, body.version);
  assert.deepEqual(await ids(server, "d"), [1, 2]);
});

test("InsertIntoTable into a missing table → 404, code 4; a bad mode → 400, code 13; a non-Arrow body → 400, code 13", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectError(await server.upload("/v1/table/missing/insert", streamOf(rowsTable([1]))), 404, 4);
  await createRowsTable(server, "t", 2);
  await expectError(await server.upload("/v1/table/t/insert?mode=merge", streamOf(rowsTable([3]))), 400, 13);
  await expectError(await server.upload("/v1/table/t/insert", new TextEncoder().encode("not arrow")), 400, 13);
  assert.deepEqual(await ids(server, "t"), [0, 1]);
});

test("InsertIntoTable with rows of another schema → 400, code 20, and no rows are added", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 2);
  const other = await import("apache-arrow-21");
  const table = other.tableFromArrays({ unrelated: Float64Array.from([1, 2]) });
  await expectError(await server.upload("/v1/table/t/insert", streamOf(table)), 400, 20);
  assert.deepEqual(await ids(server, "t"), [0, 1]);
});

test("InsertIntoTable on an unknown branch → 404, code 22", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 2);
  await expectError(await server.upload("/v1/table/t/insert?branch=nope", streamOf(rowsTable([3]))), 404, 22);
});

test("MergeInsertIntoTable updates matches, inserts the rest and reports the counts → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 5);
  const source = rowsTable([3, 4, 10]);
  const body = await expectJson(
    await server.upload("/v1/table/t/merge_insert/?on=id&when_matched_update_all=true&when_not_matched_insert_all=true", streamOf(source, { lz4: true })),
  );
  assert.deepEqual(committed(body), { version: 2, num_inserted_rows: 1, num_updated_rows: 2, num_deleted_rows: 0, num_attempts: 1, num_rows: 3 });
  assert.deepEqual(await ids(server, "t"), [0, 1, 2, 3, 4, 10]);
});

test("MergeInsertIntoTable with a repeated `on`, a match filter and delete-by-source filter → 200 with counts", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 6);
  const query = new URLSearchParams([
    ["on", "id"],
    ["on", "text"],
    ["when_matched_update_all", "true"],
    ["when_matched_update_all_filt", "target.id > 1"],
    ["when_not_matched_by_source_delete", "true"],
    ["when_not_matched_by_source_delete_filt", "id >= 4"],
    ["timeout", "30s"],
  ]);
  const body = await expectJson(await server.upload(`/v1/table/t/merge_insert?${query}`, streamOf(rowsTable([0, 2]))));
  // Rows 0 and 2 match (only 2 passes the filter); 4 and 5 are deleted; nothing is inserted.
  assert.equal(body.num_updated_rows, 1);
  assert.equal(body.num_deleted_rows, 2);
  assert.equal(body.num_inserted_rows, 0);
  assert.deepEqual(await ids(server, "t"), [0, 1, 2, 3]);
});

test("MergeInsertIntoTable without `on` → 400, code 13; on an unknown column → 404, code 12", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 3);
  await expectError(await server.upload("/v1/table/t/merge_insert?when_not_matched_insert_all=true", streamOf(rowsTable([9]))), 400, 13);
  await expectError(await server.upload("/v1/table/t/merge_insert?on=nope&when_not_matched_insert_all=true", streamOf(rowsTable([9]))), 404, 12);
  assert.deepEqual(await ids(server, "t"), [0, 1, 2]);
});
