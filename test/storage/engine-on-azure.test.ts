// The engine and the storage layer on Azure Blob Storage (Azurite): a table at an az:// location
// is written and read by Lance with the storage options configured for its root, and the
// catalog's file-level view of it (manifests, dataset presence, removal) agrees with Lance's.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { ipcStreamToFile } from "../../src/engine/arrow-ipc.js";
import { Engine } from "../../src/engine/engine.js";
import { joinLocation } from "../../src/storage/locations.js";
import { Storages } from "../../src/storage/storages.js";
import { arrowStream } from "../helpers/arrow.js";
import type { Azurite } from "../helpers/azurite.js";
import { sharedAzurite } from "../helpers/test-backend.js";

let azurite: Azurite;
let root: string;
const storages = new Storages();
const engine = new Engine({ storages });

before(async () => {
  // The run's Azurite: this file's data is in containers of its own, and nothing here stops it.
  azurite = await sharedAzurite();
  root = `az://c${randomUUID().replaceAll("-", "").slice(0, 20)}/databases/default`;
  await storages.configure(root, azurite.storageOptions);
  await storages.for(root).preparePrefix(root);
});

after(async () => {
  engine.close();
});

const upload = (ids: number[]) => ipcStreamToFile(arrowStream({ id: Int32Array.from(ids) }));

test("a table at an az:// location: create, append and count through Lance; its manifests listed through the storage layer; removed whole", async () => {
  const location = joinLocation(root, "tables", `${randomUUID()}.lance`);
  assert.equal(await engine.datasetExists(location), false);
  const created = await engine.writes.insert(location, {}, await upload([1, 2, 3]), "append");
  const appended = await engine.writes.insert(location, {}, await upload([4, 5]), "append");
  assert.deepEqual([created.version, appended.version], [1, 2]);
  assert.equal(await engine.datasetExists(location), true);
  assert.equal(await engine.query.count(location, {}), 5);
  assert.equal(await engine.query.count(location, {}, "id > 3"), 2);
  assert.deepEqual((await engine.files.manifests.list(location, "")).map((name) => name.version), [1, 2]);
  await engine.removeTableData(location, root);
  assert.equal(await engine.datasetExists(location), false);
  assert.deepEqual(await storages.for(location).list(location), []);
});

test("a location under no configured root is refused instead of reaching storage with no credentials", () => {
  assert.throws(() => storages.for("az://elsewhere/t.lance"), /no storage is configured for 'az:\/\/elsewhere\/t.lance'/);
});
