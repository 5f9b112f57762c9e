// `quiver migrate` and start-up against the store's schema: migrations applied once and reported,
// a second run finds nothing to do, and a store migrated by a newer Quiver is refused by both
// `quiver migrate` and `quiver serve`, naming the migration it does not know.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { test } from "node:test";
import pg from "pg";
import { knownMigrations } from "../../src/store/migrations/index.js";
import { runCli } from "../helpers/cli-process.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { tempRoot } from "../helpers/test-server.js";

test("quiver migrate on PostgreSQL applies every migration once, then reports the store up to date", async () => {
  const url = await freshPostgresDatabase();
  const first = await runCli(["migrate", "--store", url]);
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(
    first.stdout.trim().split("\n").map((line) => line.split(": applied ")[1]),
    [...knownMigrations],
  );
  assert.ok(!first.stdout.includes(new URL(url).password), "the password is not printed");
  const second = await runCli(["migrate", "--store", url]);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /: up to date$/m);
});

test("a store migrated by a newer Quiver is refused by quiver migrate and quiver serve", async (t) => {
  const url = await freshPostgresDatabase();
  assert.equal((await runCli(["migrate", "--store", url])).code, 0);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("insert into kysely_migration (name, timestamp) values ('9999-from-a-later-release', now()::text)");
  await client.end();
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));

  const migrate = await runCli(["migrate", "--store", url]);
  assert.equal(migrate.code, 1);
  assert.match(migrate.stderr, /newer than this Quiver: migration 9999-from-a-later-release unknown/);
  const serve = await runCli(["serve", "--port", "0", "--root", root, "--store", url]);
  assert.equal(serve.code, 1);
  assert.match(serve.stderr, /newer than this Quiver/);
});

test("quiver migrate on a root folder migrates its SQLite file; a malformed --store is refused", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const run = await runCli(["migrate", "--root", root]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim().split("\n").length, knownMigrations.length);
  const bad = await runCli(["migrate", "--store", "mysql://user:secret@host/db"]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /--store must be a postgres:\/\/ URL/);
  assert.ok(!bad.stderr.includes("secret"), "the password is not echoed");
});
