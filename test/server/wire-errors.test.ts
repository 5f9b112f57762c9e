// Requests the router or Node's HTTP parser refuse still get the spec's ErrorResponse, with an
// integer `code`: clients classify errors only by that code (spec/errors.md §1).
import assert from "node:assert/strict";
import { test } from "node:test";
import { RawConnection, errorBodyOf } from "../helpers/raw-http.js";
import { startTestServer } from "../helpers/test-server.js";

test("errors below the operations keep the ErrorResponse shape", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());

  async function exchange(bytes: string): Promise<{ status: number; code: number; error?: string; headers: Record<string, string>; connection: RawConnection }> {
    const connection = await RawConnection.open(server.url);
    t.after(() => connection.close());
    connection.write(bytes);
    const response = await connection.response();
    return { status: response.status, ...errorBodyOf(response), headers: response.headers, connection };
  }

  await t.test("a path that is not valid percent-encoding → 400, code 13, and the connection stays usable", async () => {
    const answer = await exchange("POST /v1/namespace/%ZZ/create HTTP/1.1\r\nhost: q\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}");
    assert.deepEqual([answer.status, answer.code], [400, 13]);
    answer.connection.request("GET", "/health");
    assert.equal((await answer.connection.response()).status, 200);
  });

  await t.test("oversized headers → 431 with code 13", async () => {
    const answer = await exchange(`GET /health HTTP/1.1\r\nhost: q\r\nx-padding: ${"a".repeat(64 * 1024)}\r\n\r\n`);
    assert.deepEqual([answer.status, answer.code], [431, 13]);
  });

  await t.test("a Content-Length that is not a number → 400, code 13, and the connection is closed", async () => {
    const answer = await exchange("POST /v1/namespace/n/create HTTP/1.1\r\nhost: q\r\ncontent-length: two\r\n\r\n{}");
    assert.deepEqual([answer.status, answer.code], [400, 13]);
    assert.match(answer.error ?? "", /Content-Length/);
    await answer.connection.closedWithin();
  });

  await t.test("broken chunked framing → 400, code 13", async () => {
    const answer = await exchange(
      "POST /v1/namespace/n/create HTTP/1.1\r\nhost: q\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
    );
    assert.deepEqual([answer.status, answer.code], [400, 13]);
  });

  await t.test("an unknown operation on a known resource → 406, code 0", async () => {
    for (const request of ["POST /v1/table/t/teleport", "POST /v1/tables/t/teleport", "POST /v1//table/t/teleport", "POST /v1/table/t/describe/extra"]) {
      const answer = await exchange(`${request} HTTP/1.1\r\nhost: q\r\n\r\n`);
      assert.deepEqual([answer.status, answer.code], [406, 0], request);
    }
  });

  await t.test("a known operation asked with another method → 405, code 0, naming the methods in Allow", async () => {
    const cases: Array<[string, string]> = [
      ["GET /v1/namespace/n/create", "POST"],
      ["DELETE /v1/table/a$b/describe/", "POST"],
      ["PUT /v1/table/t/count_rows", "GET, HEAD, POST"],
      ["POST /health", "GET, HEAD"],
    ];
    for (const [request, allow] of cases) {
      const answer = await exchange(`${request} HTTP/1.1\r\nhost: q\r\n\r\n`);
      assert.deepEqual([answer.status, answer.code, answer.headers.allow], [405, 0, allow], request);
      assert.match(answer.error ?? "", /not allowed/, request);
    }
  });

  await t.test("a path no route serves → 404 with an ErrorResponse", async () => {
    for (const request of ["GET /nowhere", "POST /v1/teleport/x", "GET /console/assets/missing.js", "GET /v2/namespace/list"]) {
      const answer = await exchange(`${request} HTTP/1.1\r\nhost: q\r\n\r\n`);
      assert.deepEqual([answer.status, answer.code], [404, 0], request);
    }
  });
});
