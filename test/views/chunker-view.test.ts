// Chunker views: built-in chunkers selected through udtf_spec, output_limit, src_version, the
// manifest override, and udtf envelopes Quiver cannot run.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Field, Float64, Int32, Schema, Utf8 } from "apache-arrow-21";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";
import { TableData, chunkerSpec, createSource, schemaBase64, waitForJob } from "../helpers/views.js";

const texts = ["one two three four five", "six seven", "eight nine ten eleven twelve thirteen fourteen"];
const chunkSchema = new Schema([new Field("doc", new Int32()), new Field("chunk", new Utf8()), new Field("chunk_index", new Int32())]);
const wordChunker = chunkerSpec({ chunker: "split_words", column: "body", size: 3, overlap: 1 }, "chunker", { manifest: JSON.stringify({ env: "stored" }) });
const source = JSON.stringify({ source: ["docs"], projections: [["doc", "id"]] });

async function refresh(server: Awaited<ReturnType<typeof startTestServer>>, view: string, body: object = {}) {
  const { job_id } = await expectJson(await server.post(`/v1/materialized_view/${view}/refresh`, body), 202);
  const job = await waitForJob(server, job_id);
  assert.equal(job.status, "succeeded", JSON.stringify(job));
  return job;
}

test("chunker materialized views", async (t) => {
  const server = await startTestServer({ jobs: { pollMs: 20 } });
  const data = new TableData();
  t.after(async () => {
    data.close();
    await server.close();
  });
  const sourceLocation = await createSource(server, "docs", { id: Int32Array.from([1, 2, 3]), body: texts });
  await expectJson(
    await server.post("/v1/materialized_view/chunks/create", { kind: "chunker", source_query: source, output_schema: schemaBase64(chunkSchema), udtf_spec: wordChunker }),
    201,
  );
  const viewLocation = (await expectJson(await server.post("/v1/table/chunks/describe", {}))).location;
  const viewRows = async () =>
    (await data.rows(viewLocation, { columns: ["doc", "chunk", "chunk_index"] })).sort((a, b) => Number(a.doc) - Number(b.doc) || Number(a.chunk_index) - Number(b.chunk_index));

  await t.test("a refresh splits each document into word chunks with overlap", async () => {
    const job = await refresh(server, "chunks");
    assert.equal(job.result.rows_written, 6);
    assert.deepEqual(await viewRows(), [
      { doc: 1, chunk: "one two three", chunk_index: 0 },
      { doc: 1, chunk: "three four five", chunk_index: 1 },
      { doc: 2, chunk: "six seven", chunk_index: 0 },
      { doc: 3, chunk: "eight nine ten", chunk_index: 0 },
      { doc: 3, chunk: "ten eleven twelve", chunk_index: 1 },
      { doc: 3, chunk: "twelve thirteen fourteen", chunk_index: 2 },
    ]);
  });

  await t.test("a refresh with output_limit caps the view's rows after expansion", async () => {
    await data.append(sourceLocation, { id: Int32Array.from([4, 5]), body: ["a b c d e f g", "h i j k l"] });
    const job = await refresh(server, "chunks", { output_limit: 8 });
    // Document 4 expands to 3 chunks, more than the 2 left: it is left out whole; document 5's
    // 2 chunks fit. A source row is never half in the view.
    assert.equal(job.result.rows_written, 2);
    assert.equal(job.result.output_limit_reached, true);
    assert.deepEqual((await viewRows()).map((r) => r.doc), [1, 1, 2, 3, 3, 3, 5, 5]);
    const next = await refresh(server, "chunks");
    assert.equal(next.result.rows_written, 3, "the rows left out by the cap come with the next refresh");
    assert.equal((await viewRows()).length, 11);
  });

  await t.test("a refresh with a manifest uses it for that job only; the stored manifest stays", async () => {
    const withOverride = await refresh(server, "chunks", { manifest: JSON.stringify({ env: "override", pip: ["x"] }) });
    assert.equal(withOverride.result.manifest_origin, "request");
    assert.deepEqual(withOverride.result.manifest, { env: "override", pip: ["x"] });
    assert.deepEqual(withOverride.spec.manifest, { env: "override", pip: ["x"] });
    const plain = await refresh(server, "chunks");
    assert.equal(plain.result.manifest_origin, "view");
    assert.deepEqual(plain.result.manifest, { env: "stored" });
  });

  await t.test("a refresh with src_version rebuilds the view as of that source version", async () => {
    const job = await refresh(server, "chunks", { src_version: 1 });
    assert.equal(job.result.source_version, 1);
    assert.equal(job.spec.src_version, 1);
    assert.deepEqual((await viewRows()).map((r) => r.doc), [1, 1, 2, 3, 3, 3], "rows of documents added after version 1 are gone");
    const latest = await refresh(server, "chunks");
    assert.equal(latest.result.source_version, await data.version(sourceLocation));
    assert.equal((await viewRows()).length, 11);
  });

  await t.test("split_characters and explode_list chunkers", async () => {
    await createSource(server, "lists", { id: Int32Array.from([1, 2]), body: ["abcdefgh", "xy"], tags: [[10, 20, 30], [40]] });
    const charSchema = new Schema([new Field("id", new Int32()), new Field("piece", new Utf8())]);
    await expectJson(
      await server.post("/v1/materialized_view/chars/create", {
        kind: "chunker",
        source_query: JSON.stringify({ source: ["lists"], projections: ["id"] }),
        output_schema: schemaBase64(charSchema),
        udtf_spec: chunkerSpec({ chunker: "split_characters", size: 4, overlap: 2, output_column: "piece", index_column: null }, "chunker", { input_columns: ["body"] }),
        with_no_data: false,
      }),
      201,
    );
    const listed = await expectJson(await server.post("/v1/jobs/list", {}));
    await waitForJob(server, listed.jobs[0].job_id);
    const charsLocation = (await expectJson(await server.post("/v1/table/chars/describe", {}))).location;
    const pieces = (await data.rows(charsLocation, { columns: ["id", "piece"] })).map((r) => `${r.id}:${r.piece}`).sort();
    assert.deepEqual(pieces, ["1:abcd", "1:cdef", "1:efgh", "2:xy"]);

    const explodeSchema = new Schema([new Field("id", new Int32()), new Field("item", new Float64()), new Field("chunk_index", new Int32())]);
    const described = await expectJson(await server.post("/v1/table/lists/describe", {}));
    assert.equal(described.schema.fields[2].type.type, "list");
    await expectJson(
      await server.post("/v1/materialized_view/tags/create", {
        kind: "chunker",
        source_query: JSON.stringify({ source: ["lists"], projections: ["id"] }),
        output_schema: schemaBase64(explodeSchema),
        udtf_spec: chunkerSpec({ chunker: "explode_list", column: "tags" }),
      }),
      201,
    );
    await refresh(server, "tags");
    const tagsLocation = (await expectJson(await server.post("/v1/table/tags/describe", {}))).location;
    const items = (await data.rows(tagsLocation, { columns: ["id", "item", "chunk_index"] })).map((r) => `${r.id}:${r.item}:${r.chunk_index}`).sort();
    assert.deepEqual(items, ["1:10:0", "1:20:1", "1:30:2", "2:40:0"]);
  });

  await t.test("CreateMaterializedView with a udtf Quiver cannot run, a wrong udtf_sha or a kind mismatch → 400, code 13, nothing stored", async () => {
    const base = { kind: "chunker", source_query: source, output_schema: schemaBase64(chunkSchema) };
    const custom = chunkerSpec({ python: "pickled-function-bytes" });
    const refused = await expectError(await server.post("/v1/materialized_view/bad1/create", { ...base, udtf_spec: custom }), 400, 13);
    assert.match(refused.error, /cannot run udtf/);
    await expectError(await server.post("/v1/materialized_view/bad2/create", { ...base, udtf_spec: { ...wordChunker, udtf_sha: "0".repeat(64) } }), 400, 13);
    await expectError(await server.post("/v1/materialized_view/bad3/create", { ...base, udtf_spec: { ...wordChunker, kind: "udtf" } }), 400, 13);
    await expectError(await server.post("/v1/materialized_view/bad4/create", { ...base, udtf_spec: null }), 400, 13);
    await expectError(await server.post("/v1/materialized_view/bad5/create", { ...base, udtf_spec: chunkerSpec({ chunker: "split_words", column: "body", size: 3, overlap: 3 }) }), 400, 13);
    await expectError(await server.post("/v1/materialized_view/bad6/create", { ...base, udtf_spec: chunkerSpec({ chunker: "split_words", column: "id", size: 3 }) }), 400, 13);
    const tables = (await expectJson(await server.get("/v1/table"))).tables as string[];
    assert.ok(!tables.some((name) => name.startsWith("bad")), tables.join(","));
  });

  await t.test("a udtf view running a built-in function rebuilds in full; output_limit on it → 400, code 13", async () => {
    await expectJson(
      await server.post("/v1/materialized_view/batch/create", {
        kind: "udtf",
        source_query: source,
        output_schema: schemaBase64(chunkSchema),
        udtf_spec: chunkerSpec({ chunker: "split_words", column: "body", size: 3, overlap: 1 }, "udtf"),
      }),
      201,
    );
    const first = await refresh(server, "batch");
    const second = await refresh(server, "batch");
    assert.equal(first.result.mode, "rebuild");
    assert.equal(second.result.mode, "rebuild");
    assert.equal(second.result.rows_written, 11);
    await expectError(await server.post("/v1/materialized_view/batch/refresh", { output_limit: 1 }), 400, 13);
  });
});
