/**
 * Client conformance, schema evolution and indexes: add, alter and drop columns, field and
 * schema metadata, and BTREE index create / list / stats / drop, with the same expectations for
 * `dir` and `rest`.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { columnsOf, implementations, openClient, rejectsWith, vectorTable } from "./client-fixtures.js";

type SchemaField = { name: string; nullable?: boolean; type?: { type?: string }; metadata?: Record<string, string> };
const fieldsOf = (schema: unknown) => (schema as { fields: SchemaField[] }).fields;

for (const impl of implementations) {
  describe(`namespace client (${impl}): schema evolution and indexes`, () => {
    test("AlterTableAddColumns, AlterTableAlterColumns and AlterTableDropColumns → one version each; the schema and rows follow", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1, 2]));

      assert.deepEqual(await ns.alterTableAddColumns({ id: ["t"], new_columns: [{ name: "double", expression: "id * 2" }] }), { version: 2 });
      const doubled = await ns.queryTable({ id: ["t"], columns: { column_names: ["id", "double"] } });
      assert.deepEqual(doubled.toArray().map((row) => Number(row.double)), [2, 4]);

      assert.deepEqual(await ns.alterTableAlterColumns({ id: ["t"], alterations: [{ path: "label", rename: "title" }, { path: "double", data_type: "int64" }] }), { version: 3 });
      const dropped = await ns.alterTableDropColumns({ id: ["t"], columns: ["vec"] });
      assert.equal(dropped.version, 4);

      const described = await ns.describeTable({ id: ["t"] });
      assert.equal(described.version, 4);
      assert.deepEqual(fieldsOf(described.schema).map((field) => field.name), ["id", "title", "double"]);
      assert.equal(fieldsOf(described.schema)[2]?.type?.type, "int64");
      assert.deepEqual(columnsOf(await ns.queryTable({ id: ["t"] })), ["id", "title", "double"]);
    });

    test("schema changes naming a missing column → code 12; an invalid expression → code 13; on a missing table → code 4; version unchanged", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1]));
      await rejectsWith(ns.alterTableDropColumns({ id: ["t"], columns: ["nope"] }), "TableColumnNotFound");
      await rejectsWith(ns.alterTableAlterColumns({ id: ["t"], alterations: [{ path: "nope", rename: "x" }] }), "TableColumnNotFound");
      await rejectsWith(ns.alterTableAddColumns({ id: ["t"], new_columns: [{ name: "x", expression: "id +* 2" }] }), "InvalidInput");
      await rejectsWith(ns.alterTableAddColumns({ id: ["missing"], new_columns: [{ name: "x", expression: "1" }] }), "TableNotFound");
      assert.equal((await ns.describeTable({ id: ["t"] })).version, 1);
    });

    test("UpdateFieldMetadata merges keys into a field → the answer and DescribeTable show them; UpdateTableSchemaMetadata (bare map) adds keys, changing one → code 0, on a missing table → code 4", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1]));

      const updated = await ns.updateFieldMetadata({ id: ["t"], updates: [{ path: "label", metadata: { unit: "text", owner: "qa" } }] });
      assert.deepEqual(updated, { version: 2, fields: { label: { unit: "text", owner: "qa" } } });
      const removed = await ns.updateFieldMetadata({ id: ["t"], updates: [{ path: "label", metadata: { owner: null } }] });
      assert.deepEqual(removed.fields, { label: { unit: "text" } });
      assert.deepEqual(fieldsOf((await ns.describeTable({ id: ["t"] })).schema)[1]?.metadata, { unit: "text" });

      // The route takes the bare map; a wrapped body would be refused as 13 before the table is looked up.
      assert.deepEqual(await ns.updateTableSchemaMetadata({ id: ["t"], metadata: { a: "b" } }), { a: "b" });
      await rejectsWith(ns.updateTableSchemaMetadata({ id: ["t"], metadata: { a: "c" } }), "Unsupported");
      await rejectsWith(ns.updateTableSchemaMetadata({ id: ["missing"], metadata: { a: "b" } }), "TableNotFound");
      const described = await ns.describeTable({ id: ["t"] });
      assert.equal(described.version, 4);
      assert.deepEqual(described.schema?.metadata, { a: "b" });
    });

    test("CreateTableIndex BTREE → listed as id_idx with its stats; again rebuilds it, with replace false → code 7; DropTableIndex → gone, again → code 6", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1, 2, 3]));

      assert.equal(typeof (await ns.createTableIndex({ id: ["t"], column: "id", index_type: "BTREE" })).transaction_id, "string");
      const listed = await ns.listTableIndices({ id: ["t"] });
      assert.equal(listed.indexes.length, 1);
      const [index] = listed.indexes;
      assert.equal(index?.index_name, "id_idx");
      assert.deepEqual(index?.columns, ["id"]);
      assert.equal(index?.index_type, "BTREE");
      assert.equal(index?.num_indexed_rows, 3);

      const stats = await ns.describeTableIndexStats({ id: ["t"], index_name: "id_idx" });
      assert.equal(stats.index_type, "BTREE");
      assert.equal(stats.num_indexed_rows, 3);
      assert.equal(stats.num_unindexed_rows, 0);
      assert.equal((await ns.getTableStats({ id: ["t"] })).num_indices, 1);

      await ns.createTableIndex({ id: ["t"], column: "id", index_type: "BTREE" });
      await rejectsWith(ns.createTableIndex({ id: ["t"], column: "id", index_type: "BTREE", replace: false }), "TableIndexAlreadyExists");
      await ns.dropTableIndex({ id: ["t"], index_name: "id_idx" });
      assert.deepEqual((await ns.listTableIndices({ id: ["t"] })).indexes, []);
      await rejectsWith(ns.dropTableIndex({ id: ["t"], index_name: "id_idx" }), "TableIndexNotFound");
      await rejectsWith(ns.describeTableIndexStats({ id: ["t"], index_name: "id_idx" }), "TableIndexNotFound");
      assert.equal(await ns.countTableRows({ id: ["t"] }), 3, "dropping an index keeps the rows");
    });

    test("CreateTableScalarIndex with a name on a missing column → code 12; index calls without an index name → code 13; nothing indexed", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1, 2]));
      await rejectsWith(ns.createTableScalarIndex({ id: ["t"], column: "nope", index_type: "BTREE", name: "n" }), "TableColumnNotFound");
      await rejectsWith(ns.dropTableIndex({ id: ["t"] } as never), "InvalidInput", /index_name/);
      await rejectsWith(ns.describeTableIndexStats({ id: ["t"], index_name: "" }), "InvalidInput", /index_name/);

      await ns.createTableScalarIndex({ id: ["t"], column: "label", index_type: "BITMAP", name: "by_label" });
      assert.deepEqual((await ns.listTableIndices({ id: ["t"] })).indexes.map((index) => [index.index_name, index.index_type]), [["by_label", "BITMAP"]]);
    });
  });
}
