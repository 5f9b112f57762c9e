// The operator is told which databases get no scoped credentials because their container is
// shared on a store that cannot scope credentials below it (Azurite, like an Azure account without
// a hierarchical namespace): by `quiver databases create` and by `quiver serve` at start-up. An
// encoded location is refused by `quiver databases create --data`.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { after, before, test } from "node:test";
import type { Azurite } from "../helpers/azurite.js";
import { sharedAzurite } from "../helpers/test-backend.js";
import { runCli, spawnServe } from "../helpers/cli-process.js";
import { tempRoot } from "../helpers/test-server.js";

let azurite: Azurite;
let root: string;
let env: Record<string, string>;
let data: string;

before(async () => {
  // The run's Azurite: this file's data is in containers of its own, and nothing here stops it.
  azurite = await sharedAzurite();
  root = tempRoot();
  data = `az://lake${randomUUID().replaceAll("-", "").slice(0, 16)}/quiver`;
  env = { QUIVER_DATA: data, QUIVER_STORAGE_OPTIONS: JSON.stringify(azurite.storageOptions) };
});

after(async () => {
  rmSync(root, { recursive: true, force: true });
});

function storageOptionFlags(): string[] {
  return Object.entries(azurite.storageOptions).flatMap(([key, value]) => ["--storage-option", `${key}=${value}`]);
}

test("quiver databases create in a container another database uses → exit 0 and a warning naming them; in a container of its own → no warning", async () => {
  const a = await runCli(["databases", "create", "a", "--root", root], env);
  assert.equal(a.code, 0, a.stderr);
  const b = await runCli(["databases", "create", "b", "--root", root], env);
  assert.equal(b.code, 0, b.stderr);
  assert.match(b.stderr, /warning: database 'b' shares az:\/\/lake\w+ with 'a'.*no credentials.*own container.*hierarchical namespace.*--vend-shared-containers/);
  const own = await runCli(["databases", "create", "c", "--root", root, "--data", `az://own${randomUUID().replaceAll("-", "").slice(0, 16)}/c`, ...storageOptionFlags()], env);
  assert.equal(own.code, 0, own.stderr);
  assert.doesNotMatch(own.stderr, /warning/);
});

test("quiver databases create --data at an encoded '..' → exit 1 naming the escape; no database is made", async () => {
  for (const location of [`${data}/a/%2e%2e/x`, `${data}/a/%252e%252e/x`, `${data}\\..\\x`]) {
    const refused = await runCli(["databases", "create", "x", "--root", root, "--data", location, ...storageOptionFlags()], env);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /holds/);
  }
  const listed = await runCli(["databases", "list", "--root", root], env);
  assert.doesNotMatch(listed.stdout, /^x\t/m);
});

test("quiver serve start-up warns of every database in a shared container, none of the one alone; --vend-shared-containers accepts the reach and says nothing", async () => {
  const server = await spawnServe(["--port", "0", "--root", root], env);
  const warned = server.output();
  await server.stop();
  for (const name of ["a", "b"]) assert.match(warned, new RegExp(`database '${name}' shares az://lake\\w+ with`));
  assert.doesNotMatch(warned, /database 'c' shares/);
  const accepting = await spawnServe(["--port", "0", "--root", root, "--vend-shared-containers"], env);
  const quiet = accepting.output();
  await accepting.stop();
  assert.doesNotMatch(quiet, /shares az:/);
});
