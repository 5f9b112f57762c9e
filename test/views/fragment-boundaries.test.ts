// A source row's view rows are appended together even when a fragment cap would split them: a
// retried work item counts a source row as written once any of its rows is.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Field, Int32, Schema, Utf8 } from "apache-arrow-21";
import { expectJson, startTestServer } from "../helpers/test-server.js";
import { chunkerSpec, createSource, schemaBase64, waitForJob } from "../helpers/views.js";

test("RefreshMaterializedView with max_rows_per_fragment below a row's chunk count → one fragment per source row", async (t) => {
  const server = await startTestServer({ jobs: { pollMs: 20 } });
  t.after(() => server.close());
  const words = "a b c d e f g h i j";
  await createSource(server, "docs", { id: Int32Array.from([1, 2, 3]), body: [words, words, words] });
  const schema = new Schema([new Field("doc", new Int32()), new Field("chunk", new Utf8()), new Field("chunk_index", new Int32())]);
  await expectJson(
    await server.post("/v1/materialized_view/chunks/create", {
      kind: "chunker",
      source_query: JSON.stringify({ source: ["docs"], projections: [["doc", "id"]] }),
      output_schema: schemaBase64(schema),
      udtf_spec: chunkerSpec({ chunker: "split_words", column: "body", size: 1, overlap: 0 }),
    }),
    201,
  );
  const { job_id } = await expectJson(await server.post("/v1/materialized_view/chunks/refresh", { max_rows_per_fragment: 3 }), 202);
  assert.equal((await waitForJob(server, job_id)).status, "succeeded");
  assert.equal(await expectJson(await server.post("/v1/table/chunks/count_rows", {})), 30);
  const described = await expectJson(await server.post("/v1/table/chunks/describe", {}));
  assert.equal(described.stats.num_fragments, 3, "each source row's ten chunks form one fragment");
});
