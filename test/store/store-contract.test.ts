// The metadata store's contract, on each dialect: what the catalog relies on from any store.
// Unique keys, atomic transactions, byte-order keys, numbers as numbers, row locks that make a
// read-modify-write exact, named locks, change notices, migrations run once and a newer schema
// refused. PostgreSQL-only cases cover what only several processes on one store can show.
import { Storages } from "../../src/storage/storages.js";
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import pg from "pg";
import { ensureDatabase } from "../../src/catalog/runtime/database-registry.js";
import { enqueueJob } from "../../src/catalog/jobs/job-queue.js";
import { knownMigrations } from "../../src/store/migrations/index.js";
import { NewerSchema } from "../../src/store/migrations/migrate.js";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/store.js";
import type { StoreChange } from "../../src/store/store-events.js";
import { StoreUnavailable, UniqueViolation } from "../../src/store/store-errors.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { tempRoot } from "../helpers/test-server.js";
import { type StoreDialect, openTestStore, storeDialects } from "../helpers/test-store.js";

const namespace = (path: string) => {
  const parts = path.split("/");
  return { database: "default", path, parent_path: parts.slice(0, -1).join("/"), name: parts.at(-1) as string, properties: {}, created_at: Date.now() };
};

const table = (id: string, name: string, namespacePath = "") => ({
  id,
  database: "default",
  namespace_path: namespacePath,
  name,
  location: `/data/${id}`,
  managed_location: 1,
  properties: {},
  storage_options: {},
  created_at: Date.now(),
  updated_at: Date.now(),
});

async function withDefaultDatabase(t: { after(fn: () => unknown): void }, dialect: StoreDialect): Promise<Store> {
  const store = await openTestStore(t, dialect);
  await ensureDatabase(new Storages(), store, path.join(tempRoot(), "databases"), "default");
  return store;
}

