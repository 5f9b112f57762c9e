/**
 * Client conformance, reads: QueryTable (filter, columns, k/offset, vector search) answering
 * apache-arrow Tables, CountTableRows, the query plans and GetTableStats, with the same
 * expectations for `dir` and `rest`.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Table } from "apache-arrow";
import { columnsOf, idsOf, implementations, openClient, pointOf, rejectsWith, vectorTable } from "./client-fixtures.js";

const ids = [1, 2, 3, 4, 5, 6];

for (const impl of implementations) {
  describe(`namespace client (${impl}): queries`, () => {
    test("QueryTable with filter, columns, k and offset → an apache-arrow Table of exactly those rows and columns", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable(ids));

      const all = await ns.queryTable({ id: ["t"] });
      assert.ok(all instanceof Table);
      assert.deepEqual(columnsOf(all), ["id", "label", "vec"]);
      assert.deepEqual(idsOf(all), ids);

      const page = await ns.queryTable({ id: ["t"], filter: "id > 1", columns: { column_names: ["label", "id"] }, k: 2, offset: 1 });
      assert.deepEqual(columnsOf(page), ["label", "id"]);
      assert.deepEqual(idsOf(page), [3, 4]);
      assert.deepEqual(page.toArray().map((row) => row.label), ["row 3", "row 4"]);

      const none = await ns.queryTable({ id: ["t"], filter: "id > 100", columns: { column_names: ["id"] } });
      assert.equal(none.numRows, 0);
      assert.deepEqual(columnsOf(none), ["id"]);
    });

    test("QueryTable vector search on a FixedSizeList<Float32> column → the k nearest rows in order, with _distance", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable(ids));
      const [x, y] = pointOf(4) as [number, number];

      const nearest = await ns.queryTable({ id: ["t"], vector: { single_vector: [x + 0.1, y + 0.05] }, vector_column: "vec", k: 2 });
      assert.deepEqual(idsOf(nearest), [4, 5]);
      const distances = [...(nearest.getChild("_distance")?.toArray() ?? [])].map(Number);
      assert.equal(distances.length, 2);
      assert.ok(distances[0]! < distances[1]!, `ascending distances: ${distances}`);

      const filtered = await ns.queryTable({ id: ["t"], vector: { single_vector: [x, y] }, k: 1, filter: "id <> 4", prefilter: true });
      assert.equal(idsOf(filtered).length, 1);
      assert.notEqual(idsOf(filtered)[0], 4);
    });

    test("QueryTable at an older version reads that version; at a missing version → code 11; a missing column → code 12; a missing table → code 4", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1, 2]));
      await ns.insertIntoTable({ id: ["t"] }, vectorTable([3]));

      assert.deepEqual(idsOf(await ns.queryTable({ id: ["t"], version: 1 })), [1, 2]);
      assert.deepEqual(idsOf(await ns.queryTable({ id: ["t"] })), [1, 2, 3]);
      await rejectsWith(ns.queryTable({ id: ["t"], version: 99 }), "TableVersionNotFound");
      await rejectsWith(ns.queryTable({ id: ["t"], filter: "nope > 1" }), "TableColumnNotFound");
      await rejectsWith(ns.queryTable({ id: ["missing"] }), "TableNotFound");
      await rejectsWith(ns.queryTable({ id: ["t"], k: -1 }), "InvalidInput");
    });

    test("CountTableRows with and without a predicate → a number; on a missing table → code 4", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable(ids));

      assert.equal(await ns.countTableRows({ id: ["t"] }), 6);
      assert.equal(await ns.countTableRows({ id: ["t"], predicate: "id > 4" }), 2);
      assert.equal(await ns.countTableRows({ id: ["t"], predicate: "id > 100" }), 0);
      await rejectsWith(ns.countTableRows({ id: ["missing"] }), "TableNotFound");
    });

    test("ExplainTableQueryPlan and AnalyzeTableQueryPlan → plan text naming the filter; explain on a missing table → code 4", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable(ids));

      const plan = await ns.explainTableQueryPlan({ id: ["t"], query: { filter: "id > 3" } });
      assert.equal(typeof plan, "string");
      assert.match(plan, /LanceRead/);
      assert.match(plan, /id > Int32\(3\)/);
      const analyzed = await ns.analyzeTableQueryPlan({ id: ["t"], filter: "id > 3" });
      assert.match(analyzed, /output_rows=3/);
      await rejectsWith(ns.explainTableQueryPlan({ id: ["missing"], query: {} }), "TableNotFound");
      await rejectsWith(ns.explainTableQueryPlan({ id: ["t"] } as never), "InvalidInput", /query/);
    });

    test("GetTableStats → rows and fragments of the table; a declared-only table → code 19", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["t"] }, vectorTable([1, 2]));
      await ns.insertIntoTable({ id: ["t"] }, vectorTable([3]));

      const stats = await ns.getTableStats({ id: ["t"] });
      assert.equal(stats.num_rows, 3);
      assert.equal(stats.num_indices, 0);
      assert.equal(stats.fragment_stats.num_fragments, 2);
      assert.ok(stats.total_bytes > 0);
      await ns.declareTable({ id: ["later"] });
      await rejectsWith(ns.getTableStats({ id: ["later"] }), "InvalidTableState");
    });
  });
}
