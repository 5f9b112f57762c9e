// The engine keeps Lance sessions (index and metadata caches) and table handles per database and
// per configuration of the storage root: one database's caches never serve another's reads, and
// credentials that were replaced are not used again, not even by a table handle kept open.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { ipcStreamToFile } from "../../src/engine/arrow-ipc.js";
import { Engine } from "../../src/engine/engine.js";
import { joinLocation } from "../../src/storage/locations.js";
import { Storages } from "../../src/storage/storages.js";
import { arrowStream } from "../helpers/arrow.js";
import { sharedAzurite } from "../helpers/test-backend.js";

let root: string;
let storageOptions: Record<string, string>;
const storages = new Storages();
const engine = new Engine({ storages });

before(async () => {
  ({ storageOptions } = await sharedAzurite());
  root = `az://s${randomUUID().replaceAll("-", "").slice(0, 20)}/databases`;
  await storages.configure(root, storageOptions);
  await storages.for(root).preparePrefix(root);
});

after(() => engine.close());

const upload = (ids: number[]) => ipcStreamToFile(arrowStream({ id: Int32Array.from(ids) }));

test("Reads of one location by two databases open a Lance session each: what one database cached is not in the other's session", async () => {
  const location = joinLocation(root, "tables", `${randomUUID()}.lance`);
  await engine.writes.insert(location, {}, await upload([1, 2, 3]), "append");
  assert.equal(await engine.query.count(location, { database: "alpha" }, null), 3);
  const alpha = engine.sessionStats().find((stats) => stats.database === "alpha");
  assert.ok(alpha && alpha.items > 0, "alpha's session holds what its read cached");
  assert.equal(engine.sessionStats().find((stats) => stats.database === "beta"), undefined);
  assert.equal(await engine.query.count(location, { database: "beta" }, null), 3);
  const beta = engine.sessionStats().find((stats) => stats.database === "beta");
  assert.ok(beta && beta.items > 0, "beta's read filled a session of its own");
});

test("Reads after a root's credentials are replaced use the new ones: a wrong key fails the next read of a kept table, the right key reads again", async () => {
  const location = joinLocation(root, "tables", `${randomUUID()}.lance`);
  await engine.writes.insert(location, {}, await upload([1, 2]), "append");
  assert.equal(await engine.query.count(location, { database: "gamma" }, null), 2);
  const wrongKey = Buffer.from("not the account key").toString("base64");
  await storages.configure(root, { ...storageOptions, azure_storage_account_key: wrongKey });
  await assert.rejects(engine.query.count(location, { database: "gamma" }, null), "the replaced key's connection and handle are not used");
  await storages.configure(root, storageOptions);
  assert.equal(await engine.query.count(location, { database: "gamma" }, null), 2);
  const gamma = engine.sessionStats().find((stats) => stats.database === "gamma");
  assert.equal(gamma?.generation, 3, "the session is the one of the third configuration");
});
