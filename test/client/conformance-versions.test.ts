/**
 * Client conformance, history: versions, tags, branches, transactions and atomic multi-table
 * commits, with the same expectations for `dir` and `rest`.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, test } from "node:test";
import { readLanceAt, stageVersion } from "../versions/fixtures.js";
import { idsOf, implementations, openClient, rejectsWith, vectorTable, committed } from "./client-fixtures.js";

type Namespace = Awaited<ReturnType<typeof openClient>>["ns"];

/** Table `t` with versions 1 (rows 1, 2), 2 (+3) and 3 (+4). */
async function threeVersions(ns: Namespace): Promise<string> {
  const created = await ns.createTable({ id: ["t"] }, vectorTable([1, 2]));
  await ns.insertIntoTable({ id: ["t"] }, vectorTable([3]));
  await ns.insertIntoTable({ id: ["t"] }, vectorTable([4]));
  return created.location as string;
}

const numbers = (listed: { versions: { version: number }[] }) => listed.versions.map((entry) => entry.version);

for (const impl of implementations) {
  describe(`namespace client (${impl}): versions, tags, branches, transactions`, () => {
    test("ListTableVersions → 1..3 ascending, descending with limit pages; DescribeTableVersion → the latest or the one asked; missing → code 11", async (t) => {
      const { ns } = await openClient(t, impl);
      const location = await threeVersions(ns);

      const listed = await ns.listTableVersions({ id: ["t"] });
      assert.deepEqual(numbers(listed), [1, 2, 3]);
      assert.ok(listed.versions.every((entry) => entry.manifest_path.startsWith(`${location}/_versions/`)));
      const first = await ns.listTableVersions({ id: ["t"], descending: true, limit: 2 });
      assert.deepEqual(numbers(first), [3, 2]);
      assert.deepEqual(numbers(await ns.listTableVersions({ id: ["t"], descending: true, limit: 2, page_token: first.page_token })), [1]);

      assert.equal((await ns.describeTableVersion({ id: ["t"] })).version.version, 3);
      const one = await ns.describeTableVersion({ id: ["t"], version: 1 });
      assert.deepEqual(one.version, listed.versions[0]);
      await rejectsWith(ns.describeTableVersion({ id: ["t"], version: 9 }), "TableVersionNotFound");
      await rejectsWith(ns.listTableVersions({ id: ["missing"] }), "TableNotFound");
    });

    test("RestoreTable to version 1 → version 4 holds version 1's rows; the history is kept", async (t) => {
      const { ns } = await openClient(t, impl);
      await threeVersions(ns);

      assert.deepEqual(committed(await ns.restoreTable({ id: ["t"], version: 1 })), { version: 4 });
      assert.deepEqual(idsOf(await ns.queryTable({ id: ["t"] })), [1, 2]);
      assert.deepEqual(numbers(await ns.listTableVersions({ id: ["t"] })), [1, 2, 3, 4]);
      assert.deepEqual(idsOf(await ns.queryTable({ id: ["t"], version: 3 })), [1, 2, 3, 4]);
    });

    test("CreateTableTag / ListTableTags / GetTableTagVersion / UpdateTableTag / DeleteTableTag → the tag follows; its version stays", async (t) => {
      const { ns } = await openClient(t, impl);
      await threeVersions(ns);

      assert.equal(typeof (await ns.createTableTag({ id: ["t"], tag: "first", version: 1 })).transaction_id, "string");
      await ns.createTableTag({ id: ["t"], tag: "second", version: 2 });
      const listed = await ns.listTableTags({ id: ["t"] });
      assert.deepEqual(Object.keys(listed.tags), ["first", "second"]);
      assert.equal(listed.tags.first?.version, 1);
      assert.ok((listed.tags.first?.manifestSize ?? 0) > 0);
      const paged = await ns.listTableTags({ id: ["t"], limit: 1 });
      assert.deepEqual(Object.keys(paged.tags), ["first"]);
      assert.deepEqual(Object.keys((await ns.listTableTags({ id: ["t"], limit: 1, page_token: paged.page_token })).tags), ["second"]);

      assert.deepEqual(await ns.getTableTagVersion({ id: ["t"], tag: "first" }), { version: 1, branch: "main" });
      await ns.updateTableTag({ id: ["t"], tag: "first", version: 3 });
      assert.deepEqual(await ns.getTableTagVersion({ id: ["t"], tag: "first" }), { version: 3, branch: "main" });
      assert.deepEqual(idsOf(await ns.queryTable({ id: ["t"], version: 2 })), [1, 2, 3]);

      await ns.deleteTableTag({ id: ["t"], tag: "second" });
      assert.deepEqual(Object.keys((await ns.listTableTags({ id: ["t"] })).tags), ["first"]);
      assert.deepEqual(numbers(await ns.listTableVersions({ id: ["t"] })), [1, 2, 3], "deleting a tag keeps its version");
    });

    test("tag errors: missing tag → code 8, taken name → code 9, missing version → code 11, version -1 → code 13; tags unchanged", async (t) => {
      const { ns } = await openClient(t, impl);
      await threeVersions(ns);
      await ns.createTableTag({ id: ["t"], tag: "kept", version: 2 });

      await rejectsWith(ns.getTableTagVersion({ id: ["t"], tag: "ghost" }), "TableTagNotFound");
      await rejectsWith(ns.updateTableTag({ id: ["t"], tag: "ghost", version: 1 }), "TableTagNotFound");
      await rejectsWith(ns.deleteTableTag({ id: ["t"], tag: "ghost" }), "TableTagNotFound");
      await rejectsWith(ns.createTableTag({ id: ["t"], tag: "kept", version: 1 }), "TableTagAlreadyExists");
      await rejectsWith(ns.createTableTag({ id: ["t"], tag: "future", version: 9 }), "TableVersionNotFound");
      await rejectsWith(ns.updateTableTag({ id: ["t"], tag: "kept", version: 9 }), "TableVersionNotFound");
      await rejectsWith(ns.createTableTag({ id: ["t"], tag: "negative", version: -1 }), "InvalidInput");
      await rejectsWith(ns.listTableTags({ id: ["missing"] }), "TableNotFound");
      const tags = (await ns.listTableTags({ id: ["t"] })).tags;
      assert.deepEqual(Object.keys(tags), ["kept"]);
      assert.equal(tags.kept?.version, 2);
      assert.deepEqual(await ns.getTableTagVersion({ id: ["t"], tag: "kept" }), { version: 2, branch: "main" });
    });

    test("CreateTableBranch at version 2 → listed with parentVersion 2; a write on the branch is invisible on main; DeleteTableBranch → gone", async (t) => {
      const { ns } = await openClient(t, impl);
      await threeVersions(ns);

      await ns.createTableBranch({ id: ["t"], name: "dev", from_version: 2 });
      const listed = await ns.listTableBranches({ id: ["t"] });
      assert.deepEqual(Object.keys(listed.branches), ["dev"]);
      assert.equal(listed.branches.dev?.parentVersion, 2);
      assert.equal(listed.branches.dev?.parentBranch, undefined);

      const written = await ns.insertIntoTable({ id: ["t"], branch: "dev" }, vectorTable([100]));
      assert.equal(written.num_inserted_rows, 1);
      assert.deepEqual(idsOf(await ns.queryTable({ id: ["t"], branch: "dev" })), [1, 2, 3, 100]);
      assert.deepEqual(idsOf(await ns.queryTable({ id: ["t"] })), [1, 2, 3, 4]);
      assert.equal(await ns.countTableRows({ id: ["t"], branch: "dev" }), 4);
      assert.equal(await ns.countTableRows({ id: ["t"] }), 4);
      assert.deepEqual(numbers(await ns.listTableVersions({ id: ["t"] })), [1, 2, 3]);

      await ns.deleteTableBranch({ id: ["t"], name: "dev" });
      assert.deepEqual((await ns.listTableBranches({ id: ["t"] })).branches, {});
      await rejectsWith(ns.queryTable({ id: ["t"], branch: "dev" }), "TableBranchNotFound");
      assert.deepEqual(idsOf(await ns.queryTable({ id: ["t"] })), [1, 2, 3, 4]);
    });

    test("branch errors: taken name → code 23, missing source branch → code 22, bad name → code 13, delete missing → code 22, insert on a missing branch → code 22", async (t) => {
      const { ns } = await openClient(t, impl);
      await threeVersions(ns);
      await ns.createTableBranch({ id: ["t"], name: "dev" });

      await rejectsWith(ns.createTableBranch({ id: ["t"], name: "dev" }), "TableBranchAlreadyExists");
      await rejectsWith(ns.createTableBranch({ id: ["t"], name: "x", from_branch: "ghost" }), "TableBranchNotFound");
      await rejectsWith(ns.createTableBranch({ id: ["t"], name: "bad/name" }), "InvalidInput");
      await rejectsWith(ns.deleteTableBranch({ id: ["t"], name: "ghost" }), "TableBranchNotFound");
      await rejectsWith(ns.insertIntoTable({ id: ["t"], branch: "ghost" }, vectorTable([5])), "TableBranchNotFound");
      assert.deepEqual(Object.keys((await ns.listTableBranches({ id: ["t"] })).branches), ["dev"]);
      assert.equal(await ns.countTableRows({ id: ["t"] }), 4);
    });

    test("DescribeTransaction of the id BatchDeleteTableVersions answered → Succeeded with its properties; AlterTransaction sets a property; a finished status → code 14", async (t) => {
      const { ns } = await openClient(t, impl);
      await threeVersions(ns);

      const deleted = await ns.batchDeleteTableVersions({ id: ["t"], ranges: [{ start_version: 1, end_version: 2 }] });
      assert.equal(deleted.deleted_count, 1);
      assert.deepEqual(numbers(await ns.listTableVersions({ id: ["t"] })), [2, 3]);
      const transactionId = deleted.transaction_id as string;

      const described = await ns.describeTransaction({ transaction_id: transactionId });
      assert.equal(described.status, "Succeeded");
      assert.equal(described.properties?.operation, "BatchDeleteTableVersions");
      assert.equal(described.properties?.table, "t");

      const altered = await ns.alterTransaction({ transaction_id: transactionId, actions: [{ setPropertyAction: { key: "reviewed", value: "yes" } }] });
      assert.equal(altered.properties?.reviewed, "yes");
      assert.equal((await ns.describeTransaction({ transaction_id: transactionId })).properties?.reviewed, "yes");
      await rejectsWith(ns.alterTransaction({ transaction_id: transactionId, actions: [{ setStatusAction: { status: "Failed" } }] }), "ConcurrentModification");
    });

    test("transaction errors: unknown id → code 10; no id → code 13; no actions → code 13", async (t) => {
      const { ns } = await openClient(t, impl);
      await rejectsWith(ns.describeTransaction({ transaction_id: "no-such-transaction" }), "TransactionNotFound");
      await rejectsWith(ns.alterTransaction({ transaction_id: "no-such-transaction", actions: [{ setStatusAction: { status: "Canceled" } }] }), "TransactionNotFound");
      await rejectsWith(ns.describeTransaction({} as never), "InvalidInput", /transaction_id/);
      await rejectsWith(ns.alterTransaction({ transaction_id: "x", actions: [] }), "InvalidInput");
    });

    test("BatchCreateTableVersions with one conflicting entry → code 14 and nothing created; without it → every version, one transaction", async (t) => {
      const { ns } = await openClient(t, impl);
      const a = (await ns.declareTable({ id: ["a"] })).location as string;
      await ns.createNamespace({ id: ["ns"] });
      const b = (await ns.declareTable({ id: ["ns", "b"] })).location as string;
      // Two writers staged version 1 of `a` (real Lance manifests); the first commits it.
      const a1 = await stageVersion(a, [1]);
      const lateA1 = await stageVersion(a, [91]);
      await ns.createTableVersion({ id: ["a"], ...a1 });

      const stagedB = await stageVersion(b, [10]);
      await rejectsWith(
        ns.batchCreateTableVersions({
          entries: [
            { id: ["ns", "b"], ...stagedB },
            { id: ["a"], ...lateA1 },
          ],
        }),
        "ConcurrentModification",
      );
      assert.deepEqual(numbers(await ns.listTableVersions({ id: ["ns", "b"] })), []);
      assert.deepEqual(numbers(await ns.listTableVersions({ id: ["a"] })), [1]);
      assert.ok(existsSync(`/${stagedB.manifest_path}`), "the staged manifest stays with its writer");

      const created = await ns.batchCreateTableVersions({
        entries: [
          { id: ["ns", "b"], ...stagedB },
          { id: ["a"], ...(await stageVersion(a, [2])), metadata: { note: "batch" } },
        ],
      });
      assert.deepEqual(numbers(created), [1, 2]);
      // Lance reads first: the catalog's own readers would finalize anything the batch left pending.
      assert.deepEqual(await readLanceAt(a), { version: 2, ids: [1, 2] });
      assert.deepEqual(await readLanceAt(b), { version: 1, ids: [10] });
      assert.deepEqual(numbers(await ns.listTableVersions({ id: ["ns", "b"] })), [1]);
      assert.deepEqual((await ns.describeTableVersion({ id: ["a"], version: 2 })).version.metadata, { note: "batch" });
      const transaction = await ns.describeTransaction({ transaction_id: created.transaction_id as string });
      assert.equal(transaction.properties?.operation, "BatchCreateTableVersions");
    });

    test("BatchCommitTables declaring a table and giving it version 1 → both results; a conflicting operation → code 14, nothing applied", async (t) => {
      const { ns, storageRoot } = await openClient(t, impl);
      const location = `${storageRoot}/tables/fresh.lance`;
      const first = await stageVersion(location, [1]);
      const late = await stageVersion(location, [2]);

      const committed = await ns.batchCommitTables({
        operations: [
          { declare_table: { id: ["fresh"], location } },
          { create_table_version: { id: ["fresh"], ...first } },
        ],
      });
      assert.deepEqual(await readLanceAt(location), { version: 1, ids: [1] });
      assert.equal(committed.results[0]?.declare_table?.location, location);
      assert.equal(committed.results[1]?.create_table_version?.version?.version, 1);
      assert.deepEqual(numbers(await ns.listTableVersions({ id: ["fresh"] })), [1]);

      await rejectsWith(
        ns.batchCommitTables({
          operations: [
            { declare_table: { id: ["other"] } },
            { create_table_version: { id: ["fresh"], ...late } },
          ],
        }),
        "ConcurrentModification",
      );
      await rejectsWith(ns.tableExists({ id: ["other"] }), "TableNotFound");
      assert.deepEqual(numbers(await ns.listTableVersions({ id: ["fresh"] })), [1]);
      assert.deepEqual(await readLanceAt(location), { version: 1, ids: [1] });
    });
  });
}
