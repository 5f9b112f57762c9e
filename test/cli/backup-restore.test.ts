// `quiver backup` and `quiver restore` as an operator runs them: a backup of a catalog a serving
// `quiver serve` keeps writing to, restored into a new PostgreSQL and a new SQLite store, then
// served again over the same data; restores into a store with rows refused; and the check of
// every table's data. Real processes: the CLI, the server, and embedded PostgreSQL.
import assert from "node:assert/strict";
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { gunzipSync, gzipSync } from "node:zlib";
import { arrowStream, readArrow } from "../helpers/arrow.js";
import { type ServeProcess, runCli, spawnServe } from "../helpers/cli-process.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { expectError, expectJson, tempRoot } from "../helpers/test-server.js";
import { stageVersions } from "../versions/fixtures.js";

type Headers = Record<string, string>;

interface BackupRecord {
  table?: string;
  row?: Record<string, unknown>;
  end?: Record<string, number>;
  migrations?: string[];
}

function readBackup(file: string): { header: BackupRecord; rows: (table: string) => Record<string, unknown>[] } {
  const records = gunzipSync(readFileSync(file))
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as BackupRecord);
  return {
    header: records[0] as BackupRecord,
    rows: (table) => records.filter((record) => record.table === table).map((record) => record.row as Record<string, unknown>),
  };
}