for (const dialect of storeDialects) {
  test(`${dialect}: a second row with the same key is a UniqueViolation and leaves the first as it was`, async (t) => {
    const store = await withDefaultDatabase(t, dialect);
    await store.rows.insertNamespace({ ...namespace("a"), properties: { k: "first" } });
    await assert.rejects(store.rows.insertNamespace({ ...namespace("a"), properties: { k: "second" } }), UniqueViolation);
    await assert.rejects(
      store.transaction((tx) => tx.insertNamespace(namespace("a"))),
      UniqueViolation,
    );
    assert.deepEqual((await store.rows.findNamespace("default", "a"))?.properties, { k: "first" });
  });

  test(`${dialect}: a failing transaction leaves none of its writes`, async (t) => {
    const store = await withDefaultDatabase(t, dialect);
    await assert.rejects(
      store.transaction(async (tx) => {
        await tx.insertNamespace(namespace("kept-out"));
        await tx.insertTable(table("t1", "one"));
        throw new Error("changed my mind");
      }),
      /changed my mind/,
    );
    assert.equal(await store.rows.findNamespace("default", "kept-out"), undefined);
    assert.equal(await store.rows.findTableById("t1"), undefined);
  });

  test(`${dialect}: keys sort and compare by bytes, so subtrees and pages hold whatever the names`, async (t) => {
    const store = await withDefaultDatabase(t, dialect);
    for (const p of ["a", "a/b", "a/b/c", "a-x", "a.y", "ab", "B", "_z", "-y"]) await store.rows.insertNamespace(namespace(p));
    const roots = (await store.rows.listChildNamespaces("default", "", undefined, undefined)).map((row) => row.name);
    assert.deepEqual(roots, ["-y", "B", "_z", "a", "a-x", "a.y", "ab"], "byte order: '-' < 'B' < '_' < 'a'");
    const page = (await store.rows.listChildNamespaces("default", "", "a", 2)).map((row) => row.name);
    assert.deepEqual(page, ["a-x", "a.y"]);
    // The subtree of "a" is a key range; a language collation would pull in "a-x" or "ab".
    assert.equal(await store.rows.deleteNamespaceTree("default", "a"), 3);
    const left = (await store.rows.listChildNamespaces("default", "", undefined, undefined)).map((row) => row.name);
    assert.deepEqual(left, ["-y", "B", "_z", "a-x", "a.y", "ab"]);
  });

  test(`${dialect}: times, counts and versions come back as numbers`, async (t) => {
    const store = await withDefaultDatabase(t, dialect);
    const created = Date.now();
    await store.rows.insertTable({ ...table("t1", "one"), created_at: created });
    const row = await store.rows.findTableById("t1");
    assert.equal(row?.created_at, created);
    assert.equal(typeof row?.created_at, "number");
    assert.equal(await store.rows.countTablesIn("default", ""), 1);
    await store.rows.insertTableVersion({
      table_id: "t1", branch: "", version: 2 ** 40, manifest_path: "/m", staged_path: null, manifest_size: 10,
      e_tag: null, naming_scheme: "V2", metadata: {}, timestamp_millis: created, transaction_id: null,
    });
    assert.equal((await store.rows.listTableVersions("t1", ""))[0]?.version, 2 ** 40);
  });

  test(`${dialect}: concurrent read-modify-writes of one table row under lockTableRow lose no update`, async (t) => {
    const store = await withDefaultDatabase(t, dialect);
    await store.rows.insertTable({ ...table("t1", "one"), properties: { n: "0" } });
    await Promise.all(
      Array.from({ length: 12 }, () =>
        store.transaction(async (tx) => {
          const row = await tx.lockTableRow("t1");
          const n = Number(row?.properties.n);
          await sleep(5); // widen the window between read and write
          await tx.updateTable("t1", { properties: { n: String(n + 1) } });
        }),
      ),
    );
    assert.equal((await store.rows.findTableById("t1"))?.properties.n, "12");
  });

  test(`${dialect}: work under one lock never overlaps; tryWithLock skips a held lock`, async (t) => {
    const store = await openTestStore(t, dialect);
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        store.withLock("k", async () => {
          inside += 1;
          most = Math.max(most, inside);
          await sleep(10);
          inside -= 1;
        }),
      ),
    );
    assert.equal(most, 1);
    const outcome = await store.withLock("held", async () => store.tryWithLock("held", async () => "ran"));
    assert.equal(outcome, undefined, "the lock was held, so the work did not run");
    assert.equal(await store.tryWithLock("free", async () => "ran"), "ran");
  });

  test(`${dialect}: a change notice reaches the publishing process`, async (t) => {
    const store = await openTestStore(t, dialect);
    const heard: StoreChange[] = [];
    store.events.subscribe((change) => heard.push(change));
    await store.events.publish({ topic: "database", key: "sales" });
    assert.deepEqual(heard[0], { topic: "database", key: "sales" });
  });

  test(`${dialect}: concurrent claimers take each job once and never run two jobs of one target`, async (t) => {
    const store = await withDefaultDatabase(t, dialect);
    const targets = ["t0", "t1", "t2", "t3", "t4", "t4", "t4", "t5", "t5", "t6"];
    for (const target of targets) await enqueueJob(store.rows, "default", { kind: "test", target, targetName: target, params: {}, pool: "default" });
    const now = Date.now();
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.rows.claimJob({ workerId: `w${i}`, pools: ["default"], now, leaseMs: 60_000 })),
    );
    const claimed = claims.filter((job) => job !== undefined);
    assert.equal(new Set(claimed.map((job) => job.id)).size, claimed.length, "no job claimed twice");
    const runningTargets = claimed.map((job) => job.target);
    assert.equal(new Set(runningTargets).size, runningTargets.length, "one running job per target");
    // Whatever the interleaving, every distinct target's first job is claimable by the next round.
    let more = await store.rows.claimJob({ workerId: "late", pools: ["default"], now, leaseMs: 60_000 });
    while (more) {
      assert.ok(!runningTargets.includes(more.target), `${more.target} already runs a job`);
      runningTargets.push(more.target);
      more = await store.rows.claimJob({ workerId: "late", pools: ["default"], now, leaseMs: 60_000 });
    }
    assert.deepEqual([...new Set(runningTargets)].sort(), ["t0", "t1", "t2", "t3", "t4", "t5", "t6"]);
  });

  test(`${dialect}: a clone's references to other folders go with its row; a kept folder is recorded once and forgotten once`, async (t) => {
    const store = await withDefaultDatabase(t, dialect);
    await store.rows.insertTable(table("clone", "copy"));
    await store.rows.insertTableDataRef({ table_id: "clone", database: "default", location: "/data/source", branch: "", version: 3 });
    await store.rows.insertTableDataRef({ table_id: "clone", database: "default", location: "/data/first", branch: "dev", version: 2 });
    assert.deepEqual(await store.rows.listDataRefsTo("default", "/data/source"), [
      { table_id: "clone", database: "default", location: "/data/source", branch: "", version: 3 },
    ]);
    await store.rows.insertRetainedData({ database: "default", location: "/data/source", dropped_at: 5 });
    await store.rows.insertRetainedData({ database: "default", location: "/data/source", dropped_at: 6 });
    assert.deepEqual(await store.rows.listRetainedData("default"), [{ database: "default", location: "/data/source", dropped_at: 5 }]);
    await store.rows.deleteTable("clone");
    assert.deepEqual(await store.rows.listDataRefsTo("default", "/data/source"), [], "the references went with the clone's row");
    assert.deepEqual(await store.rows.listTableDataRefs("clone"), []);
    assert.equal(await store.rows.deleteRetainedData("default", "/data/source"), true);
    assert.equal(await store.rows.deleteRetainedData("default", "/data/source"), false);
  });

  test(`${dialect}: a store migrated by a newer Quiver is refused before anything runs`, async (t) => {
    const store = await openTestStore(t, dialect);
    const db = (store as unknown as { db: import("kysely").Kysely<any> }).db;
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-the-future', '2030-01-01T00:00:00.000Z')`.execute(db);
    await assert.rejects(store.migrate(), (error: unknown) => error instanceof NewerSchema && /9999-from-the-future/.test(error.message));
  });
}

