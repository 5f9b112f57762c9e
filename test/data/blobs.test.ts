/**
 * Blob v2 columns read by the real LanceDB 0.39 client over HTTP (`fetchBlobs`, `fetchBlobFiles`
 * and their ranged reads), the blob bytes route's status codes and ranges on the wire, its bad
 * inputs, and the LSM getters.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { Field, Int64, Schema, Utf8 } from "apache-arrow";
import { expectError, expectJson, startTestServer, type TestServer } from "../helpers/test-server.js";
import { sharedAzurite } from "../helpers/test-backend.js";

const bigBlob = Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 7 + (i >> 11)) & 0xff));
const smallBlob = Buffer.from("hello, blob");
/** Rows in id order: a small blob, a null, an empty blob, a 3 MiB blob. */
const blobs: (Buffer | null)[] = [smallBlob, null, Buffer.alloc(0), bigBlob];

async function blobTable(t: { after(fn: () => unknown): void }) {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const schema = new Schema([new Field("id", new Int64()), new Field("name", new Utf8()), lancedb.blob("payload")]);
  const rows = blobs.map((payload, id) => ({ id: BigInt(id), name: `row ${id}`, payload }));
  const table = await db.createTable("media", rows, { schema });
  const listed = await table.query().select(["id"]).withRowId().toArray();
  const rowIds = [...listed].sort((a, b) => Number(a.id) - Number(b.id)).map((row) => row._rowid as bigint);
  return { server, table, rowIds };
}

const bytesRoute = (rowId: bigint | string, column = "payload") => `/v1/table/media/blob/${column}/${rowId}/bytes`;

test("FetchTableBlobs through the LanceDB client: every blob byte-identical, in order, nulls and duplicates kept", async (t) => {
  const { table, rowIds } = await blobTable(t);
  const asked = [rowIds[3]!, rowIds[0]!, rowIds[1]!, rowIds[2]!, rowIds[0]!];
  const fetched = await table.fetchBlobs("payload", asked);
  assert.equal(fetched.length, 5);
  assert.ok(fetched[0]!.equals(bigBlob));
  assert.ok(fetched[1]!.equals(smallBlob));
  assert.equal(fetched[2], null);
  assert.equal(fetched[3]!.length, 0);
  assert.ok(fetched[4]!.equals(smallBlob));
});

test("fetchBlobFiles through the LanceDB client: sizes, nulls, and ranged reads of a 3 MiB blob byte-identical", async (t) => {
  const { table, rowIds } = await blobTable(t);
  const files = await table.fetchBlobFiles("payload", rowIds);
  assert.deepEqual(files.map((file) => (file === null ? null : Number(file.size()))), [smallBlob.length, null, 0, bigBlob.length]);
  const big = files[3]!;
  const ranges: [number, number][] = [[0, 1], [5, 1_500_000], [1_048_570, 1_048_590], [bigBlob.length - 10, bigBlob.length], [0, bigBlob.length]];
  for (const [start, end] of ranges) {
    const bytes = await big.readRange(BigInt(start), BigInt(end));
    assert.ok(bytes.equals(bigBlob.subarray(start, end)), `bytes ${start}-${end}`);
  }
  assert.ok((await files[0]!.read()).equals(smallBlob));
  assert.equal((await files[2]!.read()).length, 0);
});

test("GetTableBlobBytes on the wire: 206 ranges with exact Content-Range, 200 whole, 204 null, 416 empty or past the end", async (t) => {
  const { server, rowIds } = await blobTable(t);
  const [small, nul, empty, big] = rowIds as [bigint, bigint, bigint, bigint];
  const size = bigBlob.length;
  const cases: [string, number, number][] = [
    ["bytes=0-0", 0, 1],
    ["bytes=100-199", 100, 200],
    [`bytes=${size - 5}-${size + 100}`, size - 5, size],
    ["bytes=2000000-", 2_000_000, size],
    ["bytes=-7", size - 7, size],
  ];
  for (const [range, start, end] of cases) {
    const response = await server.get(bytesRoute(big), { range });
    assert.equal(response.status, 206, range);
    assert.equal(response.headers.get("content-range"), `bytes ${start}-${end - 1}/${size}`, range);
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(bigBlob.subarray(start, end)), range);
    assert.match(response.headers.get("x-lancedb-version") ?? "", /^\d+$/);
  }
  const whole = await server.get(bytesRoute(big));
  assert.equal(whole.status, 200);
  assert.equal(whole.headers.get("content-length"), String(size));
  assert.ok(Buffer.from(await whole.arrayBuffer()).equals(bigBlob));
  const smallWhole = await server.get(bytesRoute(small));
  assert.ok(Buffer.from(await smallWhole.arrayBuffer()).equals(smallBlob));

  const nullBlob = await server.get(bytesRoute(nul), { range: "bytes=0-0" });
  assert.equal(nullBlob.status, 204);
  const emptyBlob = await server.get(bytesRoute(empty), { range: "bytes=0-0" });
  assert.equal(emptyBlob.status, 416);
  assert.equal(emptyBlob.headers.get("content-range"), "bytes */0");
  const pastEnd = await server.get(bytesRoute(small), { range: `bytes=${smallBlob.length}-` });
  assert.equal(pastEnd.status, 416);
  assert.equal(pastEnd.headers.get("content-range"), `bytes */${smallBlob.length}`);
  const versioned = await server.get(`${bytesRoute(small)}?version=1`, { range: "bytes=0-4" });
  assert.equal(versioned.headers.get("x-lancedb-version"), "1");
  assert.equal(Buffer.from(await versioned.arrayBuffer()).toString(), "hello");
});

