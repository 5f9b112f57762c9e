// What S3Storage sends on the wire. s3rver ignores conditional creates, so whether a real store
// would refuse the second create cannot be tested here; what is tested is that every create
// carries `If-None-Match: *`, that buckets are addressed the way Lance addresses them, and that
// the probe the server relies on reports s3rver as a store that does not honour the condition.
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, type TestContext, test } from "node:test";
import { honoursConditionalCreates, probeFolderName } from "../../src/storage/conditional-create-probe.js";
import { S3Storage } from "../../src/storage/s3/s3-storage.js";
import { type S3rver, s3rverKey, startS3rver } from "../helpers/s3rver.js";

describe("S3Storage requests against s3rver", () => {
  let s3rver: S3rver;
  before(async () => {
    s3rver = await startS3rver();
  });
  after(() => s3rver.stop());

  const sentSince = (start: number) => s3rver.requests.slice(start);

  test("putIfAbsent sends a path-style PUT with If-None-Match: * and a SigV4 signature for s3 in the region", async () => {
    const storage = new S3Storage(s3rver.storageOptions);
    const start = s3rver.requests.length;
    assert.equal(await storage.putIfAbsent(`s3://${s3rver.bucket}/db/t.lance/_versions/1.manifest`, Buffer.from("v1")), "created");
    const [put, ...others] = sentSince(start);
    assert.deepEqual(others, []);
    assert.equal(put?.method, "PUT");
    assert.equal(put?.url.split("?")[0], `/${s3rver.bucket}/db/t.lance/_versions/1.manifest`);
    assert.equal(put?.headers.host, new URL(s3rver.endpoint).host, "the bucket is in the path, not the host");
    assert.equal(put?.headers["if-none-match"], "*");
    assert.match(put?.headers.authorization ?? "", new RegExp(`^AWS4-HMAC-SHA256 Credential=${s3rverKey}/\\d{8}/us-east-1/s3/aws4_request,`));
    assert.equal(put?.headers["x-amz-sdk-checksum-algorithm"], undefined, "no checksum headers beyond what S3 requires");
    assert.equal(Object.keys(put?.headers ?? {}).some((name) => name.startsWith("x-amz-checksum-")), false);
  });

  test("put sends a plain PUT without a condition, and replaces the object", async () => {
    const storage = new S3Storage(s3rver.storageOptions);
    const location = `s3://${s3rver.bucket}/db/hint.json`;
    const start = s3rver.requests.length;
    await storage.put(location, Buffer.from("1"));
    await storage.put(location, Buffer.from("22"));
    const puts = sentSince(start);
    assert.deepEqual(puts.map((request) => request.method), ["PUT", "PUT"]);
    assert.ok(puts.every((request) => request.headers["if-none-match"] === undefined));
    assert.deepEqual(await storage.read(location), Buffer.from("22"));
  });

  test("readTail asks for an explicit byte range ending at the object's last byte", async () => {
    const storage = new S3Storage(s3rver.storageOptions);
    const location = `s3://${s3rver.bucket}/db/footer.bin`;
    await storage.put(location, Buffer.from("0123456789"));
    const start = s3rver.requests.length;
    assert.deepEqual(await storage.readTail(location, 4), Buffer.from("6789"));
    const ranged = sentSince(start).filter((request) => request.method === "GET");
    assert.deepEqual(ranged.map((request) => request.headers.range), ["bytes=6-9"]);
  });

  test("honoursConditionalCreates on s3rver → false, because its second create also succeeds; the probe leaves nothing behind", async () => {
    const storage = new S3Storage(s3rver.storageOptions);
    const root = `s3://${s3rver.bucket}/data`;
    const start = s3rver.requests.length;
    assert.equal(await honoursConditionalCreates(storage, root), false);
    const creates = sentSince(start).filter((request) => request.method === "PUT");
    assert.equal(creates.length, 2);
    assert.ok(creates.every((request) => request.headers["if-none-match"] === "*"), "both creates were conditional");
    assert.deepEqual(await storage.list(`${root}/${probeFolderName}`), []);
  });

  test("Lance's other spellings of the keys (endpoint, region, access_key_id, ...) reach the same store", async () => {
    const storage = new S3Storage({
      access_key_id: s3rverKey,
      secret_access_key: s3rverKey,
      region: "eu-west-1",
      endpoint: `${s3rver.endpoint}/`,
      aws_allow_http: "1",
    });
    const location = `s3://${s3rver.bucket}/db/aliases.json`;
    const start = s3rver.requests.length;
    await storage.put(location, Buffer.from("{}"));
    assert.equal(sentSince(start)[0]?.url.split("?")[0], `/${s3rver.bucket}/db/aliases.json`, "path style by default with an endpoint");
    assert.match(sentSince(start)[0]?.headers.authorization ?? "", /\/eu-west-1\/s3\/aws4_request/);
    assert.equal((await storage.head(location))?.size, 2);
  });
});