test("postgres: replicas that start at once on an empty database migrate it once", async (t) => {
  const url = await freshPostgresDatabase();
  const stores = await Promise.all(Array.from({ length: 4 }, () => openStore(url, "", { migrate: false })));
  t.after(() => Promise.all(stores.map((store) => store.close())));
  const applied = await Promise.all(stores.map((store) => store.migrate()));
  assert.deepEqual(applied.flat().sort(), [...knownMigrations].sort(), "each migration applied by exactly one of them");
  const db = (stores[0] as unknown as { db: import("kysely").Kysely<any> }).db;
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  assert.deepEqual(rows.rows.map((row) => row.name), [...knownMigrations]);
});

/** Two stores on one fresh PostgreSQL database, as two replicas would open it. */
async function twoProcesses(t: { after(fn: () => unknown): void }): Promise<[Store, Store]> {
  const url = await freshPostgresDatabase();
  const stores: [Store, Store] = [await openStore(url, ""), await openStore(url, "")];
  t.after(() => Promise.all(stores.map((store) => store.close())));
  return stores;
}

test("postgres: two processes on one store share locks and hear each other's change notices", async (t) => {
  const [first, second] = await twoProcesses(t);
  const heard: StoreChange[] = [];
  second.events.subscribe((change) => heard.push(change));
  await first.events.publish({ topic: "database", key: "sales" });
  for (let i = 0; i < 100 && heard.length === 0; i += 1) await sleep(20);
  assert.deepEqual(heard, [{ topic: "database", key: "sales" }]);

  let inside = 0;
  let most = 0;
  const work = async () => {
    inside += 1;
    most = Math.max(most, inside);
    await sleep(20);
    inside -= 1;
  };
  await Promise.all([first, second, first, second].map((store) => store.withLock("shared", work)));
  assert.equal(most, 1, "the lock holds across processes");
  const skipped = await first.withLock("busy", () => second.tryWithLock("busy", async () => "ran"));
  assert.equal(skipped, undefined);
});

test("postgres: one replica's row lock keeps another's read-modify-write waiting", async (t) => {
  const [first, second] = await twoProcesses(t);
  await ensureDatabase(new Storages(), first, path.join(tempRoot(), "databases"), "default");
  await first.rows.insertTable({ ...table("t1", "one"), properties: { n: "0" } });
  await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      (i % 2 === 0 ? first : second).transaction(async (tx) => {
        const n = Number((await tx.lockTableRow("t1"))?.properties.n);
        await sleep(5);
        await tx.updateTable("t1", { properties: { n: String(n + 1) } });
      }),
    ),
  );
  assert.equal((await second.rows.findTableById("t1"))?.properties.n, "10");
});

/** Ends, from outside, the sessions of the database at `url` whose last statement matches `like`. */
async function terminateSessions(url: string, like: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      "select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and query like $1",
      [like],
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await admin.end();
  }
}

test("postgres: a lock whose connection the server ends fences its work with StoreUnavailable, another replica takes it, and the process keeps serving", async (t) => {
  const url = await freshPostgresDatabase();
  const stores: [Store, Store] = [await openStore(url, ""), await openStore(url, "")];
  t.after(() => Promise.all(stores.map((store) => store.close())));
  const [first, second] = stores;
  let takenMeanwhile: string | undefined;
  const guarded = first.withLock("held", async (fence) => {
    assert.equal(fence.aborted, false);
    assert.equal(await terminateSessions(url, "%pg_advisory_lock%"), 1);
    for (let i = 0; i < 250 && !fence.aborted; i += 1) await sleep(20);
    // The store released the lock with the session: another replica may take it now, so the
    // work must commit nothing more.
    takenMeanwhile = await second.tryWithLock("held", async () => "taken");
    fence.throwIfAborted();
    return "committed";
  });
  await assert.rejects(guarded, StoreUnavailable);
  assert.equal(takenMeanwhile, "taken");
  assert.equal(await first.withLock("held", async () => "again"), "again", "the lock can be taken again at once");
});

test("postgres: a transaction whose connection the server ends fails as StoreUnavailable and the next one succeeds", async (t) => {
  const url = await freshPostgresDatabase();
  const store = await openStore(url, "");
  t.after(() => store.close());
  await ensureDatabase(new Storages(), store, path.join(tempRoot(), "databases"), "default");
  await assert.rejects(
    store.transaction(async (tx) => {
      await tx.insertNamespace(namespace("lost"));
      // The session sits idle in the transaction, held by Kysely, when the server ends it.
      assert.ok((await terminateSessions(url, "%insert into%namespaces%")) >= 1);
      await sleep(200);
      await tx.insertNamespace(namespace("lost/child"));
    }),
    StoreUnavailable,
  );
  assert.equal(await store.rows.findNamespace("default", "lost"), undefined, "nothing of the lost transaction was committed");
  await store.rows.insertNamespace(namespace("kept"));
  assert.ok(await store.rows.findNamespace("default", "kept"));
});
