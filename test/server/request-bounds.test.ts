// What one request may cost the server: an Arrow upload past --max-upload-size is refused as
// soon as its declared or streamed size passes the limit, without reading the rest and without
// writing anything; an identifier past its limit is refused with 400 instead of matching no route.
import assert from "node:assert/strict";
import { test } from "node:test";
import { arrowStream } from "../helpers/arrow.js";
import { spawnServeOnFreshRoot } from "../helpers/cli-process.js";
import { RawConnection } from "../helpers/raw-http.js";
import { expectError, expectJson } from "../helpers/test-server.js";

const limit = 1024 * 1024;

/** An Arrow stream of `rows` int32 ids: 4 bytes a row. */
const idsStream = (rows: number, from = 0) => arrowStream({ id: Int32Array.from({ length: rows }, (_, i) => from + i) });

async function tableState(url: string): Promise<{ version: number; rows: number }> {
  const post = (path: string) => fetch(url + path, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const described = await expectJson(await post("/v1/table/events/describe"));
  const rows = await expectJson<number>(await post("/v1/table/events/count_rows"));
  return { version: described.version, rows };
}

function chunk(bytes: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")]);
}

test("Arrow uploads past --max-upload-size", { timeout: 120_000 }, async (t) => {
  // Set through the environment, like in a container; the flag and the file are read alike.
  const server = await spawnServeOnFreshRoot(t, [], { QUIVER_MAX_UPLOAD_SIZE: "1MiB" });
  const upload = (path: string, bytes: Uint8Array) =>
    fetch(server.url + path, { method: "POST", headers: { "content-type": "application/vnd.apache.arrow.stream" }, body: bytes });
  await expectJson(await upload("/v1/table/events/create", idsStream(3)));
  const before = await tableState(server.url);

  await t.test("InsertIntoTable declaring a Content-Length over the limit → 413, code 13, answered before any body byte is sent", async () => {
    const connection = await RawConnection.open(server.url);
    t.after(() => connection.close());
    // Only the head goes out: the answer cannot wait for the body.
    connection.write(
      `POST /v1/table/events/insert HTTP/1.1\r\nhost: quiver.test\r\ncontent-type: application/vnd.apache.arrow.stream\r\ncontent-length: ${20 * limit}\r\n\r\n`,
    );
    const answer = await connection.response(5000);
    assert.equal(answer.status, 413);
    const body = JSON.parse(answer.body.toString("utf8"));
    assert.equal(body.code, 13);
    assert.match(body.error, /larger than this server's limit of 1 MiB/);
    assert.equal(answer.headers.connection, "close");
    await connection.closedWithin(5000);
  });

  await t.test("InsertIntoTable streaming a chunked upload past the limit → 413, code 13, before the upload ends", async () => {
    const connection = await RawConnection.open(server.url);
    t.after(() => connection.close());
    const stream = idsStream(2 * 1024 * 1024, 100);
    connection.write("POST /v1/table/events/insert HTTP/1.1\r\nhost: quiver.test\r\ncontent-type: application/vnd.apache.arrow.stream\r\ntransfer-encoding: chunked\r\n\r\n");
    // Twice the limit of an 8 MiB stream is sent; the rest and the final chunk never are.
    const piece = 256 * 1024;
    for (let at = 0; at < 2 * limit; at += piece) connection.write(chunk(stream.subarray(at, at + piece)));
    const answer = await connection.response(5000);
    assert.equal(answer.status, 413);
    assert.equal(JSON.parse(answer.body.toString("utf8")).code, 13);
    assert.equal(answer.headers.connection, "close");
    await connection.closedWithin(5000);
  });

  await t.test("CreateTable and InsertIntoTable over the limit from an HTTP client → the client reads 413, code 13", async () => {
    await expectError(await upload("/v1/table/events/insert", idsStream(5 * 1024 * 1024)), 413, 13);
    await expectError(await upload("/v1/table/events/insert", idsStream(400 * 1024)), 413, 13);
    await expectError(await upload("/v1/table/other/create", idsStream(400 * 1024)), 413, 13);
  });

  await t.test("after refused uploads the table's version and rows are unchanged and uploads within the limit are served", async () => {
    assert.deepEqual(await tableState(server.url), before);
    const notCreated = await fetch(`${server.url}/v1/table/other/describe`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    await expectError(notCreated, 404, 4);
    await expectJson(await upload("/v1/table/events/insert", idsStream(200 * 1024, 10)));
    assert.deepEqual(await tableState(server.url), { version: before.version + 1, rows: before.rows + 200 * 1024 });
  });
});

test("Identifiers past their limits", { timeout: 60_000 }, async (t) => {
  const server = await spawnServeOnFreshRoot(t);
  const post = (path: string, body: unknown = {}) => fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  await t.test("DescribeNamespace with a path id of 5,000 characters → 400, code 13", async () => {
    const answer = await expectError(await post(`/v1/namespace/${"a".repeat(5000)}/describe`), 400, 13);
    assert.match(answer.error, /5000 characters long; at most 4096/);
  });

  await t.test("CreateNamespace with 1,500 short parts (4,499 characters) → 400, code 13, nothing created", async () => {
    const id = Array.from({ length: 1500 }, () => "ab");
    await expectError(await post(`/v1/namespace/${id.join("$")}/create`, { id }), 400, 13);
    assert.deepEqual((await expectJson(await fetch(`${server.url}/v1/namespace/list`))).namespaces, []);
  });

  await t.test("CreateTable and InsertIntoTable with a 5,000-character table id → 400, code 13", async () => {
    const stream = idsStream(1);
    for (const operation of ["create", "insert"]) {
      const answer = await fetch(`${server.url}/v1/table/${"t".repeat(5000)}/${operation}`, {
        method: "POST",
        headers: { "content-type": "application/vnd.apache.arrow.stream" },
        body: stream,
      });
      await expectError(answer, 400, 13);
    }
  });

  await t.test("an admin route with a 5,000-character database name → 400, code 13", async () => {
    await expectError(await fetch(`${server.url}/v1/admin/databases/${"d".repeat(5000)}/api-keys`), 400, 13);
  });

  await t.test("identifiers at the limits still work: 4,096 characters of 16 parts of 255", async () => {
    const id = Array.from({ length: 16 }, (_, i) => `${String(i).padStart(2, "0")}${"n".repeat(253)}`);
    assert.equal(id.join("$").length, 4095);
    await expectJson(await post(`/v1/namespace/${id[0]}/create`, {}));
    let path: string[] = [];
    for (const part of id) {
      path = [...path, part];
      if (path.length > 1) await expectJson(await post(`/v1/namespace/${path.join("$")}/create`, {}));
    }
    await expectJson(await post(`/v1/namespace/${id.join("$")}/describe`));
  });
});
