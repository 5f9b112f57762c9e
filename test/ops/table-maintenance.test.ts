// Table maintenance: compaction merges fragments and keeps every row; cleanup removes old
// versions but never a tagged version or a branch's base; both also run as jobs, and a table's
// schedule runs them and queues its next run.
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createRowsTable, range, rowsTable, streamOf } from "../data/fixtures.js";
import { readArrow } from "../helpers/arrow.js";
import { expectError, expectJson, startTestServer, type TestServer } from "../helpers/test-server.js";
import { waitForJob } from "../helpers/views.js";

/** A table of `appends + 1` versions, each adding one fragment of 10 rows. */
async function fragmentedTable(server: TestServer, name: string, appends: number): Promise<void> {
  await createRowsTable(server, name, 10);
  for (let i = 1; i <= appends; i += 1) await expectJson(await server.upload(`/v1/table/${name}/insert`, streamOf(rowsTable(range(i * 10, i * 10 + 10)))));
}

async function idsOf(server: TestServer, name: string, extra: Record<string, unknown> = {}): Promise<number[]> {
  const response = await server.post(`/v1/table/${name}/query`, { k: 10_000, columns: { column_names: ["id"] }, ...extra });
  assert.equal(response.status, 200);
  return Array.from((await readArrow(response)).getChild("id")!.toArray() as ArrayLike<number>, Number).sort((a, b) => a - b);
}

async function fragmentsOf(server: TestServer, name: string): Promise<number> {
  return (await expectJson(await server.post(`/v1/table/${name}/describe`, {}))).stats.num_fragments;
}

