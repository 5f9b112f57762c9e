// Where a database's tables go when `quiver serve` is given a data location: databases created
// without a location of their own (by `quiver databases create`, or the default one) follow it,
// a database with its own location keeps it, tables already made keep theirs, and the start-up
// log lists each database's location. Real processes: the CLI, Azurite, the store under test.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { before, test } from "node:test";
import { BlobServiceClient, StorageSharedKeyCredential } from "@azure/storage-blob";
import Sqlite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { up as followDataLocation } from "../../src/store/migrations/0009-databases-follow-data-location.js";
import { arrowStream } from "../helpers/arrow.js";
import { type Azurite, azuriteAccount, azuriteKey } from "../helpers/azurite.js";
import { sharedAzurite } from "../helpers/test-backend.js";
import { runCli, spawnServe } from "../helpers/cli-process.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";
import { testStoreUrl } from "../helpers/test-store.js";

let azurite: Azurite;

before(async () => {
  // The run's Azurite: this file's data is in containers of its own, and nothing here stops it.
  azurite = await sharedAzurite();
});

const jsonLines = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Runs SQL statements on the metadata store of `root`: its SQLite file, or the PostgreSQL database at `url`. */
async function onStore(root: string, url: string | undefined, statements: [string, unknown[]][]): Promise<void> {
  if (url === undefined) {
    const db = new Sqlite(path.join(root, "quiver.sqlite"));
    try {
      for (const [text, params] of statements) db.prepare(text.replace(/\$\d+/g, "?")).run(...params);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const [text, params] of statements) await client.query(text, params);
  } finally {
    await client.end();
  }
}

/** Runs `migration` on the store of `root` (its SQLite file, or the PostgreSQL database at `url`). */
async function migrateStore(root: string, url: string | undefined, migration: (db: Kysely<unknown>) => Promise<void>): Promise<void> {
  const dialect = url === undefined ? new SqliteDialect({ database: new Sqlite(path.join(root, "quiver.sqlite")) }) : new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) });
  const db = new Kysely<unknown>({ dialect });
  try {
    await migration(db);
  } finally {
    await db.destroy();
  }
}

async function createIn(url: string, database: string, table: string, rows: number): Promise<{ location: string }> {
  return expectJson(
    await fetch(`${url}/v1/table/${table}/create`, {
      method: "POST",
      headers: { "content-type": "application/vnd.apache.arrow.stream", "x-svc-database": database },
      body: arrowStream({ id: Int32Array.from({ length: rows }, (_, i) => i) }),
    }),
  );
}

async function describeIn(url: string, database: string, table: string): Promise<{ location: string }> {
  return expectJson(await fetch(`${url}/v1/table/${table}/describe`, { method: "POST", body: "{}", headers: { "content-type": "application/json", "x-svc-database": database } }));
}

async function countIn(url: string, database: string, table: string): Promise<number> {
  return expectJson(await fetch(`${url}/v1/table/${table}/count_rows`, { method: "POST", body: "{}", headers: { "content-type": "application/json", "x-svc-database": database } }));
}

/**
 * A root whose store holds `shop` (no location of its own) and `own` (a folder of its own), made
 * by `quiver databases create` before any server ran, as the auth recipe does.
 */
async function databasesMadeBeforeServing(t: { after(fn: () => unknown): void }): Promise<{ root: string; ownPlace: string; store: string | undefined; target: string[] }> {
  const root = tempRoot();
  const ownPlace = tempRoot("quiver-own-place-");
  t.after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(ownPlace, { recursive: true, force: true });
  });
  const store = await testStoreUrl(root);
  const target = ["--root", root, ...(store ? ["--store", store] : [])];
  for (const args of [["databases", "create", "shop", ...target], ["databases", "create", "own", "--data", ownPlace, ...target]]) {
    const run = await runCli(args, { QUIVER_DATA: undefined, QUIVER_STORE: undefined });
    assert.equal(run.code, 0, run.stderr);
  }
  return { root, ownPlace, store, target };
}

