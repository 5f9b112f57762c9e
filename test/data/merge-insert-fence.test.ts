// A merge-insert runs under a lock that keeps merge-inserts on one table one at a time. When that
// lock is lost (its store connection ended), the fence it hands the merge falls, and the merge
// must commit nothing: another writer may hold the lock by then.
import { Storages } from "../../src/storage/storages.js";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { ipcStreamToFile } from "../../src/engine/arrow-ipc.js";
import { Engine } from "../../src/engine/engine.js";
import type { MergeInsertSpec } from "../../src/engine/engine.js";
import { arrowStream } from "../helpers/arrow.js";
import { tempRoot } from "../helpers/test-server.js";

const upsert: MergeInsertSpec = { on: ["id"], whenMatchedUpdateAll: true, whenNotMatchedInsertAll: true, whenNotMatchedBySourceDelete: false };
const rowsOf = (ids: number[]) => ipcStreamToFile(arrowStream({ id: Int32Array.from(ids), v: ids.map((id) => `v${id}`) }));

test("MergeInsertIntoTable whose lock fence has fallen → fails with the fence's reason and commits no version", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const engine = new Engine({ storages: new Storages() });
  const location = path.join(root, "t.lance");
  const created = await engine.createTable(location, await rowsOf([1, 2]), "create");

  const lost = new AbortController();
  const reason = new Error("the lock was lost with its connection");
  lost.abort(reason);
  await assert.rejects(engine.writes.mergeInsert(location, {}, await rowsOf([2, 3]), { ...upsert, fence: lost.signal }), (error) => error === reason);
  const table = await engine.openTable(location);
  assert.equal(await table.version(), created, "no version was committed");
  assert.equal(await table.countRows(null), 2);

  const held = new AbortController();
  const merged = await engine.writes.mergeInsert(location, {}, await rowsOf([2, 3]), { ...upsert, fence: held.signal });
  assert.equal(merged.version, created + 1);
  assert.equal(merged.numInsertedRows, 1);
  assert.equal(merged.numUpdatedRows, 1);
});
