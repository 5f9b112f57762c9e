// The object cache's proxy on S3 and Cloud Storage. S3 (s3rver): the engine's requests are signed
// again for the store's own host, so their SigV4 signatures check against it, and a table reads
// back its rows, warm reads without a data request. Cloud Storage (a recording server): the
// engine's bearer token goes on with every request, the proxy's own block reads included, and a
// block read once is answered from disk.
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { SignatureV4 } from "@smithy/signature-v4";
import { ObjectCache } from "../../src/storage/object-cache/object-cache.js";
import { Storages } from "../../src/storage/storages.js";
import { arrowStream, readArrow } from "../helpers/arrow.js";
import { rawRequest } from "../helpers/raw-http.js";
import { type Answer, type RecordingServer, startRecordingServer } from "../helpers/recording-server.js";
import { type S3rver, s3rverKey, startS3rver } from "../helpers/s3rver.js";
import { type TestServer, expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";

class Sha256 {
  private readonly hash;
  constructor(secret?: string | Uint8Array) {
    this.hash = secret === undefined ? createHash("sha256") : createHmac("sha256", secret as Uint8Array);
  }
  update(data: string | Uint8Array): void {
    this.hash.update(data);
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

/** Whether a request s3rver received carries a SigV4 signature computed for what it received (its host included). */
async function signatureChecks(request: S3rver["requests"][number]): Promise<boolean> {
  const authorization = String(request.headers.authorization ?? "");
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(";") ?? [];
  const url = new URL(request.url, `http://${request.headers.host}`);
  const query: Record<string, string> = Object.fromEntries(url.searchParams);
  const headers = Object.fromEntries(signedHeaders.map((name) => [name, String(request.headers[name] ?? "")]));
  const amzDate = String(request.headers["x-amz-date"]);
  const signingDate = new Date(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`);
  const signer = new SignatureV4({ service: "s3", region: "us-east-1", credentials: { accessKeyId: s3rverKey, secretAccessKey: s3rverKey }, sha256: Sha256 as never, uriEscapePath: false, applyChecksum: true });
  const signed = await signer.sign({ method: request.method, protocol: "http:", hostname: url.hostname, port: Number(url.port), path: url.pathname, query, headers }, { signingDate });
  return signed.headers.authorization === authorization;
}

/** The status of a request whose path goes out exactly as written. */
async function rawStatus(method: string, url: string): Promise<number> {
  const { origin } = new URL(url);
  return (await rawRequest(origin, method, url.slice(origin.length), { body: method === "PUT" || method === "POST" ? "x" : undefined })).status;
}

describe("the object cache on an S3 data location (s3rver)", () => {
  let s3rver: S3rver;
  let server: TestServer;

  before(async () => {
    s3rver = await startS3rver();
    const root = tempRoot("quiver-cache-s3-");
    server = await startTestServer({
      root,
      data: `s3://${s3rver.bucket}/data`,
      storageOptions: s3rver.storageOptions,
      // s3rver ignores conditional creates; the test writes from one server only.
      allowUnsafeObjectStore: true,
      // Blocks only: what is tested is every read going through the proxy (a local copy would be
      // made with the server's own ranged reads, which this test would count as the engine's).
      objectCache: { dir: path.join(root, "object-cache"), maxBytes: 64 * 1024 * 1024, copyBytes: 0, blockSize: 16 * 1024 },
    });
  });

  after(async () => {
    await server.close();
    await s3rver.stop();
  });

  test("a table created and read through the proxy → its rows read back; each request reaches s3rver signed for s3rver's own host; warm reads fetch no data file", async () => {
    await expectJson(await server.post("/v1/namespace/lake/create", {}));
    const ids = Int32Array.from({ length: 2000 }, (_, i) => i);
    await expectJson(await server.upload("/v1/table/lake$t/create", arrowStream({ id: ids, half: Float64Array.from(ids, (id) => id / 2) })));
    const read = async () => {
      const response = await server.post("/v1/table/lake$t/query", { k: 2, vector: null, filter: "id IN (3, 1999)", columns: ["id", "half"] });
      assert.equal(response.status, 200, await response.clone().text());
      return (await readArrow(response)).toArray().map((row) => Number(row.half)).sort((a, b) => a - b);
    };
    assert.deepEqual(await read(), [1.5, 999.5]);
    const engineRequests = s3rver.requests.filter((request) => /\/data\/[^/?]+\.lance/.test(request.url));
    assert.ok(engineRequests.some((request) => request.method === "PUT") && engineRequests.some((request) => request.method === "GET"), "the engine wrote and read data files");
    const host = new URL(s3rver.endpoint).host;
    for (const request of engineRequests) {
      assert.equal(request.headers.host, host, `${request.method} ${request.url} is addressed to the store`);
      assert.ok(await signatureChecks(request), `${request.method} ${request.url} carries a signature that checks for the store`);
    }
    const before = s3rver.requests.length;
    assert.deepEqual(await read(), [1.5, 999.5]);
    const dataReads = s3rver.requests.slice(before).filter((request) => request.method === "GET" && /\/data\/[^/?]+\.lance(\?|$)/.test(request.url));
    assert.deepEqual(dataReads, [], "warm reads take their data from the cache");
  });

  test("the proxy signs with the root's credential only what stays under the root: another bucket, another prefix or a '..' path → 403, unsigned and unsent", async () => {
    await s3rver.createBucket("other-tenant");
    const endpoint = server.runtime.storages.optionsFor(`s3://${s3rver.bucket}/data`).aws_endpoint as string;
    assert.match(endpoint, /^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}$/, "the engine is pointed at the proxy");
    const before = s3rver.requests.length;
    for (const [method, target] of [
      ["GET", "/other-tenant/secret.json"],
      ["PUT", "/other-tenant/planted.json"],
      ["GET", "/other-tenant?list-type=2&prefix="],
      ["POST", "/other-tenant?delete"],
      ["GET", `/${s3rver.bucket}/elsewhere/secret.json`],
      ["GET", `/${s3rver.bucket}?list-type=2&prefix=elsewhere/`],
      ["GET", `/${s3rver.bucket}/data/../elsewhere/secret.json`],
      ["GET", `/${s3rver.bucket}/data/%2E%2E/elsewhere/secret.json`],
    ] as const) {
      // Sent as written: fetch would resolve the '..' segments before sending them.
      assert.equal(await rawStatus(method, `${endpoint}${target}`), 403, `${method} ${target}`);
    }
    assert.deepEqual(s3rver.requests.slice(before).map((request) => `${request.method} ${request.url}`), [], "nothing reached the store");
    const inside = await fetch(`${endpoint}/${s3rver.bucket}?list-type=2&prefix=data/`);
    assert.equal(inside.status, 200, "a listing under the root is still served");
  });
});

