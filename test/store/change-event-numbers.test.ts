// How the store numbers change events, on each dialect: every database numbers its own events
// (per audience: key administration apart) 1, 2, 3, … in commit order, whatever the writers
// running at once, on PostgreSQL across two processes; events kept from before per-database
// numbers get them when the store migrates, and new ones follow on.
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { type Kysely, Migrator } from "kysely";
import { type Change, changeEventOf } from "../../src/catalog/change-events.js";
import { migrationProvider } from "../../src/store/migrations/index.js";
import { openStore } from "../../src/store/open-store.js";
import type { StoredChangeEvent } from "../../src/store/rows/change-event-rows.js";
import type { Store } from "../../src/store/store.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { tempRoot } from "../helpers/test-server.js";
import { openTestStore, storeDialects } from "../helpers/test-store.js";

const namespaceCreated = (database: string, name: string): Change => ({ kind: "namespace.created", database, object: [name], data: { properties: {} } });

/** Appends `change`'s event in a transaction of its own that stays open a little after, as a catalog write would. */
const append = (store: Store, change: Change) =>
  store.transaction(async (tx) => {
    await tx.appendChangeEvent(await changeEventOf(change));
    await sleep(2);
  });

const everyEvent = (store: Store) => store.rows.listChangeEvents({ after: 0 }, 10_000);

/** Each database's numbers (of audience `read`), in commit order. */
function numbersByDatabase(rows: readonly StoredChangeEvent[]): Record<string, number[]> {
  const numbers: Record<string, number[]> = {};
  for (const row of rows) if (row.audience === "read") (numbers[row.database] ??= []).push(row.database_seq);
  return numbers;
}

const oneToN = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

for (const dialect of storeDialects) {
  test(`${dialect}: 40 events of two databases appended by concurrent transactions → each database numbered 1…20 in commit order, none shared or lost`, async (t) => {
    const store = await openTestStore(t, dialect);
    await Promise.all(Array.from({ length: 40 }, (_, i) => append(store, namespaceCreated(i % 2 === 0 ? "a" : "b", `n${i}`))));
    const rows = await everyEvent(store);
    assert.equal(rows.length, 40);
    assert.deepEqual(numbersByDatabase(rows), { a: oneToN(20), b: oneToN(20) });
  });

  test(`${dialect}: events kept from before per-database numbers → the migration numbers each database's in commit order, key events apart, and new events follow on`, async (t) => {
    const url = dialect === "postgres" ? await freshPostgresDatabase() : undefined;
    const store = await openStore(url, path.join(tempRoot(), "quiver.sqlite"), { migrate: false });
    t.after(() => store.close());
    const db = (store as unknown as { db: Kysely<any> }).db;
    const migrated = await new Migrator({ db, provider: migrationProvider }).migrateTo("0015-table-heads");
    assert.equal(migrated.error, undefined);
    const kept = [
      namespaceCreated("a", "first"),
      namespaceCreated("b", "first"),
      { kind: "key.created", database: "a", subject: "a/api-key/k1", data: { kind: "api-key", key_id: "k1", role: "read" } } as Change,
      namespaceCreated("a", "second"),
      namespaceCreated("b", "second"),
      namespaceCreated("a", "third"),
    ];
    for (const change of kept) {
      const { audience: _audience, ...row } = await changeEventOf(change);
      await db.insertInto("change_events").values(row).execute();
    }
    await store.migrate();
    await append(store, namespaceCreated("a", "fourth"));
    await append(store, { ...(kept[2] as Change), kind: "key.revoked" });
    const rows = await everyEvent(store);
    assert.deepEqual(
      rows.map((row) => [row.database, row.audience, row.database_seq]),
      [
        ["a", "read", 1],
        ["b", "read", 1],
        ["a", "admin", 1],
        ["a", "read", 2],
        ["b", "read", 2],
        ["a", "read", 3],
        ["a", "read", 4],
        ["a", "admin", 2],
      ],
    );
  });
}

test("postgres: two replicas appending events of one database at once → numbers 1…30 with none shared or lost, in commit order", async (t) => {
  const url = await freshPostgresDatabase();
  const replicas = [await openStore(url, ""), await openStore(url, "")];
  t.after(() => Promise.all(replicas.map((store) => store.close())));
  await Promise.all(Array.from({ length: 30 }, (_, i) => append(replicas[i % 2] as Store, namespaceCreated("shared", `n${i}`))));
  const rows = await everyEvent(replicas[0] as Store);
  assert.deepEqual(numbersByDatabase(rows), { shared: oneToN(30) });
});
