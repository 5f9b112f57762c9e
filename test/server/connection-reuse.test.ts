// A keep-alive connection keeps answering after a request the server refused before reading
// its whole body: pooling clients send their next request on the same connection.
import assert from "node:assert/strict";
import { test } from "node:test";
import { arrowStream } from "../helpers/arrow.js";
import { unreadBodyDrainLimit } from "../../src/server/unread-body.js";
import { RawConnection, errorBodyOf } from "../helpers/raw-http.js";
import { expectJson, startTestServer } from "../helpers/test-server.js";

/** An Arrow stream whose first message has a negative metadata length (the reader stops there), then `filler` bytes. */
function corruptArrowUpload(filler: number): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff, 0xf0, 0xff, 0xff, 0xff]), Buffer.alloc(filler, 0x5a)]);
}

test("a refused upload leaves its keep-alive connection usable", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.upload("/v1/table/t/create", arrowStream({ id: Int32Array.from([1]) })));

  for (const size of [64 * 1024, 1024 * 1024]) {
    await t.test(`a corrupt Arrow upload with ${size / 1024} KiB unread, then a second request on the same connection`, async () => {
      const connection = await RawConnection.open(server.url);
      t.after(() => connection.close());
      connection.request("POST", "/v1/table/t/insert", { headers: { "content-type": "application/vnd.apache.arrow.stream" }, body: corruptArrowUpload(size) });
      connection.request("POST", "/v1/table/t/describe", { headers: { "content-type": "application/json" }, body: "{}" });
      const refused = await connection.response();
      assert.equal(refused.status, 400);
      assert.equal(errorBodyOf(refused).code, 13);
      const next = await connection.response();
      assert.equal(next.status, 200, next.body.toString());
      assert.equal(JSON.parse(next.body.toString()).version, 1);
    });
  }

  await t.test("an OAuth token request over the form limit, then a second request on the same connection", async () => {
    const connection = await RawConnection.open(server.url);
    t.after(() => connection.close());
    connection.request("POST", "/oauth/token", { headers: { "content-type": "application/x-www-form-urlencoded" }, body: Buffer.alloc(200 * 1024, 0x61) });
    const refused = await connection.response();
    assert.equal(refused.status, 400);
    assert.equal(errorBodyOf(refused).code, 13);
    connection.request("POST", "/v1/table/t/describe", { headers: { "content-type": "application/json" }, body: "{}" });
    const next = await connection.response();
    assert.equal(next.status, 200, next.body.toString());
  });

  await t.test("a body that is not JSON, or not UTF-8, is refused (400, code 13) without closing the connection", async () => {
    const connection = await RawConnection.open(server.url);
    t.after(() => connection.close());
    for (const body of [Buffer.from('{"version":'), Buffer.from([0x7b, 0xff, 0xfe, 0x7d])]) {
      connection.request("POST", "/v1/table/t/describe", { headers: { "content-type": "application/json" }, body });
      const refused = await connection.response();
      assert.equal(refused.status, 400);
      assert.equal(errorBodyOf(refused).code, 13);
      assert.notEqual(refused.headers.connection, "close");
    }
    connection.request("POST", "/v1/table/t/describe", { headers: { "content-type": "application/json" }, body: "{}" });
    assert.equal((await connection.response()).status, 200);
  });

  await t.test("answers given before a request is fully parsed keep the connection", async () => {
    const connection = await RawConnection.open(server.url);
    t.after(() => connection.close());
    for (const [method, path] of [["GET", "/nowhere"], ["POST", "/v1/table/t/teleport"], ["GET", "/health"]]) {
      connection.request(method, path, method === "POST" ? { headers: { "content-type": "application/json" }, body: "{}" } : {});
      const response = await connection.response();
      assert.notEqual(response.headers.connection, "close", `${method} ${path}`);
    }
  });

  await t.test("past the drain limit the refusal closes the connection instead of waiting for the rest", async () => {
    const connection = await RawConnection.open(server.url);
    t.after(() => connection.close());
    connection.request("POST", "/v1/table/t/insert", { headers: { "content-type": "application/vnd.apache.arrow.stream" }, body: corruptArrowUpload(unreadBodyDrainLimit + 1) });
    const refused = await connection.response();
    assert.equal(refused.status, 400);
    assert.equal(errorBodyOf(refused).code, 13);
    assert.equal(refused.headers.connection, "close");
    await connection.closedWithin();
  });
});
