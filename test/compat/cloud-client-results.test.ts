// What the LanceDB Cloud client (connect "db://...") reads from Quiver's answers: row counts of
// writes, index creation over an existing index, the refresh job's result, tags and branches.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";

test("LanceDB Cloud client reads Quiver's answers", async (t) => {
  const server = await startTestServer({ jobs: { pollMs: 20 } });
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const table = await db.createTable("items", [
    { id: 1, name: "a" },
    { id: 2, name: "b" },
    { id: 3, name: "c" },
    { id: 4, name: "d" },
  ]);

  await t.test("delete reports the rows it deleted", async () => {
    const result = await table.delete("id >= 3");
    assert.equal(result.numDeletedRows, 2);
    assert.equal(result.version, 2);
  });

  await t.test("mergeInsert reports its attempts and the source rows it processed", async () => {
    const result = await table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute([
      { id: 2, name: "bb" },
      { id: 8, name: "h" },
      { id: 9, name: "i" },
    ]);
    assert.deepEqual(
      { inserted: result.numInsertedRows, updated: result.numUpdatedRows, deleted: result.numDeletedRows, attempts: result.numAttempts, rows: result.numRows },
      { inserted: 2, updated: 1, deleted: 0, attempts: 1, rows: 3 },
    );
  });

  await t.test("update reports the rows it updated (rows_updated)", async () => {
    const result = await table.update({ where: "id > 1", values: { name: "z" } });
    assert.equal(result.rowsUpdated, 3);
  });

  await t.test("createIndex on a column that has one rebuilds it (replace defaults to true); replace false refuses", async () => {
    await table.createIndex("id");
    await table.add([{ id: 10, name: "j" }]);
    await table.createIndex("id");
    const stats = await table.indexStats("id_idx");
    assert.equal(stats?.numIndexedRows, 5, "the rebuilt index covers the row added after the first build");
    await assert.rejects(table.createIndex("id", { replace: false }), /already has an index named 'id_idx'/);
    assert.deepEqual((await table.listIndices()).map((index) => index.name), ["id_idx"]);
  });

  await t.test("refreshColumnAsync: the job finishes and its result carries what the client parses", async () => {
    await table.addColumns({ computed: [{ name: "twice", valueSql: "id * 2" }] });
    const job = await table.refreshColumnAsync("twice");
    await job.wait();
    await job.refresh();
    assert.equal(job.jobType, "backfill_column");
    const result = job.result;
    assert.equal(result.rows_assigned, 5);
    assert.equal(result.rows_written, 5);
    assert.equal(result.rows_failed, 0);
    assert.equal(result.rows_remaining, 0);
    assert.equal(result.published_version, await table.version());
    assert.ok(result.source_version < result.published_version);
    const rows = (await table.query().select(["id", "twice"]).toArray()).map((row) => [Number(row.id), Number(row.twice)]);
    assert.ok(rows.every(([id, twice]) => twice === (id as number) * 2), JSON.stringify(rows));
  });

  await t.test("tags: list (camelCase manifestSize), getVersion and checkout by tag on main", async () => {
    const tags = await table.tags();
    await tags.create("first", 1);
    const listed = await tags.list();
    assert.equal(listed.first?.version, 1);
    assert.ok((listed.first?.manifestSize ?? 0) > 0);
    assert.equal(await tags.getVersion("first"), 1);
    const answer = await expectJson(await server.post("/v1/table/items/tags/version/", { tag: "first" }));
    assert.deepEqual(answer, { version: 1, branch: "main" });
    await table.checkout("first");
    assert.equal(await table.countRows(), 4);
    await table.checkoutLatest();
  });

  await t.test("branches: the client parses the list (it requires camelCase parentVersion, createAt, manifestSize)", async () => {
    const branches = await table.branches();
    const before = Math.floor(Date.now() / 1000);
    await branches.create("dev");
    const dev = (await branches.list()).dev;
    assert.equal(dev?.parentVersion, await table.version());
    assert.ok((dev?.manifestSize ?? 0) > 0);
    // The client does not show createAt; the wire carries it in Unix seconds.
    const listed = await expectJson(await server.post("/v1/table/items/branches/list/"));
    const createAt = listed.branches.dev.createAt;
    assert.ok(createAt >= before - 1 && createAt <= Math.ceil(Date.now() / 1000), `createAt ${createAt} is in seconds`);
  });

  await t.test("over plain HTTP, an explicit replace false on an existing index is 409 code 7", async () => {
    await expectError(await server.post("/v1/table/items/create_index", { column: "id", index_type: "BTREE", replace: false }), 409, 7);
  });
});
