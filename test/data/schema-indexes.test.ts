import assert from "node:assert/strict";
import { test } from "node:test";
import { readArrow, rowsOf } from "../helpers/arrow.js";
import { type TestServer, expectError, expectJson, startTestServer, committed } from "../helpers/test-server.js";
import { createRowsTable } from "./fixtures.js";

async function fieldsOf(server: TestServer, table = "t") {
  const described = await expectJson(await server.post(`/v1/table/${table}/describe`, {}));
  return described.schema.fields as { name: string; type: { type: string }; nullable: boolean; metadata?: Record<string, string> }[];
}

test("AlterTableAddColumns adds a column from a SQL expression → 200 with the new version", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 3);
  const body = await expectJson(await server.post("/v1/table/t/add_columns/", { new_columns: [{ name: "double", expression: "id * 2" }] }));
  assert.deepEqual(body, { version: 2 });
  const rows = rowsOf(await readArrow(await server.post("/v1/table/t/query", { k: 10, vector: null, columns: { column_names: ["id", "double"] } })));
  assert.deepEqual(rows.map((r) => Number(r.double)), [0, 2, 4]);
});

test("AlterTableAddColumns errors: no kind → 400 code 13; a virtual column → 406 code 0; bad SQL → 400 code 13; nothing added", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 2);
  await expectError(await server.post("/v1/table/t/add_columns", { new_columns: [{ name: "c" }] }), 400, 13);
  await expectError(
    await server.post("/v1/table/t/add_columns", {
      new_columns: [{ name: "c", virtual_column: { input_columns: ["id"], outputs: [], image: "i", udf: "u", udf_name: "n", udf_version: "1" } }],
    }),
    406,
    0,
  );
  await expectError(await server.post("/v1/table/t/add_columns", { new_columns: [{ name: "c", expression: "id +" }] }), 400, 13);
  await expectError(await server.post("/v1/table/missing/add_columns", { new_columns: [{ name: "c", expression: "1" }] }), 404, 4);
  assert.deepEqual((await fieldsOf(server)).map((f) => f.name), ["id", "text", "vector", "meta"]);
});

test("AlterTableAlterColumns renames, casts (type name or JSON type) and relaxes nullability → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 3);
  const renamed = await expectJson(await server.post("/v1/table/t/alter_columns", { alterations: [{ path: "text", rename: "body" }] }));
  assert.equal(renamed.version, 2);
  const cast = await expectJson(await server.post("/v1/table/t/alter_columns/", { alterations: [{ path: "id", data_type: "int64" }] }));
  assert.equal(cast.version, 3);
  await expectJson(await server.post("/v1/table/t/alter_columns", { alterations: [{ path: "meta.x", data_type: { type: "int64" }, nullable: true }] }));
  const fields = await fieldsOf(server);
  assert.deepEqual(fields.map((f) => f.name), ["id", "body", "vector", "meta"]);
  assert.equal(fields[0]?.type.type, "int64");
  await expectError(await server.post("/v1/table/t/alter_columns", { alterations: [{ path: "nope", rename: "x" }] }), 404, 12);
  await expectError(await server.post("/v1/table/t/alter_columns", { alterations: [{ path: "id" }] }), 400, 13);
});

test("AlterTableDropColumns removes columns, nested ones too → 200; unknown column → 404 code 12", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 3);
  const body = await expectJson(await server.post("/v1/table/t/drop_columns/", { columns: ["text", "meta.x"] }));
  assert.deepEqual(committed(body), { version: 2 });
  const fields = await fieldsOf(server);
  assert.deepEqual(fields.map((f) => f.name), ["id", "vector", "meta"]);
  await expectError(await server.post("/v1/table/t/drop_columns", { columns: ["nope"] }), 404, 12);
  assert.equal((await fieldsOf(server)).length, 3);
});

