/**
 * Client conformance, tables: create, describe, list, rename, drop, register, deregister,
 * declare and open, with the same expectations for `dir` and `rest`.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { RecordBatchStreamWriter, Table, tableToIPC } from "apache-arrow";
import { implementations, openClient, rejectsWith, rowCountAt, sampleSchema, sampleTable, committed } from "./client-fixtures.js";

const fieldNames = (schema: unknown) => (schema as { fields: { name: string }[] }).fields.map((field) => field.name);

for (const impl of implementations) {
  describe(`namespace client (${impl}): tables`, () => {
    test("CreateTable from an apache-arrow Table with a namespace input → version 1, schema and rows; listed by ListTables and ListAllTables", async (t) => {
      const { ns, storageRoot } = await openClient(t, impl);
      await ns.createNamespace({ id: ["sales"] });

      const created = await ns.createTable({ namespace: ["sales"], name: "orders", properties: { team: "eu" } }, sampleTable());
      assert.equal(created.version, 1);
      assert.deepEqual(created.properties, { team: "eu" });
      assert.ok(created.location?.startsWith(storageRoot), `${created.location} lies under ${storageRoot}`);

      const described = await ns.describeTable({ id: ["sales", "orders"] });
      assert.equal(described.version, 1);
      assert.equal(described.location, created.location);
      assert.deepEqual(fieldNames(described.schema), ["id", "score", "label"]);
      assert.deepEqual(described.properties, { team: "eu" });
      assert.equal(await rowCountAt(created.location as string), 3);

      assert.deepEqual(await ns.listTables({ id: ["sales"] }), { tables: ["orders"] });
      assert.deepEqual(await ns.listTables(), { tables: [] });
      assert.deepEqual(await ns.listAllTables(), { tables: ["sales$orders"] });
    });

    test("CreateTable from a RecordBatch list, IPC stream bytes and IPC file bytes → each table holds the rows", async (t) => {
      const { ns } = await openClient(t, impl);
      const table = sampleTable();
      const inputs = {
        batches: table.batches,
        stream: tableToIPC(table, "stream"),
        file: tableToIPC(table, "file"),
      };
      for (const [name, data] of Object.entries(inputs)) {
        const created = await ns.createTable({ id: [name] }, data);
        assert.equal(await rowCountAt(created.location as string), 3, name);
      }
      assert.deepEqual((await ns.listTables()).tables.sort(), ["batches", "file", "stream"]);
    });

    test("CreateTable from a schema-only Arrow table → an empty table with that schema", async (t) => {
      const { ns } = await openClient(t, impl);
      const writer = new RecordBatchStreamWriter();
      writer.reset(undefined, sampleSchema);
      writer.finish();
      const created = await ns.createTable({ id: ["empty"] }, writer.toUint8Array(true));
      assert.equal(await rowCountAt(created.location as string), 0);
      assert.deepEqual(fieldNames((await ns.describeTable({ id: ["empty"] })).schema), ["id", "score", "label"]);
    });

    test("CreateTable on an existing table → code 5; ExistOk keeps version 1; Overwrite writes version 2 with the new rows", async (t) => {
      const { ns } = await openClient(t, impl);
      const first = await ns.createTable({ id: ["t"] }, sampleTable());

      await rejectsWith(ns.createTable({ id: ["t"] }, sampleTable(10)), "TableAlreadyExists", /already exists/);
      assert.equal((await ns.createTable({ id: ["t"], mode: "ExistOk" }, sampleTable(10))).version, 1);
      assert.equal((await ns.describeTable({ id: ["t"] })).version, 1);

      const half = new Table(sampleTable(10).slice(0, 2).batches);
      const overwritten = await ns.createTable({ id: ["t"], mode: "overwrite" }, half);
      assert.equal(overwritten.version, 2);
      assert.equal(overwritten.location, first.location);
      assert.equal(await rowCountAt(first.location as string), 2);
    });

    test("CreateTable with bytes that are not Arrow, without data, or under a missing namespace → codes 13, 13, 1; nothing listed", async (t) => {
      const { ns } = await openClient(t, impl);
      await rejectsWith(ns.createTable({ id: ["t"] }, new TextEncoder().encode("not arrow at all")), "InvalidInput");
      await rejectsWith(ns.createTable({ id: ["t"] }, undefined as never), "InvalidInput", /needs Arrow data/);
      await rejectsWith(ns.createTable({ id: ["t"] }, { rows: [] } as never), "InvalidInput", /apache-arrow/);
      await rejectsWith(ns.createTable({ namespace: ["nowhere"], name: "t" }, sampleTable()), "NamespaceNotFound");
      assert.deepEqual(await ns.listAllTables(), { tables: [] });
    });

    test("DescribeTable, TableExists and DropTable of a missing table → code 4; without an identifier → code 13", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createNamespace({ id: ["a"] });
      await rejectsWith(ns.describeTable({ id: ["a", "missing"] }), "TableNotFound");
      await rejectsWith(ns.tableExists({ id: ["a", "missing"] }), "TableNotFound");
      await rejectsWith(ns.dropTable({ namespace: ["a"], name: "missing" }), "TableNotFound");
      await rejectsWith(ns.describeTable({} as never), "InvalidInput", /table identifier/);
      await rejectsWith(ns.dropTable({ id: ["a", "x"], name: "x" } as never), "InvalidInput", /either/);
    });

    test("DeclareTable → exists and is listed, is_only_declared true, left out with include_declared false; detailed describe → code 19", async (t) => {
      const { ns, storageRoot } = await openClient(t, impl);
      const declared = await ns.declareTable({ id: ["reserved"], properties: { purpose: "later" } });
      assert.ok(declared.location?.startsWith(storageRoot));
      assert.equal(existsSync(declared.location as string), false, "declare writes no data");

      assert.equal(await ns.tableExists({ id: ["reserved"] }), undefined);
      const described = await ns.describeTable({ id: ["reserved"], check_declared: true });
      assert.equal(described.is_only_declared, true);
      assert.equal(described.version, undefined);
      assert.deepEqual(await ns.listTables(), { tables: ["reserved"] });
      assert.deepEqual(await ns.listTables({ include_declared: false }), { tables: [] });
      await rejectsWith(ns.describeTable({ id: ["reserved"], load_detailed_metadata: true }), "InvalidTableState");
      await rejectsWith(ns.declareTable({ id: ["reserved"] }), "TableAlreadyExists");

      // CreateTable fills a declared table at its reserved location.
      const filled = await ns.createTable({ id: ["reserved"] }, sampleTable());
      assert.equal(filled.location, declared.location);
      assert.equal((await ns.describeTable({ id: ["reserved"], check_declared: true })).is_only_declared, false);
    });

    test("RenameTable with a namespace input into another namespace → new id describes the same data, old id → code 4", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createNamespace({ id: ["a"] });
      await ns.createNamespace({ id: ["b"] });
      const created = await ns.createTable({ namespace: ["a"], name: "t" }, sampleTable());

      assert.deepEqual(await ns.renameTable({ namespace: ["a"], name: "t", new_table_name: "u", new_namespace_id: ["b"] }), {});
      const moved = await ns.describeTable({ id: ["b", "u"] });
      assert.equal(moved.location, created.location);
      assert.equal(moved.version, 1);
      await rejectsWith(ns.describeTable({ id: ["a", "t"] }), "TableNotFound");
      assert.deepEqual(await ns.listAllTables(), { tables: ["b$u"] });
    });

    test("RenameTable onto a taken name → code 5, into a missing namespace → code 1; both tables unchanged", async (t) => {
      const { ns } = await openClient(t, impl);
      const one = await ns.createTable({ id: ["one"] }, sampleTable());
      const two = await ns.createTable({ id: ["two"] }, sampleTable());

      await rejectsWith(ns.renameTable({ id: ["one"], new_table_name: "two" }), "TableAlreadyExists");
      await rejectsWith(ns.renameTable({ id: ["one"], new_table_name: "x", new_namespace_id: ["nowhere"] }), "NamespaceNotFound");
      await rejectsWith(ns.renameTable({ id: ["one"] } as never), "InvalidInput", /new_table_name/);
      assert.equal((await ns.describeTable({ id: ["one"] })).location, one.location);
      assert.equal((await ns.describeTable({ id: ["two"] })).location, two.location);
    });

    test("DeregisterTable keeps the files; RegisterTable at that location brings the table back; registering it twice → code 5", async (t) => {
      const { ns } = await openClient(t, impl);
      const created = await ns.createTable({ id: ["t"] }, sampleTable());
      const location = created.location as string;

      const deregistered = await ns.deregisterTable({ id: ["t"] });
      assert.deepEqual(deregistered.id, ["t"]);
      assert.equal(deregistered.location, location);
      assert.equal(existsSync(location), true, "deregister keeps the data");
      await rejectsWith(ns.describeTable({ id: ["t"] }), "TableNotFound");

      const registered = await ns.registerTable({ id: ["back"], location, properties: { restored: "yes" } });
      assert.equal(registered.location, location);
      const described = await ns.describeTable({ id: ["back"] });
      assert.equal(described.version, 1);
      assert.deepEqual(described.properties, { restored: "yes" });
      await rejectsWith(ns.registerTable({ id: ["back"], location }), "TableAlreadyExists");
    });

    test("RegisterTable at a location outside the storage root or without a Lance table → code 13, nothing registered", async (t) => {
      const { ns, storageRoot } = await openClient(t, impl);
      await rejectsWith(ns.registerTable({ id: ["x"], location: path.join(storageRoot, "..", "..", "elsewhere.lance") }), "InvalidInput");
      await rejectsWith(ns.registerTable({ id: ["x"], location: path.join(storageRoot, "tables", "none.lance") }), "InvalidInput");
      assert.deepEqual(await ns.listAllTables(), { tables: [] });
    });

    test("DropTable with a namespace input → data deleted, the table gone (code 4), its namespace kept", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createNamespace({ id: ["a"] });
      const created = await ns.createTable({ namespace: ["a"], name: "t" }, sampleTable());
      const kept = await ns.createTable({ namespace: ["a"], name: "keep" }, sampleTable());

      const dropped = await ns.dropTable({ namespace: ["a"], name: "t" });
      assert.deepEqual(dropped.id, ["a", "t"]);
      assert.equal(dropped.location, created.location);
      assert.equal(existsSync(created.location as string), false);
      await rejectsWith(ns.describeTable({ id: ["a", "t"] }), "TableNotFound");
      await rejectsWith(ns.dropTable({ id: ["a", "t"] }), "TableNotFound");
      assert.deepEqual(await ns.listTables({ id: ["a"] }), { tables: ["keep"] });
      assert.equal(await rowCountAt(kept.location as string), 3);
    });

    test("RestoreTable to version 1 after an overwrite → a new version 3 with the first rows", async (t) => {
      const { ns } = await openClient(t, impl);
      const created = await ns.createTable({ id: ["t"] }, sampleTable());
      await ns.createTable({ id: ["t"], mode: "Overwrite" }, new Table(sampleTable().slice(0, 1).batches));

      assert.deepEqual(committed(await ns.restoreTable({ id: ["t"], version: 1 })), { version: 3 });
      assert.equal(await rowCountAt(created.location as string), 3);
      await rejectsWith(ns.restoreTable({ id: ["t"], version: 99 }), "TableVersionNotFound");
    });

    test("openTable with a namespace input → a handle whose table methods need no id; a missing table → code 4", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createNamespace({ id: ["a"] });
      await ns.createTable({ namespace: ["a"], name: "t" }, sampleTable());

      const table = await ns.openTable({ namespace: ["a"], name: "t" });
      assert.deepEqual(table.id, ["a", "t"]);
      assert.deepEqual(table.namespace, ["a"]);
      assert.equal(table.name, "t");
      assert.equal(table.description.version, 1);
      assert.deepEqual(fieldNames(table.description.schema), ["id", "score", "label"]);
      assert.equal((await table.describeTable({ with_table_uri: true })).table_uri?.startsWith("file://"), true);
      await table.renameTable({ new_table_name: "renamed" });
      assert.deepEqual(await ns.listTables({ id: ["a"] }), { tables: ["renamed"] });

      await rejectsWith(ns.openTable({ namespace: ["a"], name: "t" }), "TableNotFound");
      await rejectsWith(ns.openTable({ id: ["a", "renamed"], version: 7 }), "TableVersionNotFound");
    });
  });
}
