/**
 * Client conformance, rows: insert (append, overwrite), merge-insert, update and delete, with
 * Arrow in and out, and the same expectations for `dir` and `rest`.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Int32, Table, Utf8, tableToIPC, vectorFromArray } from "apache-arrow";
import { idsOf, implementations, openClient, rejectsWith, vectorTable, committed } from "./client-fixtures.js";

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** The rows of `id` → `label`, read back through QueryTable. */
async function labels(ns: Awaited<ReturnType<typeof openClient>>["ns"], id: string[]): Promise<Record<number, string>> {
  const table = await ns.queryTable({ id, columns: { column_names: ["id", "label"] } });
  const out: Record<number, string> = {};
  for (const row of table.toArray()) out[Number(row.id)] = String(row.label);
  return out;
}

for (const impl of implementations) {
  describe(`namespace client (${impl}): rows`, () => {
    test("InsertIntoTable appends a Table, then IPC bytes; mode Overwrite replaces every row → versions 2, 3, 4", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1, 2, 3]));

      assert.deepEqual(committed(await ns.insertIntoTable({ id: ["t"] }, vectorTable([4, 5]))), { version: 2, num_inserted_rows: 2 });
      const appended = await ns.insertIntoTable({ id: ["t"], mode: "append" }, tableToIPC(vectorTable([6]), "stream"));
      assert.equal(appended.version, 3);
      assert.deepEqual(sorted(idsOf(await ns.queryTable({ id: ["t"] }))), [1, 2, 3, 4, 5, 6]);

      const overwritten = await ns.insertIntoTable({ id: ["t"], mode: "Overwrite" }, vectorTable([10, 11]));
      assert.deepEqual(committed(overwritten), { version: 4, num_inserted_rows: 2 });
      assert.deepEqual(sorted(idsOf(await ns.queryTable({ id: ["t"] }))), [10, 11]);
      assert.equal((await ns.describeTable({ id: ["t"] })).version, 4);
    });

    test("InsertIntoTable with a column of another type → code 20; into a missing table → code 4; no data → code 13; rows unchanged", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1, 2]));
      const wrongType = new Table({ id: vectorFromArray(["one"], new Utf8()) });

      await rejectsWith(ns.insertIntoTable({ id: ["t"] }, wrongType), "TableSchemaValidationError");
      await rejectsWith(ns.insertIntoTable({ id: ["missing"] }, vectorTable([3])), "TableNotFound");
      await rejectsWith(ns.insertIntoTable({ id: ["t"] }, undefined as never), "InvalidInput", /needs Arrow data/);
      await rejectsWith(ns.insertIntoTable({ id: ["t"], mode: "sideways" }, vectorTable([3])), "InvalidInput");
      assert.equal(await ns.countTableRows({ id: ["t"] }), 2);
      assert.equal((await ns.describeTable({ id: ["t"] })).version, 1);
    });

    test("MergeInsertIntoTable on id with update-all and insert-all → 1 updated, 2 inserted; the matched row takes the new label", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1, 2, 3]));

      const merged = await ns.mergeInsertIntoTable(
        { id: ["t"], on: ["id"], when_matched_update_all: true, when_not_matched_insert_all: true },
        vectorTable([3, 4, 5], (id) => `new ${id}`),
      );
      assert.deepEqual(committed(merged), { version: 2, num_updated_rows: 1, num_inserted_rows: 2, num_deleted_rows: 0, num_attempts: 1, num_rows: 3 });
      assert.deepEqual(await labels(ns, ["t"]), { 1: "row 1", 2: "row 2", 3: "new 3", 4: "new 4", 5: "new 5" });
    });

    test("MergeInsertIntoTable deleting rows not matched by the source → the counts; insert-only leaves matches as they were", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1, 2, 3]));

      const insertOnly = await ns.mergeInsertIntoTable({ id: ["t"], on: "id", when_not_matched_insert_all: true }, vectorTable([2, 9], () => "other"));
      assert.equal(insertOnly.num_inserted_rows, 1);
      assert.equal(insertOnly.num_updated_rows, 0);
      assert.equal((await labels(ns, ["t"]))[2], "row 2");

      const pruned = await ns.mergeInsertIntoTable(
        { id: ["t"], on: "id", when_matched_update_all: true, when_not_matched_by_source_delete: true },
        vectorTable([1, 9]),
      );
      assert.equal(pruned.num_updated_rows, 2);
      assert.equal(pruned.num_deleted_rows, 2);
      assert.deepEqual(sorted(idsOf(await ns.queryTable({ id: ["t"] }))), [1, 9]);
    });

    test("MergeInsertIntoTable on a missing column → code 12; on a missing table → code 4; rows unchanged", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1, 2]));
      await rejectsWith(ns.mergeInsertIntoTable({ id: ["t"], on: "nope", when_matched_update_all: true }, vectorTable([1])), "TableColumnNotFound");
      await rejectsWith(ns.mergeInsertIntoTable({ id: ["missing"], on: "id" }, vectorTable([1])), "TableNotFound");
      assert.deepEqual(await labels(ns, ["t"]), { 1: "row 1", 2: "row 2" });
    });

    test("UpdateTable with a predicate → updated_rows 2 and a new version; rows outside the predicate unchanged", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1, 2, 3]));

      const updated = await ns.updateTable({ id: ["t"], predicate: "id >= 2", updates: [["label", "'late'"]] });
      assert.equal(updated.updated_rows, 2);
      assert.equal(updated.version, 2);
      assert.deepEqual(await labels(ns, ["t"]), { 1: "row 1", 2: "late", 3: "late" });
    });

    test("UpdateTable with a 3-element update → code 13; on a missing column → code 12; nothing changed", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1]));
      await rejectsWith(ns.updateTable({ id: ["t"], updates: [["label", "'x'", "extra"]] as never }), "InvalidInput");
      await rejectsWith(ns.updateTable({ id: ["t"], updates: [["nope", "'x'"]] }), "TableColumnNotFound");
      assert.deepEqual(await labels(ns, ["t"]), { 1: "row 1" });
      assert.equal((await ns.describeTable({ id: ["t"] })).version, 1);
    });

    test("DeleteFromTable with a predicate → the rows gone and a new version; without a predicate → code 13", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1, 2, 3]));

      const deleted = await ns.deleteFromTable({ id: ["t"], predicate: "id <> 2" });
      assert.equal(deleted.version, 2);
      assert.equal(deleted.num_deleted_rows, 2);
      assert.deepEqual(idsOf(await ns.queryTable({ id: ["t"] })), [2]);
      await rejectsWith(ns.deleteFromTable({ id: ["t"] } as never), "InvalidInput", /predicate/);
      assert.equal(await ns.countTableRows({ id: ["t"] }), 1);
    });

    test("an opened table inserts and queries without an id; a RecordBatch is accepted as data", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createNamespace({ id: ["a"] });
      await ns.createTable({ namespace: ["a"], name: "t" }, vectorTable([1]));
      const table = await ns.openTable({ namespace: ["a"], name: "t" });

      const [batch] = vectorTable([2, 3]).batches;
      assert.equal((await table.insertIntoTable({}, batch!)).num_inserted_rows, 2);
      const ints = new Table({ id: vectorFromArray([4], new Int32()) });
      await table.insertIntoTable({ mode: "append" }, ints);
      assert.deepEqual(sorted(idsOf(await table.queryTable({ columns: { column_names: ["id"] } }))), [1, 2, 3, 4]);
      assert.equal(await ns.countTableRows({ id: ["a", "t"] }), 4);
    });
  });
}
