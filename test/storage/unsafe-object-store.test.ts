// A store that accepts conditional creates and ignores them (s3rver, like some S3-compatible
// stores) would let concurrent commits silently lose data: Quiver probes every object-store
// location before writing there and refuses one that fails, saying why, unless the operator
// accepts the risk.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type Finished, runCli } from "../helpers/cli-process.js";
import { type S3rver, startS3rver } from "../helpers/s3rver.js";
import { expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";
import { arrowStream } from "../helpers/arrow.js";

let s3rver: S3rver;

before(async () => {
  s3rver = await startS3rver();
});

after(() => s3rver.stop());

const refusal = /does not honour conditional writes .* concurrent commits would silently lose data; Quiver will not write there.*--allow-unsafe-object-store/;

test("a server whose data location ignores conditional creates refuses to start, naming the cause", async () => {
  await assert.rejects(startTestServer({ data: `s3://${s3rver.bucket}/refused`, storageOptions: s3rver.storageOptions }), refusal);
});

test("quiver serve on such a store exits 1 with that message, and no secret given on the command line in its output", async () => {
  const options = Object.entries(s3rver.storageOptions).flatMap(([key, value]) => ["--storage-option", `${key}=${value === "S3RVER" && key === "aws_secret_access_key" ? "sEcReT-s3rver-value" : value}`]);
  const run: Finished = await runCli(["serve", "--port", "0", "--root", tempRoot(), "--data", `s3://${s3rver.bucket}/cli`, ...options]);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, refusal);
  assert.ok(!`${run.stdout}${run.stderr}`.includes("sEcReT-s3rver-value"));
});

test("with --allow-unsafe-object-store the operator's choice holds: tables are written to the S3 store", async (t) => {
  const server = await startTestServer({ data: `s3://${s3rver.bucket}/accepted`, storageOptions: s3rver.storageOptions, allowUnsafeObjectStore: true });
  t.after(() => server.close());
  const created = await expectJson<{ location: string }>(await server.upload("/v1/table/t/create", arrowStream({ id: Int32Array.from([1, 2, 3]) })));
  assert.match(created.location, new RegExp(`^s3://${s3rver.bucket}/accepted/default/tables/`));
  await expectJson(await server.upload("/v1/table/t/insert", arrowStream({ id: Int32Array.from([4]) })));
  assert.equal(await (await server.post("/v1/table/t/count_rows", {})).text(), "4");
  assert.ok(s3rver.requests.some((request) => request.method === "PUT" && request.url.includes("/accepted/default/tables/")), "Lance wrote to the store");
});
