// What GcsStorage sends to the Cloud Storage JSON API, against a local server that records each
// request and answers in the service's documented shapes. No emulator installable here enforces
// ifGenerationMatch, so this checks request shapes and the reading of answers, not a store: the
// one-winner guarantee itself is the service's, covered by the contract suite on other backends.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, beforeEach, test } from "node:test";
import { gcsBackend } from "../../src/storage/gcs/gcs-backend.js";
import { GcsStorage } from "../../src/storage/gcs/gcs-storage.js";
import { multipartParts, type RecordedRequest, type RecordingServer, startRecordingServer } from "../helpers/recording-server.js";

let server: RecordingServer;
let storage: GcsStorage;

before(async () => {
  server = await startRecordingServer();
  storage = new GcsStorage({ google_storage_token: "vended-token", google_base_url: server.url, allow_http: "true" });
});

after(() => server.close());

beforeEach(() => {
  server.requests.length = 0;
});

const manifest = "gs://lake/db/t.lance/_versions/1.manifest";
const objectPath = "/storage/v1/b/lake/o/db/t.lance/_versions/1.manifest";

/** An object resource as the JSON API returns it. */
function objectResource(name: string, extra: Record<string, unknown> = {}) {
  return { kind: "storage#object", bucket: "lake", name, generation: "1700000000000001", size: "2", updated: "2024-05-01T10:00:00.000Z", ...extra };
}

/** The metadata part and the content part of a simple (multipart) upload. */
function uploadParts(request: RecordedRequest): { metadata: Record<string, unknown>; content: Buffer } {
  const [metadata, content] = multipartParts(request);
  assert.ok(metadata && content, "two parts: metadata, then content");
  assert.equal(metadata.contentType, "application/json");
  return { metadata: JSON.parse(metadata.body.toString()) as Record<string, unknown>, content: content.body };
}

test("putIfAbsent on a new name → one simple upload with ifGenerationMatch=0, the bytes and their MD5; 200 → 'created'", async () => {
  server.answer = (request) => ({ status: 200, body: objectResource(request.query.get("name") ?? "") });
  assert.equal(await storage.putIfAbsent(manifest, Buffer.from("m1")), "created");

  assert.equal(server.requests.length, 1, "no session is opened first: the upload is a single request");
  const [upload] = server.requests as [RecordedRequest];
  assert.equal(upload.method, "POST");
  assert.equal(upload.path, "/upload/storage/v1/b/lake/o");
  assert.equal(upload.query.get("uploadType"), "multipart");
  assert.equal(upload.query.get("name"), "db/t.lance/_versions/1.manifest");
  assert.equal(upload.query.get("ifGenerationMatch"), "0");
  assert.equal(upload.headers.authorization, "Bearer vended-token");
  const { metadata, content } = uploadParts(upload);
  assert.deepEqual(content, Buffer.from("m1"));
  assert.equal(metadata.md5Hash, createHash("md5").update("m1").digest("base64"), "the service checks the bytes before storing them");
});

test("putIfAbsent answered 412 → 'exists', after reading the object's metadata to see whose write it is", async () => {
  server.answer = (request) =>
    request.method === "POST"
      ? { status: 412, body: { error: { code: 412, message: "At least one of the pre-conditions you specified did not hold." } } }
      : { status: 200, body: objectResource("db/t.lance/_versions/1.manifest", { metadata: { "quiver-write-id": "another writer" } }) };
  assert.equal(await storage.putIfAbsent(manifest, Buffer.from("m1")), "exists");
  assert.deepEqual(
    server.requests.map((request) => `${request.method} ${request.path}`),
    [`POST /upload/storage/v1/b/lake/o`, `GET ${objectPath}`],
  );
});

test("putIfAbsent answered 412 for an object carrying its own write id (a retry of a stored upload) → 'created'", async () => {
  let writeId: unknown;
  server.answer = (request) => {
    if (request.method !== "POST") return { status: 200, body: objectResource("db/t.lance/_versions/1.manifest", { metadata: { "quiver-write-id": writeId } }) };
    writeId = (uploadParts(request).metadata.metadata as Record<string, unknown>)["quiver-write-id"];
    return { status: 412, body: { error: { code: 412, message: "Precondition Failed" } } };
  };
  assert.equal(await storage.putIfAbsent(manifest, Buffer.from("m1")), "created");
  assert.equal(typeof writeId, "string");
});

test("put → a simple upload without a precondition", async () => {
  server.answer = (request) => ({ status: 200, body: objectResource(request.query.get("name") ?? "") });
  await storage.put("gs://lake/db/hint.json", Buffer.from("{}"));
  const [upload] = server.requests as [RecordedRequest];
  assert.equal(upload.query.get("uploadType"), "multipart");
  assert.equal(upload.query.get("ifGenerationMatch"), null);
  assert.deepEqual(uploadParts(upload).content, Buffer.from("{}"));
});