test("S3Storage with an http endpoint and no allow_http → refused when configured, as Lance refuses it", () => {
  assert.throws(() => new S3Storage({ aws_endpoint: "http://127.0.0.1:9000", aws_region: "us-east-1" }), /allow_http/);
  assert.throws(() => new S3Storage({ aws_endpoint: "http://127.0.0.1:9000", allow_http: "false" }), /allow_http/);
  assert.throws(() => new S3Storage({ aws_endpoint: "127.0.0.1:9000", allow_http: "true" }), /not an http\(s\) URL/);
  assert.doesNotThrow(() => new S3Storage({ aws_endpoint: "https://s3.example.com", aws_region: "us-east-1" }));
});

/** A local HTTP server standing in for a bucket's host: records each request and answers with `answer`. */
async function startBucketHost(t: TestContext, answer: { status: number; body?: string }) {
  const received: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    received.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers });
    const headers = answer.body === undefined ? { ETag: '"e1"' } : { "Content-Type": "application/xml" };
    request.resume().on("end", () => response.writeHead(answer.status, headers).end(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const storageOptions = { aws_access_key_id: "AKIDEXAMPLE", aws_secret_access_key: "secret", aws_region: "us-east-1", aws_endpoint: endpoint, allow_http: "true" };
  return { endpoint, received, storageOptions };
}

const s3Error = (code: string) => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>refused</Message></Error>`;

test("S3Storage with virtual-hosted style and an endpoint → requests go to the endpoint as the bucket's own host, key alone in the path", async (t) => {
  const bucketHost = await startBucketHost(t, { status: 200 });
  const storage = new S3Storage({ ...bucketHost.storageOptions, aws_virtual_hosted_style_request: "true" });
  assert.equal(await storage.putIfAbsent("s3://my-bucket/db/t.lance/_versions/1.manifest", Buffer.from("v1")), "created");
  assert.equal(bucketHost.received.length, 1);
  assert.equal(bucketHost.received[0]?.method, "PUT");
  assert.equal(bucketHost.received[0]?.url.split("?")[0], "/db/t.lance/_versions/1.manifest");
  assert.equal(bucketHost.received[0]?.headers.host, new URL(bucketHost.endpoint).host);
  assert.equal(bucketHost.received[0]?.headers["if-none-match"], "*");
});

test("putIfAbsent refused with 412 PreconditionFailed or 409 ConditionalRequestConflict → 'exists', without retrying", async (t) => {
  for (const [status, code] of [
    [412, "PreconditionFailed"],
    [409, "ConditionalRequestConflict"],
  ] as const) {
    const bucketHost = await startBucketHost(t, { status, body: s3Error(code) });
    const storage = new S3Storage(bucketHost.storageOptions);
    assert.equal(await storage.putIfAbsent("s3://my-bucket/db/1.manifest", Buffer.from("v1")), "exists", code);
    assert.equal(bucketHost.received.length, 1, code);
  }
});

test("putIfAbsent refused for another reason (403 AccessDenied) → the error is thrown, not taken for 'exists'", async (t) => {
  const bucketHost = await startBucketHost(t, { status: 403, body: s3Error("AccessDenied") });
  const storage = new S3Storage(bucketHost.storageOptions);
  await assert.rejects(storage.putIfAbsent("s3://my-bucket/db/1.manifest", Buffer.from("v1")), { name: "AccessDenied" });
});