test("UpdateFieldMetadata merges, deletes with null and replaces → 200 with the fields' metadata", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 2);
  const first = await expectJson(await server.post("/v1/table/t/update_field_metadata", { updates: [{ path: "id", metadata: { a: "1", b: "2" } }] }));
  assert.deepEqual(first, { version: 2, fields: { id: { a: "1", b: "2" } } });
  const second = await expectJson(await server.post("/v1/table/t/update_field_metadata", { updates: [{ path: "id", metadata: { b: null, c: "3" } }] }));
  assert.deepEqual(second.fields, { id: { a: "1", c: "3" } });
  const third = await expectJson(await server.post("/v1/table/t/update_field_metadata", { updates: [{ path: "meta.`a.b`", metadata: { z: "9" }, replace: true }] }));
  assert.deepEqual(third.fields, { "meta.`a.b`": { z: "9" } });
  await expectError(await server.post("/v1/table/t/update_field_metadata", { updates: [{ path: "nope", metadata: { a: "1" } }] }), 404, 12);
  const id = (await fieldsOf(server)).find((f) => f.name === "id");
  assert.deepEqual(id?.metadata, { a: "1", c: "3" });
});

test("UpdateTableSchemaMetadata merges a bare map into the schema metadata → 200 with the whole map, shown by DescribeTable; per branch", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 1);
  const describe = async (body: Record<string, unknown> = {}) => expectJson(await server.post("/v1/table/t/describe", body));

  assert.deepEqual(await expectJson(await server.post("/v1/table/t/schema_metadata/update", { owner: "ops" })), { owner: "ops" });
  assert.deepEqual(await expectJson(await server.post("/v1/table/t/schema_metadata/update", { team: "search" })), { owner: "ops", team: "search" });
  const after = await describe();
  assert.deepEqual(after.schema.metadata, { owner: "ops", team: "search" });
  assert.deepEqual(after.metadata, { owner: "ops", team: "search" });
  assert.equal(after.version, 3, "each update that adds keys commits one version");

  // Naming keys with the values they already have adds nothing and commits nothing.
  assert.deepEqual(await expectJson(await server.post("/v1/table/t/schema_metadata/update", { owner: "ops" })), { owner: "ops", team: "search" });
  assert.equal((await describe()).version, 3);

  await expectJson(await server.post("/v1/table/t/branches/create", { name: "dev" }));
  assert.deepEqual(await expectJson(await server.post("/v1/table/t/schema_metadata/update?branch=dev", { stage: "test" })), { owner: "ops", team: "search", stage: "test" });
  assert.deepEqual((await describe({ branch: "dev" })).schema.metadata, { owner: "ops", team: "search", stage: "test" });
  assert.deepEqual((await describe()).schema.metadata, { owner: "ops", team: "search" }, "main is unchanged");
});

test("UpdateTableSchemaMetadata that would change an existing key's value → 406, code 0, naming the key; nothing committed; missing table → 404 code 4", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 1);
  await expectJson(await server.post("/v1/table/t/schema_metadata/update", { owner: "ops" }));
  const refused = await expectError(await server.post("/v1/table/t/schema_metadata/update", { owner: "qa", extra: "1" }), 406, 0);
  assert.match(refused.error, /'owner'/);
  const described = await expectJson(await server.post("/v1/table/t/describe", {}));
  assert.deepEqual(described.schema.metadata, { owner: "ops" });
  assert.equal(described.version, 2);
  await expectError(await server.post("/v1/table/missing/schema_metadata/update", { owner: "ops" }), 404, 4);
});

test("CreateTableIndex builds scalar, FTS and vector indexes; ListTableIndices lists them → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 300);
  // The answer names the index built: `<column>_idx` unless the request names it.
  assert.equal((await expectJson(await server.post("/v1/table/t/create_index/", { column: "id", index_type: "BTREE" }))).index_name, "id_idx");
  assert.equal((await expectJson(await server.post("/v1/table/t/create_scalar_index", { column: "meta.x", index_type: "bitmap", name: "x_bitmap" }))).index_name, "x_bitmap");
  await expectJson(await server.post("/v1/table/t/create_index", { column: "text", index_type: "FTS", with_position: true, lower_case: true, stem: false }));
  await expectJson(await server.post("/v1/table/t/create_index", { column: "vector", index_type: "IVF_PQ", distance_type: "l2", num_partitions: 2, num_sub_vectors: 2 }));
  const listed = await expectJson(await server.post("/v1/table/t/index/list/", { version: null }));
  const byName = Object.fromEntries(listed.indexes.map((i: { index_name: string }) => [i.index_name, i]));
  assert.deepEqual(Object.keys(byName).sort(), ["id_idx", "text_idx", "vector_idx", "x_bitmap"]);
  assert.equal(byName.id_idx.index_type, "BTREE");
  assert.equal(byName.x_bitmap.index_type, "BITMAP");
  assert.deepEqual(byName.x_bitmap.columns, ["meta.x"]);
  assert.equal(byName.vector_idx.index_type, "IVF_PQ");
  assert.equal(byName.text_idx.num_indexed_rows, 300);
  assert.ok(byName.id_idx.index_uuid.length > 0 && byName.id_idx.status === "ready");
  const page = await expectJson(await server.post("/v1/table/t/index/list", { limit: 3 }));
  assert.equal(page.indexes.length, 3);
  const rest = await expectJson(await server.post("/v1/table/t/index/list", { limit: 3, page_token: page.page_token }));
  assert.deepEqual(rest.indexes.map((i: { index_name: string }) => i.index_name), ["x_bitmap"]);
  assert.equal(rest.page_token, undefined);
  const stats = await expectJson(await server.post("/v1/table/t/stats", {}));
  assert.equal(stats.num_indices, 4);
});