test("list → delimiter '/' and the prefix as a folder, every page followed; objects (with their sizes) and prefixes relative to it", async () => {
  server.answer = (request) =>
    request.query.get("pageToken") === null
      ? { status: 200, body: { kind: "storage#objects", items: [objectResource("db/t.lance/a.json")], prefixes: ["db/t.lance/data/"], nextPageToken: "page-2" } }
      : { status: 200, body: { kind: "storage#objects", items: [objectResource("db/t.lance/b.json")], prefixes: ["db/t.lance/_versions/"] } };
  const entries = await storage.list("gs://lake/db/t.lance/");
  assert.deepEqual(
    [...entries].sort((a, b) => a.name.localeCompare(b.name)),
    [
      { name: "_versions", kind: "prefix" },
      { name: "a.json", kind: "object", size: 2 },
      { name: "b.json", kind: "object", size: 2 },
      { name: "data", kind: "prefix" },
    ],
  );
  assert.equal(server.requests.length, 2);
  for (const request of server.requests) {
    assert.equal(`${request.method} ${request.path}`, "GET /storage/v1/b/lake/o");
    assert.equal(request.query.get("delimiter"), "/");
    assert.equal(request.query.get("prefix"), "db/t.lance/");
  }
  assert.equal(server.requests[1]?.query.get("pageToken"), "page-2");
});

test("list of a missing bucket (404) → nothing", async () => {
  server.answer = () => ({ status: 404, body: { error: { code: 404, message: "The specified bucket does not exist." } } });
  assert.deepEqual(await storage.list("gs://gone/db"), []);
});

test("readTail → one media download with a suffix Range; 404 → undefined", async () => {
  server.answer = () => ({ status: 206, headers: { "content-range": "bytes 6-9/10" }, body: "tail" });
  assert.deepEqual(await storage.readTail(manifest, 4), Buffer.from("tail"));
  const [download] = server.requests as [RecordedRequest];
  assert.equal(`${download.method} ${download.path}`, `GET ${objectPath}`);
  assert.equal(download.query.get("alt"), "media");
  assert.equal(download.headers.range, "bytes=-4");

  server.answer = () => ({ status: 404, body: { error: { code: 404, message: "No such object" } } });
  assert.equal(await storage.readTail(manifest, 4), undefined);
});

test("head → size, the quoted hex MD5 as ETag (what Lance reports) and the update time; 404 → undefined", async () => {
  const md5 = createHash("md5").update("m1");
  server.answer = () => ({ status: 200, body: objectResource("db/t.lance/_versions/1.manifest", { md5Hash: md5.copy().digest("base64"), etag: "CIHa8r3Q+YIDEAE=" }) });
  assert.deepEqual(await storage.head(manifest), { size: 2, eTag: `"${md5.digest("hex")}"`, modifiedMillis: Date.parse("2024-05-01T10:00:00.000Z") });
  assert.equal(`${server.requests[0]?.method} ${server.requests[0]?.path}`, `GET ${objectPath}`);

  server.answer = () => ({ status: 404, body: { error: { code: 404, message: "No such object" } } });
  assert.equal(await storage.head(manifest), undefined);
});

test("deletePrefix → a flat listing of the prefix as a folder, then a DELETE per object; nothing beside it", async () => {
  server.answer = (request) =>
    request.method === "GET"
      ? { status: 200, body: { kind: "storage#objects", items: [objectResource("db/t.lance/a.json"), objectResource("db/t.lance/data/b.lance")] } }
      : { status: 204 };
  await storage.deletePrefix("gs://lake/db/t.lance", "gs://lake/db");
  const [listing, ...deletes] = server.requests as [RecordedRequest, ...RecordedRequest[]];
  assert.equal(listing.query.get("prefix"), "db/t.lance/", "a sibling sharing the name's beginning (t.lance-other) is not listed");
  assert.equal(listing.query.get("delimiter"), null);
  assert.deepEqual(deletes.map((request) => `${request.method} ${request.path}`).sort(), [
    "DELETE /storage/v1/b/lake/o/db/t.lance/a.json",
    "DELETE /storage/v1/b/lake/o/db/t.lance/data/b.lance",
  ]);
});

test("options that cannot reach a store are refused when the storage is opened, and no error quotes a secret", () => {
  const key = '{"private_key": "-----BEGIN PRIVATE KEY-----secret';
  assert.throws(() => gcsBackend.open({}), /google_service_account, google_service_account_key or google_storage_token/);
  assert.throws(() => gcsBackend.open({ google_storage_token: "t", google_base_url: "http://127.0.0.1:1" }), /plain HTTP; set allow_http/);
  assert.throws(() => gcsBackend.open({ google_service_account: "/sa.json", google_service_account_key: "{}" }), /not both/);
  assert.throws(
    () => gcsBackend.open({ service_account_key: key }),
    (error: Error) => /not valid JSON/.test(error.message) && !error.message.includes("secret"),
  );
  assert.ok(gcsBackend.open({ service_account: "/sa.json" }) instanceof GcsStorage, "an alias of google_service_account");
  assert.equal(gcsBackend.scheme, "gs");
});
