// A server killed mid-job and started again over the same root: the job is resumed from its
// saved state, finishes, and the view holds exactly the rows a full rebuild gives.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { test } from "node:test";
import { tableFromIPC } from "apache-arrow-21";
import { spawnServe } from "../helpers/cli-process.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";
import { TableData, canonicalRows, createWordDocs, docsWordChunksView, waitForJob } from "../helpers/views.js";


function client(url: string) {
  return {
    get: (route: string) => fetch(url + route),
    post: (route: string, body: unknown) => fetch(url + route, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  };
}

test("a server killed mid-refresh resumes the job after a restart", async (t) => {
  const root = tempRoot();
  const env = { QUIVER_JOB_LEASE_MS: "1000", QUIVER_JOB_POLL_MS: "50" };
  const data = new TableData();
  let server = await spawnServe(["--root", root, "--port", "0"], env);
  t.after(async () => {
    data.close();
    await server.stop("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  });
  let http = client(server.url);
  const n = 1500;
  await createWordDocs(server.url, n);
  await expectJson(await http.post("/v1/materialized_view/chunks/create", docsWordChunksView), 201);
  const { job_id } = await expectJson(await http.post("/v1/materialized_view/chunks/refresh", { source_task_size: 25 }), 202);

  for (;;) {
    const job = await expectJson(await http.get(`/v1/jobs/${job_id}`));
    if (job.progress.items_done >= 3) break;
    assert.equal(job.status === "succeeded", false, "the job must still be running when the server is killed");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await server.stop("SIGKILL");

  server = await spawnServe(["--root", root, "--port", "0"], env);
  http = client(server.url);
  const job = await waitForJob(http, job_id, 60_000);
  assert.equal(job.status, "succeeded", JSON.stringify(job));
  assert.equal(job.attempts, 2, "the second process resumed the job");
  assert.equal(job.progress.items_done, job.progress.items_total);
  const events = await fetch(`${server.url}/v1/jobs/query_events`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ job_id }) });
  const states = tableFromIPC(new Uint8Array(await events.arrayBuffer())).getChild("state")?.toArray() as string[];
  assert.ok(states.includes("resumed"), states.join(","));
  assert.equal(states.filter((s) => s === "planned").length, 1, "the plan was made once and kept");

  const viewLocation = (await expectJson(await http.post("/v1/table/chunks/describe", {}))).location;
  const rows = await data.rows(viewLocation);
  assert.equal(rows.length, n * 4, "4 chunks per document, none twice");
  const rebuilt = await expectJson(await http.post("/v1/materialized_view/again/create", { ...docsWordChunksView, with_no_data: false }), 201);
  await waitForJob(http, rebuilt.job_id, 60_000);
  const againLocation = (await expectJson(await http.post("/v1/table/again/describe", {}))).location;
  assert.deepEqual(canonicalRows(rows), canonicalRows(await data.rows(againLocation)));
});
