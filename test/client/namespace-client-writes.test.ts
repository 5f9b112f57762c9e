/**
 * The real LanceDB client in namespace mode (`connectNamespace("rest")`) drives the data path
 * against Quiver: update, delete, merge-insert and index creation, with and without managed
 * versioning. The client writes at the location Quiver hands out; the server's own view of the
 * table (describe, version/list, index/list) must agree with what the client wrote.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { expectJson, startTestServer } from "../helpers/test-server.js";

type Row = {
  id: number;
  name: string;
  score: number;
  vector: number[];
};

/** 300 rows, enough for Lance to train an IVF_PQ index; vector dimension 8. */
function rows(count = 300): Row[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i,
    name: `n${i}`,
    score: i % 10,
    vector: Array.from({ length: 8 }, (_, d) => Math.sin(i * 0.37 + d)),
  }));
}

async function byId(table: lancedb.Table, where: string): Promise<Array<{ id: number; name: string; score: number }>> {
  const found = await table.query().where(where).select(["id", "name", "score"]).toArray();
  return found.map((row) => ({ id: Number(row.id), name: String(row.name), score: Number(row.score) })).sort((a, b) => a.id - b.id);
}

for (const managedVersioning of [false, true]) {
  test(`the namespace client writes and indexes a table on Quiver (managed versioning ${managedVersioning ? "on" : "off"})`, async (t) => {
    const server = await startTestServer({ managedVersioning });
    t.after(() => server.close());
    const db = await lancedb.connectNamespace("rest", { uri: server.url });
    await db.createNamespace(["shop"]);
    const table = await db.createTable("items", rows(), ["shop"]);

    await t.test("update changes the matching rows only", async () => {
      const result = await table.update({ where: "id < 3", values: { name: "changed" } });
      assert.equal(result.rowsUpdated, 3);
      assert.deepEqual(await byId(table, "name = 'changed'"), [0, 1, 2].map((id) => ({ id, name: "changed", score: id % 10 })));
      await table.update({ where: "id = 3", valuesSql: { score: "score + 100" } });
      assert.deepEqual(await byId(table, "id = 3"), [{ id: 3, name: "n3", score: 103 }]);
      assert.equal(await table.countRows(), 300);
    });

    await t.test("delete removes the matching rows", async () => {
      const result = await table.delete("id >= 290");
      assert.equal(result.numDeletedRows, 10);
      assert.equal(await table.countRows(), 290);
      assert.equal(await table.countRows("id >= 290"), 0);
    });

    await t.test("merge-insert (upsert) updates matched keys and inserts new ones", async () => {
      const upsert = [
        { id: 5, name: "upserted", score: 55, vector: rows(6)[5]!.vector },
        { id: 1000, name: "new", score: 1, vector: rows(1)[0]!.vector },
      ];
      const result = await table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(upsert);
      assert.equal(result.numUpdatedRows, 1);
      assert.equal(result.numInsertedRows, 1);
      assert.equal(await table.countRows(), 291);
      assert.deepEqual(await byId(table, "id IN (5, 1000)"), [
        { id: 5, name: "upserted", score: 55 },
        { id: 1000, name: "new", score: 1 },
      ]);
    });

    await t.test("a vector index and scalar indices are created, listed and used", async () => {
      await table.createIndex("vector", { config: lancedb.Index.ivfPq({ numPartitions: 2, numSubVectors: 2 }) });
      await table.createIndex("id", { config: lancedb.Index.btree() });
      await table.createIndex("name", { config: lancedb.Index.bitmap() });
      const indices = await table.listIndices();
      const described = indices.map((index) => [index.columns.join(","), index.indexType]).sort();
      assert.deepEqual(described, [
        ["id", "BTree"],
        ["name", "Bitmap"],
        ["vector", "IvfPq"],
      ]);
      const stats = await table.indexStats("id_idx");
      assert.equal(stats?.numIndexedRows, 291);
      const nearest = await table.vectorSearch(rows(8)[7]!.vector).refineFactor(10).limit(1).select(["id"]).toArray();
      assert.deepEqual(nearest.map((row) => Number(row.id)), [7]);
      assert.deepEqual(await byId(table, "id = 42"), [{ id: 42, name: "n42", score: 2 }]);
    });

    await t.test("a fresh connection and the server's own view agree with the writes", async () => {
      const fresh = await lancedb.connectNamespace("rest", { uri: server.url });
      const reopened = await fresh.openTable("items", ["shop"]);
      assert.equal(await reopened.version(), await table.version());
      assert.equal(await reopened.countRows(), 291);
      assert.deepEqual((await reopened.listIndices()).map((index) => index.name).sort(), ["id_idx", "name_idx", "vector_idx"]);

      const described = await expectJson(await server.post("/v1/table/shop$items/describe", {}));
      assert.equal(described.version, await table.version());
      const counted = await expectJson(await server.post("/v1/table/shop$items/count_rows", {}));
      assert.equal(counted, 291);
      const listedIndices = await expectJson(await server.post("/v1/table/shop$items/index/list", {}));
      assert.deepEqual(listedIndices.indexes.map((index: { index_name: string }) => index.index_name).sort(), ["id_idx", "name_idx", "vector_idx"]);
      const stats = await expectJson(await server.post("/v1/table/shop$items/stats", {}));
      assert.equal(stats.num_rows, 291);
      assert.equal(stats.num_indices, 3);
      const idStats = await expectJson(await server.post("/v1/table/shop$items/index/id_idx/stats", {}));
      assert.equal(idStats.num_indexed_rows, 291);
      assert.equal(idStats.num_unindexed_rows, 0);
      if (managedVersioning) {
        const versions = await expectJson(await server.post("/v1/table/shop$items/version/list", null));
        assert.equal(versions.versions.at(-1).version, await table.version(), "every commit went through version/create");
      }
    });
  });
}