function post(url: string, route: string, body: unknown, headers: Headers): Promise<Response> {
  return fetch(`${url}${route}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

function upload(url: string, route: string, ids: number[], headers: Headers): Promise<Response> {
  return fetch(`${url}${route}`, { method: "POST", headers: { "content-type": "application/vnd.apache.arrow.stream", ...headers }, body: arrowStream({ id: Int32Array.from(ids) }) });
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/** A deployment-wide admin key made with `quiver keys create` on the root. */
async function adminKey(root: string): Promise<Headers> {
  const created = await runCli(["keys", "create", "--all-databases", "--role", "admin", "--root", root]);
  assert.equal(created.code, 0, created.stderr);
  return { "x-api-key": created.stdout.trim() };
}

/** Asserts that `server` answers every table `expected` names (id joined by `$`) with its row count, through describe, count and query. */
async function assertTablesServed(server: ServeProcess, expected: Map<string, number>, headers: Headers): Promise<void> {
  for (const [table, rows] of expected) {
    const described = await expectJson<{ location: string; version: number }>(await post(server.url, `/v1/table/${table}/describe`, {}, headers));
    assert.ok(described.version >= 1, `${table}: ${JSON.stringify(described)}`);
    assert.equal(await expectJson<number>(await post(server.url, `/v1/table/${table}/count_rows`, {}, headers)), rows, `rows of ${table}`);
    const answer = await post(server.url, `/v1/table/${table}/query`, { k: 100_000, columns: { column_names: ["id"] } }, headers);
    assert.equal(answer.status, 200, table);
    assert.equal((await readArrow(answer)).numRows, rows, `rows ${table} queries`);
  }
}

/** The tables of the default database a backup holds, as `namespace$name`. */
function tablesIn(backup: ReturnType<typeof readBackup>): string[] {
  return backup
    .rows("tables")
    .map((row) => [...String(row.namespace_path).split("/").filter((part) => part !== ""), String(row.name)].join("$"))
    .sort();
}

/** Writes through `url` until stopped: namespace `<prefix><i>`, its table `t` with i + 1 rows, then 2 more rows in `base$t`. */
function startWriter(url: string, headers: Headers, prefix: string) {
  let made = 0;
  let writing = true;
  const done = (async () => {
    for (let i = 0; writing; i += 1) {
      await expectJson(await post(url, `/v1/namespace/${prefix}${i}/create`, {}, headers));
      await expectJson(await upload(url, `/v1/table/${prefix}${i}$t/create`, range(0, i + 1), headers));
      await expectJson(await upload(url, "/v1/table/base$t/insert", range(1000 + 2 * i, 2), headers));
      made = i + 1;
    }
  })();
  const until = async (count: number) => {
    while (made < count) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  return {
    made: () => made,
    until,
    stop: async () => {
      writing = false;
      await done;
    },
  };
}

/**
 * Runs `quiver backup <args>` while `writer` writes, then stops the writer; asserts that the backup
 * is of one point in time and that the writes went on while and after it ran. Answers the backup
 * and the row counts of the writer's tables it holds.
 */
async function backupWhileWriting(args: string[], file: string, writer: ReturnType<typeof startWriter>, prefix: string) {
  await writer.until(3);
  const madeBefore = writer.made();
  const backedUp = await runCli(["backup", "--to", file, ...args]);
  const madeAfter = writer.made();
  await writer.until(madeAfter + 2);
  await writer.stop();
  assert.equal(backedUp.code, 0, backedUp.stderr);
  assert.match(backedUp.stdout, /^backed up .* \(schema \d{4}-[a-z-]+\) to .*: .*\bdatabases 1\b.*\bnamespaces \d+/);
  // The file is the owner's alone: it holds the signing key, the key hashes and storage options.
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const backup = readBackup(file);

  // Every table has its namespace; every namespace the writer made (but perhaps the last made
  // then) has its table, and no table is missing between the first and the last.
  const namespaces = new Set(backup.rows("namespaces").map((row) => row.path));
  for (const row of backup.rows("tables")) assert.ok(row.namespace_path === "" || namespaces.has(row.namespace_path), `namespace of ${String(row.name)}`);
  const own = new RegExp(`^${prefix}\\d+$`);
  const made = [...namespaces].filter((name) => own.test(String(name))).length;
  const tables = tablesIn(backup).filter((name) => own.test(name.split("$")[0] as string));
  assert.ok(made >= madeBefore && made <= madeAfter + 1, `${made} namespaces: ${madeBefore} made before the backup, ${madeAfter} after`);
  assert.ok(tables.length === made || tables.length === made - 1, `${tables.length} tables for ${made} namespaces`);
  const counts = new Map<string, number>();
  for (let i = 0; i < tables.length; i += 1) {
    assert.ok(tables.includes(`${prefix}${i}$t`), `${prefix}${i}$t in the backup`);
    counts.set(`${prefix}${i}$t`, i + 1);
  }
  assert.ok(writer.made() > made, "the server kept writing after the snapshot");
  return { backup, counts, tables: tablesIn(backup) };
}

/** Rewrites the backup `file` into `to` after `edit` changed its records. */
function rewriteBackup(file: string, to: string, edit: (records: BackupRecord[]) => void): void {
  const records = gunzipSync(readFileSync(file))
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as BackupRecord);
  edit(records);
  writeFileSync(to, gzipSync(records.map((record) => JSON.stringify(record)).join("\n")));
}

let analyticsBackup: Promise<{ root: string; file: string }> | undefined;
after(async () => {
  if (analyticsBackup) rmSync((await analyticsBackup).root, { recursive: true, force: true });
});

/**
 * A SQLite catalog under `root` with a second database, `analytics`, and its backup `file`, made
 * once for the tests that only read them.
 */
function backupOfAnalytics(): Promise<{ root: string; file: string }> {
  analyticsBackup ??= (async () => {
    const root = tempRoot();
    const file = path.join(root, "catalog.backup");
    const created = await runCli(["databases", "create", "analytics", "--root", root]);
    assert.equal(created.code, 0, created.stderr);
    const backedUp = await runCli(["backup", "--to", file, "--root", root]);
    assert.equal(backedUp.code, 0, backedUp.stderr);
    return { root, file };
  })();
  return analyticsBackup;
}

// The cases share nothing but the backup of a catalog with a second database, and spend most of
// their time waiting on the processes they start: they run side by side.
describe("quiver backup and restore", { concurrency: true }, () => {
  test("backup while a serving quiver creates namespaces and tables and inserts rows → one point in time; restored into PostgreSQL and into SQLite, quiver serve answers every table with its rows and the API key still authenticates", { timeout: 240_000 }, async (t) => {
    const root = tempRoot();
    const file = path.join(tempRoot(), "catalog.backup");
    t.after(() => {
      rmSync(root, { recursive: true, force: true });
      rmSync(path.dirname(file), { recursive: true, force: true });
    });
    // The PostgreSQL restored into later is made meanwhile.
    const madePostgres = freshPostgresDatabase();
    madePostgres.catch(() => undefined);
    const key = await adminKey(root);
    const source = await spawnServe(["--port", "0", "--root", root, "--auth", "required"]);
    t.after(() => source.stop("SIGKILL").then(() => undefined));
    await expectJson(await post(source.url, "/v1/namespace/base/create", {}, key));
    await expectJson(await upload(source.url, "/v1/table/base$t/create", range(0, 3), key));

    const first = startWriter(source.url, key, "n");
    const { backup, counts, tables } = await backupWhileWriting(["--root", root], file, first, "n");
    assert.ok((backup.header.migrations ?? []).length > 0);
    assert.equal(backup.rows("signing_keys").length, 1, "the token-signing key is in the backup");
    assert.equal(backup.rows("api_keys").length, 1);
    await source.stop();

    // What the restored catalog must serve: the tables of the backup; their rows are the data's now.
    const expected = new Map<string, number>([["base$t", 3 + 2 * first.made()], ...counts]);
    const data = path.join(root, "databases");

    // SQLite → PostgreSQL.
    const postgres = await madePostgres;
    const intoPostgres = await runCli(["restore", "--from", file, "--store", postgres, "--data", data]);
    assert.equal(intoPostgres.code, 0, intoPostgres.stderr + intoPostgres.stdout);
    assert.match(intoPostgres.stdout, /restored \d+ rows from .* \(taken .* from sqlite\) into postgres:\/\/quiver:\*\*\*@/);
    assert.match(intoPostgres.stdout, new RegExp(`check: the data of all ${tables.length} tables is in storage`));
    const pgRoot = tempRoot();
    t.after(() => rmSync(pgRoot, { recursive: true, force: true }));
    const onPostgres = await spawnServe(["--port", "0", "--root", pgRoot, "--store", postgres, "--data", data, "--auth", "required"]);
    t.after(() => onPostgres.stop("SIGKILL").then(() => undefined));
    await assertTablesServed(onPostgres, expected, key);
    await expectError(await post(onPostgres.url, "/v1/table/base$t/count_rows", {}, {}), 401, 16);
    await expectError(await post(onPostgres.url, "/v1/table/base$t/count_rows", {}, { "x-api-key": `${key["x-api-key"]}x` }), 401, 16);
    // What the server wrote after the snapshot is not in the restored catalog.
    await expectError(await post(onPostgres.url, `/v1/table/n${first.made() - 1}$t/describe`, {}, key), 404, 1);

    // PostgreSQL → SQLite: the restored store takes new writes, and is backed up while taking them.
    const second = startWriter(onPostgres.url, key, "p");
    const fromPostgres = await backupWhileWriting(["--store", postgres], path.join(path.dirname(file), "from-postgres.backup"), second, "p");
    assert.deepEqual(fromPostgres.backup.header.migrations, backup.header.migrations);
    await onPostgres.stop();
    const sqliteRoot = tempRoot();
    t.after(() => rmSync(sqliteRoot, { recursive: true, force: true }));
    const intoSqlite = await runCli(["restore", "--from", path.join(path.dirname(file), "from-postgres.backup"), "--root", sqliteRoot, "--data", data]);
    assert.equal(intoSqlite.code, 0, intoSqlite.stderr + intoSqlite.stdout);
    assert.match(intoSqlite.stdout, /\(taken .* from postgres\)/);
    assert.equal(statSync(path.join(sqliteRoot, "quiver.sqlite")).mode & 0o777, 0o600);
    const onSqlite = await spawnServe(["--port", "0", "--root", sqliteRoot, "--data", data, "--auth", "required"]);
    t.after(() => onSqlite.stop("SIGKILL").then(() => undefined));
    await assertTablesServed(onSqlite, new Map([...expected, ["base$t", 3 + 2 * first.made() + 2 * second.made()], ...fromPostgres.counts]), key);
    await expectError(await post(onSqlite.url, "/v1/table/base$t/count_rows", {}, {}), 401, 16);
  });

  test("restore into a store that holds rows → refused with the tables that hold them, exit code 1, the store unchanged", { timeout: 120_000 }, async () => {
    const { root, file } = await backupOfAnalytics();
    const [intoItself, postgres] = await Promise.all([runCli(["restore", "--from", file, "--root", root]), freshPostgresDatabase()]);
    assert.equal(intoItself.code, 1);
    assert.match(intoItself.stderr, /the target store is not empty \(.*databases: 2 rows.*\); restore only into a new, empty store/);

    const first = await runCli(["restore", "--from", file, "--store", postgres]);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    const again = await runCli(["restore", "--from", file, "--store", postgres]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /the target store is not empty \(.*databases: 2 rows/);
    const listed = await runCli(["databases", "list", "--store", postgres]);
    assert.deepEqual(listed.stdout.trim().split("\n").map((line) => line.split(/\s+/)[0]).sort(), ["analytics", "default"]);
  });

  test("backup --check and restore report a table whose data folder was deleted → exit code 1, the others fine, the restore kept", { timeout: 120_000 }, async (t) => {
    const root = tempRoot();
    const file = path.join(root, "catalog.backup");
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const server = await spawnServe(["--port", "0", "--root", root]);
    t.after(() => server.stop("SIGKILL").then(() => undefined));
    const kept = await expectJson<{ location: string }>(await upload(server.url, "/v1/table/kept/create", range(0, 2), {}));
    const lost = await expectJson<{ location: string }>(await upload(server.url, "/v1/table/lost/create", range(0, 2), {}));
    assert.notEqual(kept.location, lost.location);

    const [healthy, backedUp] = await Promise.all([runCli(["backup", "--check", "--root", root]), runCli(["backup", "--to", file, "--root", root])]);
    assert.equal(healthy.code, 0, healthy.stderr);
    assert.match(healthy.stdout, /check: the data of all 2 tables is in storage/);
    assert.equal(backedUp.code, 0, backedUp.stderr);

    rmSync(lost.location, { recursive: true, force: true });
    const restoredRoot = tempRoot();
    t.after(() => rmSync(restoredRoot, { recursive: true, force: true }));
    const [checked, restored] = await Promise.all([
      runCli(["backup", "--check", "--root", root]),
      runCli(["restore", "--from", file, "--root", restoredRoot, "--data", path.join(root, "databases")]),
    ]);
    assert.equal(checked.code, 1, checked.stdout);
    assert.match(checked.stdout, new RegExp(`missing: table lost of database default at ${lost.location.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&")}: no Lance dataset`));
    assert.doesNotMatch(checked.stdout, /table kept/);
    assert.match(checked.stdout, /check: 1 of 2 tables miss data in storage/);

    assert.equal(restored.code, 1, restored.stderr);
    assert.match(restored.stdout, /restored \d+ rows/);
    assert.match(restored.stdout, /missing: table lost of database default/);
    const again = await runCli(["backup", "--check", "--root", restoredRoot, "--data", path.join(root, "databases")]);
    assert.match(again.stdout, /check: 1 of 2 tables miss data in storage/, "the restore stayed");
  });

  test("restore of a file that is not a whole backup → refused before the store is touched", { timeout: 60_000 }, async (t) => {
    const { root, file } = await backupOfAnalytics();
    const whole = gunzipSync(readFileSync(file)).toString("utf8").split("\n");
    const cut = path.join(root, "cut.backup");
    writeFileSync(cut, gzipSync(whole.slice(0, -2).join("\n")));
    const target = tempRoot();
    t.after(() => rmSync(target, { recursive: true, force: true }));
    const restored = await runCli(["restore", "--from", cut, "--root", target]);
    assert.equal(restored.code, 1);
    assert.match(restored.stderr, /ends before its last line: the backup is incomplete/);
    const listed = await runCli(["databases", "list", "--root", target]);
    assert.deepEqual(listed.stdout.trim().split("\n").map((line) => line.split(/\s+/)[0]), ["default"], "nothing of the cut backup went in");
  });

  test("restore of a backup from an older schema → loaded at its level, then migrated on; of a newer schema → refused, naming the migration", { timeout: 60_000 }, async (t) => {
    const { root, file } = await backupOfAnalytics();

    // A backup taken before databases followed the data location: analytics recorded the default
    // of the time, <old root>/databases/analytics, which that migration turns into "follow".
    const older = path.join(root, "older.backup");
    const follow = "0009-databases-follow-data-location";
    rewriteBackup(file, older, (records) => {
      const header = records[0] as BackupRecord;
      header.migrations = (header.migrations ?? []).slice(0, (header.migrations ?? []).indexOf(follow));
      const analytics = records.find((record) => record.table === "databases" && record.row?.name === "analytics");
      (analytics?.row as Record<string, unknown>).storage_root = "/old/root/databases/analytics";
      // Nor had it the tables of later migrations (0013: the events; 0016: their counters; 0017: grants).
      const later = ["change_events", "change_event_counters", "authz_grants", "authz_role_bindings", "authz_changes"];
      records.splice(0, records.length, ...records.filter((record) => !later.includes(record.table as string)));
      for (const record of records) if (record.end) for (const table of later) delete record.end[table];
      // Nor had its rows the columns later migrations added (0015: heads, read consistency; 0018:
      // automatic maintenance; 0019: outside writers).
      for (const record of records) {
        if (record.table === "databases") {
          delete (record.row as Record<string, unknown>).read_consistency_ms;
          delete (record.row as Record<string, unknown>).auto_maintenance;
          delete (record.row as Record<string, unknown>).outside_writers;
        }
        if (record.table === "tables") {
          delete (record.row as Record<string, unknown>).head_version;
          delete (record.row as Record<string, unknown>).outside_writes_until;
        }
      }
    });
    const newer = path.join(root, "newer.backup");
    rewriteBackup(file, newer, (records) => (records[0] as BackupRecord).migrations?.push("9999-later"));
    const target = tempRoot();
    const fresh = tempRoot();
    t.after(() => {
      rmSync(target, { recursive: true, force: true });
      rmSync(fresh, { recursive: true, force: true });
    });
    // The old default lies outside the new root's data location: the operator names it as theirs.
    const [restored, refused] = await Promise.all([runCli(["restore", "--from", older, "--root", target, "--allow-root", "/old/root"]), runCli(["restore", "--from", newer, "--root", fresh])]);
    assert.equal(restored.code, 0, restored.stderr + restored.stdout);
    const listed = await runCli(["databases", "list", "--root", target]);
    assert.match(listed.stdout, new RegExp(`^analytics\\t.*\\t${path.join(target, "databases", "analytics").replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"));

    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /schema is newer than this Quiver: migration 9999-later unknown here/);
  });

  test("backup --check on a table whose newest version the catalog records lost its manifest (older versions still there) → reported with that version, exit code 1", { timeout: 60_000 }, async (t) => {
    const root = tempRoot();
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const server = await spawnServe(["--port", "0", "--root", root, "--managed-versioning"]);
    t.after(() => server.stop("SIGKILL").then(() => undefined));
    const { location } = await expectJson<{ location: string }>(await post(server.url, "/v1/table/m/declare", {}, {}));
    const committed: string[] = [];
    for (const staged of await stageVersions(location, [[1, 2], [3]])) {
      const answer = await expectJson<{ version: { manifest_path: string } }>(await post(server.url, "/v1/table/m/version/create", { version: staged.version, manifest_path: staged.manifest_path }, {}));
      committed.push(answer.version.manifest_path);
    }
    const healthy = await runCli(["backup", "--check", "--root", root]);
    assert.equal(healthy.code, 0, healthy.stdout + healthy.stderr);

    rmSync(committed[1] as string);
    const checked = await runCli(["backup", "--check", "--root", root]);
    assert.equal(checked.code, 1, checked.stdout);
    assert.match(checked.stdout, /missing: table m of database default at .*: the manifest of version 2, the newest the catalog records, is missing/);
  });
});
