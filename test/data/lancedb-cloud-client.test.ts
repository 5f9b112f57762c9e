/**
 * The real LanceDB client in mode B (`connect("db://…", {hostOverride})`), end to end: every
 * table operation it makes goes over HTTP to Quiver, uploads as LZ4-compressed Arrow streams.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { startTestServer } from "../helpers/test-server.js";

const dim = 8;

function vectorOf(id: number): Float32Array {
  return Float32Array.from({ length: dim }, (_, j) => Math.sin(id * dim + j));
}

function rows(from: number, to: number) {
  return Array.from({ length: to - from }, (_, i) => {
    const id = from + i;
    return { id, name: `item ${id} ${id % 4 === 0 ? "lance rocks" : "plain stone"}`, vector: vectorOf(id) };
  });
}

/** Plain values of the client's result rows. */
function plain(result: Record<string, unknown>[]): Record<string, unknown>[] {
  return result.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])));
}

async function connect(url: string) {
  return lancedb.connect("db://demo", { apiKey: "any", hostOverride: url });
}

test("LanceDB client mode B: create, add (LZ4), countRows, update with valuesSql, delete, query with filter/select/limit/offset", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await connect(server.url);
  const table = await db.createTable("items", rows(0, 20));
  await table.add(rows(20, 30));
  assert.equal(await table.countRows(), 30);
  assert.equal(await table.countRows("id < 5"), 5);

  await table.update({ where: "id < 3", valuesSql: { name: "concat(name, ' (edited)')" } });
  await table.update({ where: "id = 29", values: { name: "last" } });
  await table.delete("id >= 25 AND id < 29");
  assert.equal(await table.countRows(), 26);

  // Updated rows move to new fragments, so the page is taken from rows never rewritten.
  const page = plain(await table.query().where("id >= 5").select(["id", "name"]).limit(3).offset(1).toArray());
  assert.deepEqual(page, [
    { id: 6, name: "item 6 plain stone" },
    { id: 7, name: "item 7 plain stone" },
    { id: 8, name: "item 8 lance rocks" },
  ]);
  const edited = plain(await table.query().where("id < 4").select(["id", "name"]).toArray()).sort((a, b) => Number(a.id) - Number(b.id));
  assert.deepEqual(edited.map((r) => r.name), ["item 0 lance rocks (edited)", "item 1 plain stone (edited)", "item 2 plain stone (edited)", "item 3 plain stone"]);
  const last = plain(await table.query().where("id = 29").select(["name"]).toArray());
  assert.deepEqual(last, [{ name: "last" }]);
  const everything = await table.query().select(["id"]).toArray();
  assert.equal(everything.length, 26);
  assert.ok((await table.version()) >= 5);
});

test("LanceDB client mode B: vector search without and with an IVF index, FTS on an FTS index, explainPlan", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await connect(server.url);
  const table = await db.createTable("vectors", rows(0, 300));

  const flat = plain(await table.vectorSearch(vectorOf(42)).select(["id"]).limit(3).toArray());
  assert.equal(flat[0]?.id, 42);
  assert.equal(flat.length, 3);
  assert.ok("_distance" in (flat[0] ?? {}));

  await table.createIndex("vector", { config: lancedb.Index.ivfPq({ numPartitions: 2, numSubVectors: 2 }) });
  await table.createIndex("name", { config: lancedb.Index.fts() });
  const indices = await table.listIndices();
  assert.deepEqual(indices.map((i) => i.name).sort(), ["name_idx", "vector_idx"]);
  assert.deepEqual(indices.find((i) => i.name === "vector_idx")?.columns, ["vector"]);
  const stats = await table.indexStats("vector_idx");
  assert.equal(stats?.numIndexedRows, 300);
  assert.equal(stats?.indexType, "IVF_PQ");

  const indexed = plain(await table.vectorSearch(vectorOf(42)).select(["id"]).limit(5).nprobes(2).refineFactor(2).toArray());
  assert.ok(indexed.some((r) => r.id === 42), JSON.stringify(indexed));

  const text = plain(await table.search("lance", "fts").select(["id", "name"]).limit(100).toArray());
  assert.equal(text.length, 75);
  assert.ok(text.every((r) => String(r.name).includes("lance")));

  const plan = await table.query().where("id > 5").explainPlan(true);
  assert.equal(typeof plan, "string");
  assert.match(plan, /Lance/);

  await table.dropIndex("name_idx");
  assert.deepEqual((await table.listIndices()).map((i) => i.name), ["vector_idx"]);
});

test("LanceDB client mode B: mergeInsert, addColumns, alterColumns, dropColumns", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await connect(server.url);
  const table = await db.createTable("evolving", rows(0, 5));

  const merged = await table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute([
    { id: 1, name: "one", vector: vectorOf(1) },
    { id: 9, name: "nine", vector: vectorOf(9) },
  ]);
  assert.equal(merged.numInsertedRows, 1);
  assert.equal(merged.numUpdatedRows, 1);
  assert.equal(await table.countRows(), 6);

  await table.addColumns([{ name: "double", valueSql: "id * 2" }]);
  await table.alterColumns([{ path: "name", rename: "label" }]);
  await table.dropColumns(["vector"]);
  const schema = await table.schema();
  assert.deepEqual(schema.fields.map((f) => f.name), ["id", "label", "double"]);
  const row = plain(await table.query().where("id = 9").toArray());
  assert.deepEqual(row, [{ id: 9, label: "nine", double: 18 }]);
});
