/**
 * Conformance of materialized views through both client implementations: the same create,
 * refresh and refusal answers from `dir` and `rest`.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Field, Int32, Schema, Utf8 } from "apache-arrow-21";
import { schemaBase64 } from "../helpers/views.js";
import { implementations, openClient, rejectsWith, sampleTable } from "./client-fixtures.js";

const viewSchema = new Schema([new Field("id", new Int32()), new Field("label", new Utf8())]);
const queryView = {
  kind: "query",
  source_query: JSON.stringify({ source: ["src"], projections: ["id", "label"], filter: "id > 1" }),
  output_schema: schemaBase64(viewSchema),
};

for (const impl of implementations) {
  describe(`namespace client (${impl}): materialized views`, () => {
    test("CreateMaterializedView → version; RefreshMaterializedView → a job id; output_limit on a query view → code 13", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createTable({ id: ["src"] }, sampleTable());

      const created = await ns.createMaterializedView({ id: ["v"], ...queryView });
      assert.equal(typeof created.version, "number");
      assert.equal(created.job_id ?? undefined, undefined, "with_no_data defaults to true: no refresh yet");
      const described = await ns.describeTable({ id: ["v"] });
      assert.deepEqual(described.schema?.fields.map((f) => f.name).filter((n) => !n.startsWith("__")), ["id", "label"]);

      const refreshed = await ns.refreshMaterializedView({ id: ["v"] });
      assert.equal(typeof refreshed.job_id, "string");
      await rejectsWith(ns.refreshMaterializedView({ id: ["v"], output_limit: 5 }), "InvalidInput", /chunker/);
      await rejectsWith(ns.createMaterializedView({ id: ["v"], ...queryView }), "TableAlreadyExists");
      await rejectsWith(ns.refreshMaterializedView({ id: ["src"] }), "InvalidInput");
    });
  });
}
