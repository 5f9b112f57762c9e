// Query views: CreateMaterializedView of a projection + filter view, its refresh as a job, and
// the refusals of create and refresh.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Field, Float64, Int32, Int64, Schema, Utf8, vectorFromArray } from "apache-arrow-21";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";
import { TableData, createSource, schemaBase64, waitForJob } from "../helpers/views.js";

const names = ["ana", "bo", "cy", "di", "ed", "fi"];
const sourceColumns = () => ({
  id: Int32Array.from([1, 2, 3, 4, 5, 6]),
  name: vectorFromArray(names, new Utf8()),
  score: Float64Array.from([0.5, 1.5, 2.5, 3.5, 4.5, 5.5]),
});
const viewSchema = new Schema([new Field("id", new Int32()), new Field("label", new Utf8()), new Field("double_score", new Float64())]);
const sourceQuery = JSON.stringify({
  source: ["shop", "items"],
  projections: [["id", "id"], ["label", "upper(name)"], ["double_score", "score * 2"]],
  filter: "score > 2",
});

test("query materialized views", async (t) => {
  const server = await startTestServer({ jobs: { pollMs: 20 } });
  const data = new TableData();
  t.after(async () => {
    data.close();
    await server.close();
  });
  await expectJson(await server.post("/v1/namespace/shop/create", {}));
  const sourceLocation = await createSource(server, "shop$items", sourceColumns());

  await t.test("CreateMaterializedView of a projection + filter view → 201, version, no job; the view is an empty table", async () => {
    const body = await expectJson(
      await server.post("/v1/materialized_view/shop$top/create", { kind: "query", source_query: sourceQuery, output_schema: schemaBase64(viewSchema) }),
      201,
    );
    assert.equal(body.version, 1);
    assert.equal(body.job_id, undefined);
    const described = await expectJson(await server.post("/v1/table/shop$top/describe", {}));
    assert.deepEqual(
      described.schema.fields.map((f: { name: string; type: { type: string } }) => [f.name, f.type.type]),
      [["id", "int32"], ["label", "string"], ["double_score", "double"], ["__source_row_id", "uint64"]],
    );
    assert.equal((await data.rows(described.location)).length, 0);
  });

  await t.test("RefreshMaterializedView → 202 with a job_id; the job succeeds and the view holds the projected, filtered rows", async () => {
    const response = await server.post("/v1/materialized_view/shop$top/refresh", {});
    assert.equal(response.status, 202);
    const { job_id } = (await response.json()) as { job_id: string };
    assert.equal(typeof job_id, "string");
    const job = await waitForJob(server, job_id);
    assert.equal(job.status, "succeeded", JSON.stringify(job));
    assert.equal(job.job_state, "DONE");
    assert.equal(job.result.mode, "rebuild");
    assert.equal(job.result.rows_written, 4);
    const described = await expectJson(await server.post("/v1/table/shop$top/describe", {}));
    const rows = (await data.rows(described.location)).map(({ __source_row_id: _x, ...rest }) => rest).sort((a, b) => Number(a.id) - Number(b.id));
    assert.deepEqual(rows, [
      { id: 3, label: "CY", double_score: 5 },
      { id: 4, label: "DI", double_score: 7 },
      { id: 5, label: "ED", double_score: 9 },
      { id: 6, label: "FI", double_score: 11 },
    ]);
    assert.equal((await data.rows(sourceLocation)).length, 6, "the source is unchanged");
  });

  await t.test("a second refresh with no source change is incremental and writes nothing", async () => {
    const { job_id } = await expectJson(await server.post("/v1/materialized_view/shop$top/refresh", {}), 202);
    const job = await waitForJob(server, job_id);
    assert.equal(job.result.mode, "incremental");
    assert.equal(job.result.rows_written, 0);
    assert.equal(job.result.rows_deleted, 0);
  });

  await t.test("refresh through the legacy route /v1/table/{id}/refresh → 202", async () => {
    const { job_id } = await expectJson(await server.post("/v1/table/shop$top/refresh", undefined), 202);
    assert.equal((await waitForJob(server, job_id)).status, "succeeded");
  });

  await t.test("RefreshMaterializedView with output_limit on a query view → 400, code 13, no job queued", async () => {
    const before = await expectJson(await server.post("/v1/jobs/list", {}));
    const body = await expectError(await server.post("/v1/materialized_view/shop$top/refresh", { output_limit: 2 }), 400, 13);
    assert.match(body.error, /output_limit applies only to chunker/);
    assert.deepEqual(Object.keys(body).sort(), ["code", "error", "instance"]);
    const after = await expectJson(await server.post("/v1/jobs/list", {}));
    assert.equal(after.jobs.length, before.jobs.length);
  });

  await t.test("RefreshMaterializedView with an unknown cluster → 400, code 13; of a plain table → 400, code 13; of a missing view → 404, code 4", async () => {
    await expectError(await server.post("/v1/materialized_view/shop$top/refresh", { cluster: "gpu-pool" }), 400, 13);
    await expectError(await server.post("/v1/materialized_view/shop$items/refresh", {}), 400, 13);
    await expectError(await server.post("/v1/materialized_view/shop$ghost/refresh", {}), 404, 4);
    await expectError(await server.post("/v1/materialized_view/shop$top/refresh", { src_version: 99 }), 404, 11);
    await expectError(await server.post("/v1/materialized_view/shop$top/refresh", { manifest: "{not json" }), 400, 13);
  });

  await t.test("CreateMaterializedView refusals → 400 code 13 / 409 code 5 / 404 codes 1 and 4, nothing stored", async () => {
    const base = { kind: "query", source_query: sourceQuery, output_schema: schemaBase64(viewSchema) };
    await expectError(await server.post("/v1/materialized_view/shop$top/create", base), 409, 5);
    await expectError(await server.post("/v1/materialized_view/shop$v1/create", { ...base, kind: "sideways" }), 400, 13);
    await expectError(await server.post("/v1/materialized_view/shop$v2/create", { ...base, source_query: "select * from items" }), 400, 13);
    await expectError(await server.post("/v1/materialized_view/shop$v3/create", { ...base, output_schema: "bm90IGFycm93" }), 400, 13);
    const wrong = new Schema([new Field("id", new Int64()), new Field("label", new Utf8())]);
    const mismatch = await expectError(await server.post("/v1/materialized_view/shop$v4/create", { ...base, output_schema: schemaBase64(wrong) }), 400, 13);
    assert.match(mismatch.error, /double_score/);
    await expectError(
      await server.post("/v1/materialized_view/shop$v5/create", { ...base, source_query: JSON.stringify({ source: ["shop", "nope"] }) }),
      404,
      4,
    );
    await expectError(await server.post("/v1/materialized_view/ghost$v6/create", base), 404, 1);
    await expectError(
      await server.post("/v1/materialized_view/shop$v8/create", { ...base, source_query: JSON.stringify({ source: ["shop", "items"], projections: [["x", "nope + 1"]] }) }),
      404,
      12,
    );
    await expectError(
      await server.post("/v1/materialized_view/shop$v7/create", {
        ...base,
        udtf_spec: { kind: "query", udtf: "e30=", udtf_sha: "x", udtf_name: "n", udtf_version: "1" },
      }),
      400,
      13,
    );
    const listed = await expectJson(await server.get("/v1/namespace/shop/table/list"));
    assert.deepEqual(listed.tables.sort(), ["items", "top"]);
  });

  await t.test("CreateMaterializedView with with_no_data false → 201 with a job_id that fills the view", async () => {
    const body = await expectJson(
      await server.post("/v1/materialized_view/shop$all/create", {
        kind: "query",
        source_query: JSON.stringify({ source: "shop$items" }),
        output_schema: schemaBase64(new Schema([new Field("id", new Int32()), new Field("name", new Utf8()), new Field("score", new Float64())])),
        with_no_data: false,
      }),
      201,
    );
    assert.equal(typeof body.job_id, "string");
    const job = await waitForJob(server, body.job_id);
    assert.equal(job.status, "succeeded");
    assert.equal(job.result.rows_written, 6);
  });
});