test("table maintenance", async (t) => {
  const server = await startTestServer({ jobs: { pollMs: 20 } });
  t.after(() => server.close());

  await t.test("CompactTable → 200; the fragments are merged and every row is kept", async () => {
    await fragmentedTable(server, "compacted", 5);
    const before = await idsOf(server, "compacted");
    assert.equal(await fragmentsOf(server, "compacted"), 6);
    const answer = await expectJson(await server.post("/v1/table/compacted/compact", {}));
    assert.equal(answer.fragments_before, 6);
    assert.equal(answer.fragments_after, 1);
    assert.equal(answer.versions_removed, 0, "compaction alone removes no version");
    assert.equal(await fragmentsOf(server, "compacted"), 1);
    assert.deepEqual(await idsOf(server, "compacted"), before);
    assert.deepEqual(before, range(0, 60));
    assert.equal(await expectJson(await server.post("/v1/table/compacted/count_rows", {})), 60);
    // The versions from before compaction are all still readable.
    assert.deepEqual(await idsOf(server, "compacted", { version: 2 }), range(0, 20));
  });

  await t.test("CleanupTableVersions removes old versions but keeps the tagged one, a branch's base and the latest", async () => {
    await fragmentedTable(server, "cleaned", 5); // versions 1..6
    await expectJson(await server.post("/v1/table/cleaned/tags/create", { tag: "golden", version: 2 }));
    await expectJson(await server.post("/v1/table/cleaned/branches/create", { name: "exp", from_version: 4 }));
    await sleep(20);
    const answer = await expectJson(await server.post("/v1/table/cleaned/cleanup", { older_than_seconds: 0 }));
    assert.deepEqual(answer.protected_tags, ["golden"]);
    // Everything older than the tagged version 2 may go: version 1 only.
    assert.equal(answer.versions_removed, 1);
    await expectError(await server.post("/v1/table/cleaned/describe", { version: 1 }), 404, 11);
    assert.deepEqual(await idsOf(server, "cleaned", { version: 2 }), range(0, 20), "the tagged version reads as before");
    assert.equal((await expectJson(await server.post("/v1/table/cleaned/describe", { tag: "golden" }))).version, 2);
    assert.deepEqual(await idsOf(server, "cleaned", { branch: "exp" }), range(0, 40), "the branch reads its base");
    assert.deepEqual(await idsOf(server, "cleaned"), range(0, 60), "the latest version keeps every row");

    // Without the tag, the versions after it go too, but not the branch's base (4) or the latest.
    await expectJson(await server.post("/v1/table/cleaned/tags/delete", { tag: "golden" }));
    const second = await expectJson(await server.post("/v1/table/cleaned/cleanup", { older_than_seconds: 0 }));
    assert.deepEqual(second.protected_tags, []);
    assert.ok(second.versions_removed >= 3, JSON.stringify(second));
    await expectError(await server.post("/v1/table/cleaned/describe", { version: 3 }), 404, 11);
    assert.deepEqual(await idsOf(server, "cleaned", { branch: "exp" }), range(0, 40), "the branch still reads its base");
    assert.deepEqual(await idsOf(server, "cleaned"), range(0, 60));
  });

  await t.test("CleanupTableVersions keeps versions younger than the retention", async () => {
    await fragmentedTable(server, "recent", 2);
    const answer = await expectJson(await server.post("/v1/table/recent/cleanup", { older_than_seconds: 3600 }));
    assert.equal(answer.versions_removed, 0);
    assert.deepEqual(await idsOf(server, "recent", { version: 1 }), range(0, 10));
  });

  await t.test("compact with wait false → 202 and a job whose result reports the merge", async () => {
    await fragmentedTable(server, "by_job", 3);
    const { job_id: jobId } = await expectJson(await server.post("/v1/table/by_job/compact", { wait: false }), 202);
    const job = await waitForJob(server, jobId);
    assert.equal(job.status, "succeeded", JSON.stringify(job));
    assert.equal(job.job_type, "table_maintenance");
    assert.equal(job.result.fragments_before, 4);
    assert.equal(job.result.fragments_after, 1);
    assert.deepEqual(await idsOf(server, "by_job"), range(0, 40));
  });

  await t.test("maintenance of a missing table → 404 code 4, of a declared one → 409 code 19; a bad retention → 400 code 13", async () => {
    await expectError(await server.post("/v1/table/nowhere/compact", {}), 404, 4);
    await expectError(await server.post("/v1/table/nowhere/cleanup", { wait: false }), 404, 4);
    await expectJson(await server.post("/v1/table/planned/declare", {}));
    await expectError(await server.post("/v1/table/planned/optimize_indices", {}), 409, 19);
    await expectError(await server.post("/v1/table/compacted/cleanup", { older_than_seconds: -1 }), 400, 13);
    await expectError(await server.post("/v1/table/compacted/maintenance_schedule", { interval_seconds: 5 }), 400, 13);
  });

  await t.test("a schedule runs maintenance as a job, then queues its next run; null removes it", async () => {
    await fragmentedTable(server, "scheduled", 3);
    const none = await expectJson(await server.post("/v1/table/scheduled/maintenance_schedule/describe", {}));
    const { auto_maintenance_policy: policy, ...schedule } = none;
    assert.deepEqual(schedule, { interval_seconds: null, older_than_seconds: null, next_run_at_ms: null, job_id: null });
    assert.equal(policy?.source, "server", "the effective automatic maintenance and where it comes from");
    const set = await expectJson(await server.post("/v1/table/scheduled/maintenance_schedule", { interval_seconds: 3600, older_than_seconds: 0, first_run_in_seconds: 0 }));
    assert.equal(set.interval_seconds, 3600);
    const first = await waitForJob(server, set.job_id);
    assert.equal(first.status, "succeeded", JSON.stringify(first));
    assert.equal(first.result.fragments_after, 1);
    assert.ok(first.result.versions_removed >= 1, "its cleanup ran with the schedule's retention");
    assert.deepEqual(await idsOf(server, "scheduled"), range(0, 40));

    const next = await expectJson(await server.post("/v1/table/scheduled/maintenance_schedule/describe", {}));
    assert.equal(next.job_id, first.result.next_job_id);
    assert.ok(next.next_run_at_ms >= first.finished_at_ms + 3600_000 - 5_000, "the next run is one interval later");

    const removed = await expectJson(await server.post("/v1/table/scheduled/maintenance_schedule", { interval_seconds: null }));
    assert.equal(removed.job_id, null);
    assert.equal((await expectJson(await server.get(`/v1/jobs/${next.job_id}`))).status, "cancelled");
  });
});