test("CreateTableIndex with HNSW and IVF_FLAT vector types and LABEL_LIST → 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 300);
  await expectJson(await server.post("/v1/table/t/create_index", { column: "vector", index_type: "IVF_HNSW_SQ", name: "hnsw", num_partitions: 1, m: 8, ef_construction: 50 }));
  await expectJson(await server.post("/v1/table/t/create_index", { column: "vector", index_type: "IVF_FLAT", name: "flat", num_partitions: 2, distance_type: "cosine" }));
  const listed = await expectJson(await server.post("/v1/table/t/index/list"));
  assert.deepEqual(listed.indexes.map((i: { index_type: string }) => i.index_type).sort(), ["IVF_FLAT", "IVF_HNSW_SQ"]);
  const stats = await expectJson(await server.post("/v1/table/t/index/flat/stats", {}));
  assert.equal(stats.distance_type, "cosine");
});

test("CreateTableIndex errors: unknown type → 400 code 13; unknown column → 404 code 12; a taken name with replace false → 409 code 7", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 20);
  await expectError(await server.post("/v1/table/t/create_index", { column: "id", index_type: "MAGIC" }), 400, 13);
  await expectError(await server.post("/v1/table/t/create_index", { column: "nope", index_type: "BTREE" }), 404, 12);
  await expectJson(await server.post("/v1/table/t/create_index", { column: "id", index_type: "BTREE", name: "ix" }));
  await expectError(await server.post("/v1/table/t/create_index", { column: "id", index_type: "BTREE", name: "ix", replace: false }), 409, 7);
  // replace true, or absent (the LanceDB clients' default), rebuilds it instead.
  await expectJson(await server.post("/v1/table/t/create_index", { column: "id", index_type: "BTREE", name: "ix", replace: true }));
  await expectJson(await server.post("/v1/table/t/create_index", { column: "id", index_type: "BTREE", name: "ix" }));
  await expectError(await server.post("/v1/table/missing/create_index", { column: "id", index_type: "BTREE" }), 404, 4);
  assert.equal((await expectJson(await server.post("/v1/table/t/index/list", {}))).indexes.length, 1);
});

test("DescribeTableIndexStats by POST and GET; DropTableIndex drops; a missing index → 404 code 6", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await createRowsTable(server, "t", 20);
  // Both commits answer their transaction id (CreateTableIndexResponse, DropTableIndexResponse).
  // Create also names the index it built.
  assert.deepEqual(committed(await expectJson(await server.post("/v1/table/t/create_index", { column: "id", index_type: "BTREE", name: "by id" }))), { index_name: "by id" });
  const stats = await expectJson(await server.post("/v1/table/t/index/by%20id/stats/", { version: null }));
  assert.deepEqual(stats, { index_type: "BTREE", distance_type: null, num_indexed_rows: 20, num_unindexed_rows: 0, num_indices: 1 });
  assert.deepEqual(await expectJson(await server.get("/v1/table/t/index/by%20id/stats")), stats);
  await expectError(await server.post("/v1/table/t/index/nope/stats", {}), 404, 6);
  assert.deepEqual(committed(await expectJson(await server.post("/v1/table/t/index/by%20id/drop/", {}))), {});
  assert.deepEqual((await expectJson(await server.post("/v1/table/t/index/list", {}))).indexes, []);
  await expectError(await server.post("/v1/table/t/index/by%20id/drop"), 404, 6);
});