test("databases created before --data follow it: serve --data az:// puts their new tables on the object store and vends az:// locations; a database with its own location keeps it; tables made before keep theirs; the start-up log lists each location", async (t) => {
  // The auth recipe's first steps: databases made before any server ran (the default one too).
  const { root, ownPlace, target } = await databasesMadeBeforeServing(t);

  // First served on local disk, where one table is made.
  const local = await spawnServe(["--port", "0", ...target]);
  const old = await createIn(local.url, "shop", "old", 4);
  assert.ok(old.location.startsWith(path.join(root, "databases", "shop")), old.location);
  assert.equal(await local.stop(), 0);

  const container = `q${randomUUID().replaceAll("-", "").slice(0, 24)}`;
  const data = `az://${container}/lake`;
  const options = Object.entries(azurite.storageOptions).flatMap(([key, value]) => ["--storage-option", `${key}=${value}`]);
  const remote = await spawnServe(["--port", "0", ...target, "--data", data, ...options], { QUIVER_LOG_LEVEL: "info" });
  t.after(() => remote.stop());

  const made = await createIn(remote.url, "shop", "fresh", 3);
  assert.ok(made.location.startsWith(`${data}/shop/tables/`), made.location);
  assert.ok((await describeIn(remote.url, "shop", "fresh")).location.startsWith(`${data}/shop/`), "namespace clients are given the object-store location");
  const inDefault = await createIn(remote.url, "default", "fresh", 2);
  assert.ok(inDefault.location.startsWith(`${data}/default/tables/`), inDefault.location);
  const inOwn = await createIn(remote.url, "own", "fresh", 1);
  assert.ok(inOwn.location.startsWith(path.join(ownPlace, "tables")), `a database with its own location keeps it: ${inOwn.location}`);

  const blobs = new BlobServiceClient(azurite.endpoint, new StorageSharedKeyCredential(azuriteAccount, azuriteKey)).getContainerClient(container);
  const names: string[] = [];
  for await (const blob of blobs.listBlobsFlat({ prefix: "lake/shop/tables/" })) names.push(blob.name);
  assert.ok(names.some((name) => name.includes("/_versions/")), `the new table's objects are in the container: ${names.join(", ")}`);

  assert.equal((await describeIn(remote.url, "shop", "old")).location, old.location, "a table keeps the location it was made at");
  assert.equal(await countIn(remote.url, "shop", "old"), 4);
  assert.equal(await countIn(remote.url, "shop", "fresh"), 3);

  const locations = new Map(jsonLines(remote.stdout()).filter((line) => line.msg === "database location").map((line) => [line.database, line]));
  assert.equal(locations.get("shop")?.location, `${data}/shop`, remote.stdout());
  assert.equal(locations.get("default")?.location, `${data}/default`);
  assert.equal(locations.get("own")?.location, ownPlace);
  assert.equal(locations.get("own")?.own_location, true);
  assert.equal(locations.get("shop")?.own_location, false);
});

test("a store written before databases followed --data: rows holding the default of the time, <root>/databases/<name>, follow --data after the upgrade, even from a root that moved; a database's own location stays", async (t) => {
  const { root, ownPlace, store, target } = await databasesMadeBeforeServing(t);
  // As the previous release left it: each default recorded in full, `shop` from where the root
  // was before it was moved here; then the upgrade's migration.
  await onStore(root, store, [
    ["update databases set storage_root = $1 where name = $2", [path.join(root, "databases", "default"), "default"]],
    ["update databases set storage_root = $1 where name = $2", ["/srv/moved-away/quiver/databases/shop", "shop"]],
  ]);
  await migrateStore(root, store, followDataLocation);

  const data = `az://q${randomUUID().replaceAll("-", "").slice(0, 24)}/lake`;
  const options = Object.entries(azurite.storageOptions).flatMap(([key, value]) => ["--storage-option", `${key}=${value}`]);
  const server = await spawnServe(["--port", "0", ...target, "--data", data, ...options]);
  t.after(() => server.stop());
  assert.ok((await createIn(server.url, "default", "t", 1)).location.startsWith(`${data}/default/`));
  assert.ok((await createIn(server.url, "shop", "t", 1)).location.startsWith(`${data}/shop/`));
  assert.ok((await createIn(server.url, "own", "t", 1)).location.startsWith(ownPlace));
});

test("serve on a local folder: tables written and queried leave no cache/ folder in the root, which holds only what a local server needs", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const server = await spawnServe(["--port", "0", "--root", root]);
  t.after(() => server.stop());
  await createIn(server.url, "default", "local", 3);
  const counted = await fetch(`${server.url}/v1/table/local/count_rows`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  assert.equal(await expectJson(counted), 3);
  assert.equal(existsSync(path.join(root, "cache")), false, `the root holds ${readdirSync(root).join(", ")}`);
});