describe("the object cache on a Cloud Storage root (recording server)", () => {
  let recorder: RecordingServer;
  let storages: Storages;
  let endpoint: string;
  const object = Buffer.from(Array.from({ length: 40_000 }, (_, i) => i % 253));
  const blockSize = 16 * 1024;

  before(async () => {
    recorder = await startRecordingServer();
    recorder.answer = (request): Answer => {
      if (request.query.has("list-type")) return { status: 200, headers: { "content-type": "application/xml" }, body: "<ListBucketResult></ListBucketResult>" };
      const match = /^bytes=(\d+)-(\d+)$/.exec(String(request.headers.range ?? ""));
      if (!match) return { status: 200, headers: { etag: '"g1"', "last-modified": "Wed, 01 May 2024 10:00:00 GMT" }, body: object };
      const start = Number(match[1]);
      const end = Math.min(Number(match[2]), object.length - 1);
      return {
        status: 206,
        headers: { etag: '"g1"', "last-modified": "Wed, 01 May 2024 10:00:00 GMT", "content-range": `bytes ${start}-${end}/${object.length}` },
        body: object.subarray(start, end + 1),
      };
    };
    storages = new Storages(new ObjectCache({ dir: tempRoot("quiver-cache-gcs-"), maxBytes: 1024 * 1024, blockSize }));
    await storages.configure("gs://lake", { google_storage_token: "engine-token", google_base_url: recorder.url, allow_http: "true" });
    endpoint = storages.optionsFor("gs://lake/db").google_base_url as string;
  });

  after(async () => {
    await storages.close();
    await recorder.close();
  });

  const read = (name: string, range: string, authorization = "Bearer engine-token") => fetch(`${endpoint}/lake/${name}`, { headers: { range, authorization } });

  test("a ranged read of a data file → the store gets the aligned block with the engine's bearer; a second read is answered from disk", async () => {
    assert.ok(endpoint.startsWith("http://127.0.0.1:") && !endpoint.startsWith(recorder.url), "the engine is pointed at the proxy");
    recorder.requests.length = 0;
    const first = await read("db/t.lance/data/f1.lance", "bytes=20000-20099");
    assert.equal(first.status, 206);
    assert.equal(first.headers.get("content-range"), `bytes 20000-20099/${object.length}`);
    assert.deepEqual(Buffer.from(await first.arrayBuffer()), object.subarray(20000, 20100));
    assert.equal(recorder.requests.length, 1);
    assert.equal(recorder.requests[0]?.headers.authorization, "Bearer engine-token");
    assert.equal(recorder.requests[0]?.headers.range, `bytes=${blockSize}-${2 * blockSize - 1}`);
    assert.equal(recorder.requests[0]?.path, "/lake/db/t.lance/data/f1.lance");

    const second = await read("db/t.lance/data/f1.lance", "bytes=20050-20149");
    assert.deepEqual(Buffer.from(await second.arrayBuffer()), object.subarray(20050, 20150));
    assert.equal(recorder.requests.length, 1, "no second store request");
  });

  test("a listing → sent on to the store with the engine's bearer, every time", async () => {
    recorder.requests.length = 0;
    for (let round = 0; round < 2; round += 1) {
      const listing = await fetch(`${endpoint}/lake?list-type=2&prefix=db%2F`, { headers: { authorization: "Bearer engine-token" } });
      assert.equal(listing.status, 200);
      await listing.arrayBuffer();
    }
    assert.equal(recorder.requests.length, 2);
    for (const request of recorder.requests) assert.equal(request.headers.authorization, "Bearer engine-token");
  });

  test("a request without the proxy's path → 403, nothing reaches the store", async () => {
    recorder.requests.length = 0;
    const response = await fetch(`${new URL(endpoint).origin}/lake/db/t.lance/data/f1.lance`, { headers: { range: "bytes=0-9" } });
    assert.equal(response.status, 403);
    await response.arrayBuffer();
    assert.equal(recorder.requests.length, 0);
  });
});
