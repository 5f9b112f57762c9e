// AlterTableBackfillColumns runs on the job system: 202 with a job that fills a computed column.
import assert from "node:assert/strict";
import { test } from "node:test";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";
import { TableData, createSource, waitForJob } from "../helpers/views.js";

test("backfill_column", async (t) => {
  const server = await startTestServer({ jobs: { pollMs: 20 } });
  const data = new TableData();
  t.after(async () => {
    data.close();
    await server.close();
  });
  const location = await createSource(server, "nums", { id: Int32Array.from([1, 2, 3]) });
  await data.addComputedColumn(location, "twice", "id * 2");
  await data.append(location, { id: Int32Array.from([10]) });

  await t.test("AlterTableBackfillColumns of a computed column → 202 with a job that fills it", async () => {
    const response = await server.post("/v1/table/nums/backfill_column", { column: "twice", concurrency: 2, task_size: 100 });
    assert.equal(response.status, 202);
    const { job_id } = (await response.json()) as { job_id: string };
    const job = await waitForJob(server, job_id);
    assert.equal(job.status, "succeeded", JSON.stringify(job));
    assert.equal(job.job_type, "backfill_column");
    assert.equal(job.spec.task_size, 100);
    assert.ok(job.result.rows_written >= 1);
    const rows = (await data.rows(location)).sort((a, b) => Number(a.id) - Number(b.id));
    assert.deepEqual(rows.map((r) => r.twice), [2, 4, 6, 20]);
  });

  await t.test("AlterTableBackfillColumns refusals: plain column → 400 code 13, unknown column → 404 code 12, where, branch or read_version → 406 code 0 naming it, missing table → 404 code 4", async () => {
    await expectError(await server.post("/v1/table/nums/backfill_column", { column: "id" }), 400, 13);
    await expectError(await server.post("/v1/table/nums/backfill_column", { column: "nope" }), 404, 12);
    for (const [field, value] of [["where", "id > 1"], ["branch", "dev"], ["read_version", 1]] as const) {
      const refused = await expectError(await server.post("/v1/table/nums/backfill_column", { column: "twice", [field]: value }), 406, 0);
      assert.match(refused.error, new RegExp(`'${field}'`));
    }
    await expectError(await server.post("/v1/table/ghost/backfill_column", { column: "twice" }), 404, 4);
    await expectError(await server.post("/v1/table/nums/backfill_column", { column: "twice", cluster: "nowhere" }), 400, 13);
    const jobs = await expectJson(await server.post("/v1/jobs/list", {}));
    assert.equal(jobs.jobs.length, 1, "no refused request queued a job");
  });
});