test("Blob reads with bad input: unknown column → 404 code 12, non-blob column, row id out of range or malformed Range → 400 code 13, unknown table → 404 code 4", async (t) => {
  const { server, rowIds } = await blobTable(t);
  const unknownColumn = await expectError(await server.post("/v1/table/media/fetch_blobs", { column: "nope", row_ids: [0] }), 404, 12);
  assert.match(unknownColumn.error, /nope/);
  const plainColumn = await expectError(await server.post("/v1/table/media/fetch_blobs", { column: "name", row_ids: [0] }), 400, 13);
  assert.match(plainColumn.error, /not a blob column/);
  const outOfRange = await expectError(await server.post("/v1/table/media/fetch_blobs", { column: "payload", row_ids: [Number(rowIds[0]), 4096] }), 400, 13);
  assert.match(outOfRange.error, /row/i);
  await expectError(await server.post("/v1/table/media/fetch_blobs", { column: "payload", row_ids: [-1] }), 400, 13);
  await expectError(await server.post("/v1/table/missing/fetch_blobs", { column: "payload", row_ids: [0] }), 404, 4);

  await expectError(await server.get(bytesRoute(rowIds[0]!, "nope")), 404, 12);
  await expectError(await server.get(bytesRoute(rowIds[0]!, "name")), 400, 13);
  await expectError(await server.get(bytesRoute(4096n)), 400, 13);
  const notAnId = await expectError(await server.get(bytesRoute("abc")), 400, 13);
  assert.match(notAnId.error, /row id/);
  for (const range of ["bytes=5-2", "bytes=0-1,4-5", "items=0-1", "bytes=-", "bytes=x-1"]) {
    const refused = await expectError(await server.get(bytesRoute(rowIds[0]!), { range }), 400, 13);
    assert.match(refused.error, /Range/, range);
  }
  await expectError(await server.get("/v1/table/missing/blob/payload/0/bytes"), 404, 4);
});

async function lsmGetters(server: TestServer) {
  const spec = await expectJson(await server.post("/v1/table/media/get_lsm_write_spec"));
  const stats = await expectJson(await server.post("/v1/table/media/get_lsm_stats", { include_generation_rows: true }));
  return { spec, stats };
}

test("LSM getters on a table with no write spec: the client reads none; set, flush and compact stay 406 code 0", async (t) => {
  const { server, table } = await blobTable(t);
  assert.deepEqual(await lsmGetters(server), { spec: { lsm_write_spec: null }, stats: { lsm_stats: null } });
  assert.equal(await table.getLsmWriteSpec(), undefined);
  assert.equal(await table.getLsmStats(), undefined);
  await expectError(await server.post("/v1/table/missing/get_lsm_write_spec"), 404, 4);
  const flush = await expectError(await server.post("/v1/table/media/flush_lsm"), 406, 0);
  assert.match(flush.error, /LSM/);
  await expectError(await server.post("/v1/table/media/set_lsm_write_spec", { sharding: { mode: "unsharded" } }), 406, 0);
});

test("A table whose LSM write spec another writer installed: the getter reports it, stats → 406 code 0, MergeInsertIntoTable refused naming the spec", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const schema = new Schema([new Field("id", new Int64()), new Field("name", new Utf8())]);
  const table = await db.createTable("media", [{ id: 1n, name: "one" }, { id: 2n, name: "two" }], { schema });
  const described = await expectJson(await server.post("/v1/table/media/describe", {}));
  // Another writer, in-process on the same table, installs the spec: on Azurite with the account's key.
  const location = String(described.location).replace(/\/+$/, "");
  const onObjectStore = /^[a-z][a-z0-9+.-]*:\/\//i.test(location);
  const local = await lancedb.connect(path.posix.dirname(location), onObjectStore ? { storageOptions: (await sharedAzurite()).storageOptions as Record<string, string> } : {});
  const direct = await local.openTable(path.basename(location, ".lance"));
  await direct.setUnenforcedPrimaryKey("id");
  await direct.setLsmWriteSpec({ specType: "bucket", column: "id", numBuckets: 4, maintainedIndexes: [] });

  const spec = await expectJson(await server.post("/v1/table/media/get_lsm_write_spec"));
  assert.deepEqual(spec.lsm_write_spec.sharding, { mode: "bucket", column: "id", num_buckets: 4 });
  await expectError(await server.post("/v1/table/media/get_lsm_stats", {}), 406, 0);
  await assert.rejects(
    table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute([{ id: 3n, name: "three" }]),
    /LSM write spec \(bucket sharding on 'id' \(4 buckets\)\)/,
  );
  assert.equal(await table.countRows(), 2);
});
