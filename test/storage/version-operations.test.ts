// What made each version, read from the files Lance writes beside the manifests: a table written
// by the real LanceDB client in a local folder, read back through the storage layer.
import assert from "node:assert/strict";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { ManifestFiles } from "../../src/engine/table-files/manifests.js";
import { readVersionOperation } from "../../src/engine/table-files/version-operations.js";
import { Storages } from "../../src/storage/storages.js";
import { tempRoot } from "../helpers/test-server.js";

const storages = new Storages();
const manifests = new ManifestFiles(storages);

async function operations(location: string): Promise<Array<[number, string | undefined, string | undefined]>> {
  const names = await manifests.list(location, "");
  return Promise.all(names.map(async (name) => {
    const found = await readVersionOperation(storages, name.path);
    return [name.version, found?.operation, found?.detail] as [number, string | undefined, string | undefined];
  }));
}

test("readVersionOperation on a table the LanceDB client wrote → create, append, update, delete with its predicate, index, compaction, restore with its source", async () => {
  const root = tempRoot();
  const db = await lancedb.connect(root);
  const table = await db.createTable("t", [{ a: 1 }, { a: 2 }]);
  await table.add([{ a: 3 }]);
  await table.update({ where: "a = 1", values: { a: "10" } });
  await table.delete("a = 2");
  await table.createIndex("a");
  await table.optimize();
  await table.checkout(2);
  await table.restore();
  const found = await operations(path.join(root, "t.lance"));
  assert.deepEqual(found.slice(0, 5), [
    [1, "Overwrite", undefined],
    [2, "Append", undefined],
    [3, "Update", undefined],
    [4, "Delete", "a = 2"],
    [5, "CreateIndex", undefined],
  ]);
  assert.ok(found.slice(5, -1).some(([, operation]) => operation === "Rewrite"), `a compaction among ${JSON.stringify(found)}`);
  assert.deepEqual(found.at(-1)?.slice(1), ["Restore", "version 2"]);
});

test("readVersionOperation when the transaction file is gone or the manifest is not a Lance file → no operation, no error", async () => {
  const root = tempRoot();
  const db = await lancedb.connect(root);
  await db.createTable("t", [{ a: 1 }]);
  const location = path.join(root, "t.lance");
  const [first] = await manifests.list(location, "");
  rmSync(path.join(location, "_transactions"), { recursive: true });
  assert.equal(await readVersionOperation(storages, first!.path), undefined);
  const manifest = readdirSync(path.join(location, "_versions")).find((name) => name.endsWith(".manifest"))!;
  writeFileSync(path.join(location, "_versions", manifest), "not a manifest at all, but long enough");
  assert.equal(await readVersionOperation(storages, first!.path), undefined);
});
