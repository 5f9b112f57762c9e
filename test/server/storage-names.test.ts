/**
 * Names a caller sends that become parts of storage paths (multipart upload ids, branch and tag
 * names), as a tenant holding database a's write key would send them under `--auth required`:
 * a name that is not valid for its kind is refused (400, code 13) before any storage call, and
 * nothing outside the table is read, written or deleted.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { joinLocation } from "../../src/storage/locations.js";
import { addDatabase, apiKey, startAuthServer } from "../auth/auth-helpers.js";
import { arrowStream } from "../helpers/arrow.js";
import { holdsObjects, testStorages } from "../helpers/test-backend.js";
import { type TestServer, expectError, expectJson } from "../helpers/test-server.js";

const rows = arrowStream({ id: Int32Array.from([1, 2, 3]) });

async function createTable(server: TestServer, headers: Record<string, string>, name: string): Promise<string> {
  const created = await fetch(`${server.url}/v1/table/${name}/create`, { method: "POST", headers: { ...headers, "content-type": "application/vnd.apache.arrow.stream" }, body: rows });
  return (await expectJson<{ location: string }>(created)).location;
}

async function putCanary(location: string): Promise<void> {
  await testStorages.for(location).put(location, Buffer.from("canary"));
}

test("names that become storage paths, sent by a tenant with database a's write key", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  await addDatabase(server, "a");
  await addDatabase(server, "b");
  const a = { "x-api-key": await apiKey(server, "a", "write"), "x-svc-database": "a" };
  const b = { "x-api-key": await apiKey(server, "b", "admin"), "x-svc-database": "b" };
  const tableOfA = await createTable(server, a, "t");
  const tableOfB = await createTable(server, b, "payroll");
  // A canary beside the databases, and (on a local folder) the whole root with the store in it.
  const canary = joinLocation(server.dataLocation, "canary", "keep.txt");
  await putCanary(canary);
  // From `<data>/a/tables/<uuid>.lance/_uploads/<id>`, four `..` reach the data location, one more its parent.
  const climbToData = "../".repeat(4);
  const bRelative = tableOfB.slice(server.dataLocation.length + 1);

  await t.test("AbortMultipartWrite with an upload_id climbing to database b's table or the whole root → 400, code 13; both kept", async () => {
    for (const uploadId of [`${climbToData}${bRelative}`, `${climbToData}..`, `${climbToData}canary`, "..%2F..%2F..", "..\\..\\..", "x\u0000"]) {
      const refused = await expectError(await server.post(`/v1/table/t/multipart_write/abort?upload_id=${encodeURIComponent(uploadId)}`, undefined, a), 400, 13);
      // A NUL is refused with every other parameter holding one, before the operation reads it.
      if (!uploadId.includes("\u0000")) assert.match(refused.error, /upload_id/);
    }
    assert.equal(await expectJson(await server.post("/v1/table/payroll/count_rows", {}, b)), 3, "database b's table still reads");
    assert.ok(await holdsObjects(tableOfB), "database b's table keeps its files");
    assert.ok(await holdsObjects(canary), "the canary beside the databases is kept");
    assert.equal(await expectJson(await server.post("/v1/table/t/count_rows", {}, a)), 3);
  });

  await t.test("AbortMultipartWrite of a well-formed upload id Quiver never issued → 200, and nothing under `_uploads/` is deleted", async () => {
    const foreign = "00000000-0000-4000-8000-000000000000";
    const planted = joinLocation(tableOfA, "_uploads", foreign, "part.arrow");
    await putCanary(planted);
    await expectJson(await server.post(`/v1/table/t/multipart_write/abort?upload_id=${foreign}`, undefined, a));
    assert.ok(await holdsObjects(planted), "an upload the store does not record has no files of Quiver's to delete");
  });

  await t.test("insert?upload_id= and complete with an upload_id that is not one Quiver issued → 400, code 13; nothing staged", async () => {
    const upload = await expectJson<{ upload_id: string }>(await server.post("/v1/table/t/multipart_write/create", undefined, a));
    const part = (query: string) => fetch(`${server.url}/v1/table/t/insert?${query}`, { method: "POST", headers: { ...a, "content-type": "application/vnd.apache.arrow.stream" }, body: rows });
    await expectError(await part(`upload_id=${encodeURIComponent(`${climbToData}canary`)}`), 400, 13);
    await expectError(await part(`upload_id=${upload.upload_id}&upload_part_id=..`), 400, 13);
    await expectError(await part(`upload_id=${upload.upload_id}&upload_part_id=${encodeURIComponent("../../../canary")}`), 400, 13);
    await expectError(await server.post(`/v1/table/t/multipart_write/complete?upload_id=${encodeURIComponent(upload.upload_id.toUpperCase())}`, undefined, a), 400, 13);
    assert.equal(await holdsObjects(joinLocation(tableOfA, "_uploads", upload.upload_id)), false, "no part was staged");
    await expectJson(await server.post(`/v1/table/t/multipart_write/abort?upload_id=${upload.upload_id}`, undefined, a));
  });

  await t.test("DescribeTable with a branch climbing to a file that exists, and to one that does not → the same 400, code 13", async () => {
    const json = joinLocation(server.dataLocation, "secret.json");
    await putCanary(json);
    // From `<table>/_refs/branches/<name>.json`, five `..` reach the data location.
    const climb = "../".repeat(5);
    const there = await expectError(await server.post("/v1/table/t/describe", { branch: `${climb}secret` }, a), 400, 13);
    const absent = await expectError(await server.post("/v1/table/t/describe", { branch: `${climb}nothing` }, a), 400, 13);
    assert.equal(there.error.replace("secret", "nothing"), absent.error, "the answers differ only in the name they repeat");
  });

  await t.test("a branch name not valid for a branch on count_rows, query, stats, index listing, insert and version listing → 400, code 13, not 500", async () => {
    const bad = "../x";
    const branch = encodeURIComponent(bad);
    await expectError(await server.post("/v1/table/t/count_rows", { branch: bad }, a), 400, 13);
    await expectError(await server.post("/v1/table/t/query", { branch: bad, k: 1 }, a), 400, 13);
    await expectError(await server.post("/v1/table/t/stats", { branch: bad }, a), 400, 13);
    await expectError(await server.post("/v1/table/t/index/list", { branch: bad }, a), 400, 13);
    await expectError(await server.post(`/v1/table/t/version/list?branch=${branch}`, undefined, a), 400, 13);
    await expectError(await server.post("/v1/table/t/tags/create", { tag: "ok", version: 1, branch: bad }, a), 400, 13);
    const insert = await fetch(`${server.url}/v1/table/t/insert?branch=${branch}`, { method: "POST", headers: { ...a, "content-type": "application/vnd.apache.arrow.stream" }, body: rows });
    await expectError(insert, 400, 13);
    assert.equal(await expectJson(await server.post("/v1/table/t/count_rows", {}, a)), 3, "nothing was written");
  });

  await t.test("a tag name climbing out of the table on describe, tag version and tag delete → 400, code 13", async () => {
    const tag = "../../../../../secret";
    await expectError(await server.post("/v1/table/t/describe", { tag }, a), 400, 13);
    await expectError(await server.post("/v1/table/t/tags/version", { tag }, a), 400, 13);
    await expectError(await server.post("/v1/table/t/tags/delete", { tag }, a), 400, 13);
  });
});

test("CreateTable with storage_options that say where or as whom to write → 400, code 13, naming the keys and not their values; no table; write-path overrides still taken", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  await addDatabase(server, "a");
  const a = { "x-api-key": await apiKey(server, "a", "write"), "x-svc-database": "a" };
  const create = (name: string, options: Record<string, string>) =>
    fetch(`${server.url}/v1/table/${name}/create?storage_options=${encodeURIComponent(JSON.stringify(options))}`, {
      method: "POST",
      headers: { ...a, "content-type": "application/vnd.apache.arrow.stream" },
      body: rows,
    });
  const hostile: Record<string, string>[] = [
    { aws_endpoint: "http://127.0.0.1:9/elsewhere", allow_http: "true" },
    { azure_endpoint: "http://127.0.0.1:9/devstoreaccount1/other-container" },
    { google_base_url: "http://127.0.0.1:9" },
    { proxy_url: "http://127.0.0.1:9", allow_invalid_certificates: "true" },
    { azure_storage_account_key: "c2VjcmV0LXZhbHVl" },
  ];
  for (const options of hostile) {
    const refused = await expectError(await create("hostile", options), 400, 13);
    for (const key of Object.keys(options)) assert.match(refused.error, new RegExp(key));
    for (const value of Object.values(options)) assert.ok(!refused.error.includes(value), `the refusal does not repeat '${value}'`);
  }
  await expectError(await server.post("/v1/table/hostile/describe", {}, a), 404, 4);
  const taken = await expectJson<{ storage_options: Record<string, string> }>(await create("tuned", { timeout: "30s" }));
  assert.equal(taken.storage_options.timeout, "30s");
  assert.equal(await expectJson(await server.post("/v1/table/tuned/count_rows", {}, a)), 3);
});
