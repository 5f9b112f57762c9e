// Quiver serving HTTPS itself: HTTP/1.1 and HTTP/2 on one port, chosen by ALPN, with the same
// answers, error bodies and shutdown behaviour as plain HTTP; the LanceDB client trusts it with
// its CA file.
import assert from "node:assert/strict";
import https from "node:https";
import http2 from "node:http2";
import tls from "node:tls";
import { after, before, test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { arrowStream } from "../helpers/arrow.js";
import { type TestServer, startTestServer } from "../helpers/test-server.js";
import { type IssuedCertificate, type TestAuthority, makeTestAuthority } from "../helpers/tls-certificates.js";

let authority: TestAuthority;
let issued: IssuedCertificate;
let server: TestServer;

before(async () => {
  authority = makeTestAuthority();
  issued = authority.issue("server");
  server = await startTestServer({ tls: { certFile: issued.certFile, keyFile: issued.keyFile } });
});

after(async () => {
  await server?.close();
  authority?.remove();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The HTTP version the answer came in. */
  protocol: string;
}

/** One HTTP/1.1 request over TLS, trusting the test CA, on a fresh connection. */
function https1(method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = https.request(
      `${server.url}${route}`,
      { method, ca: authority.ca, agent: false, headers: payload === undefined ? headers : { "content-type": "application/json", ...headers } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text, protocol: response.httpVersion }));
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

/** An HTTP/2 session trusting the test CA. */
function connectHttp2(): Promise<http2.ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(server.url, { ca: authority.ca });
    session.once("connect", () => resolve(session));
    session.once("error", reject);
  });
}

/** One HTTP/2 request on `session`. */
function http2Request(session: http2.ClientHttp2Session, method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ":method": method, ":path": route, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers });
    let responseHeaders: http2.IncomingHttpHeaders & http2.IncomingHttpStatusHeader = {};
    let text = "";
    stream.setEncoding("utf8");
    stream.on("response", (received) => (responseHeaders = received));
    stream.on("data", (chunk) => (text += chunk));
    stream.on("end", () => resolve({ status: Number(responseHeaders[":status"]), headers: responseHeaders, body: text, protocol: "2.0" }));
    stream.on("error", reject);
    stream.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

test("the ready URL of a TLS server is https://", () => {
  assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
});

test("GET /health over HTTPS (HTTP/1.1), trusting the test CA → 200 with the server's certificate", async () => {
  const answer = await https1("GET", "/health");
  assert.equal(answer.status, 200);
  assert.equal(answer.protocol, "1.1");
  assert.equal(JSON.parse(answer.body).status, "ok");
  const socket = tls.connect({ host: "127.0.0.1", port: Number(new URL(server.url).port), ca: authority.ca, servername: "localhost" });
  await new Promise((resolve, reject) => socket.once("secureConnect", resolve).once("error", reject));
  assert.equal(socket.getPeerCertificate().fingerprint256, issued.fingerprint);
  socket.destroy();
});

test("CreateNamespace and DescribeNamespace over HTTP/2 → 200, then 304 to the ETag, on one session", async () => {
  const session = await connectHttp2();
  try {
    assert.equal(session.alpnProtocol, "h2");
    const created = await http2Request(session, "POST", "/v1/namespace/h2/create", { properties: { via: "h2" } });
    assert.equal(created.status, 200, created.body);
    const described = await http2Request(session, "POST", "/v1/namespace/h2/describe", {});
    assert.equal(described.status, 200);
    assert.deepEqual(JSON.parse(described.body).properties, { via: "h2" });
    const tag = described.headers.etag as string;
    assert.ok(tag);
    const again = await http2Request(session, "POST", "/v1/namespace/h2/describe", {}, { "if-none-match": tag });
    assert.equal(again.status, 304);
    assert.equal(again.body, "");
  } finally {
    session.close();
  }
});

test("errors over HTTP/2 keep the spec's shape: a missing namespace → 404, code 1", async () => {
  const session = await connectHttp2();
  try {
    const answer = await http2Request(session, "POST", "/v1/namespace/nowhere/describe", {});
    assert.equal(answer.status, 404);
    assert.equal(JSON.parse(answer.body).code, 1);
  } finally {
    session.close();
  }
});

test("an HTTP/2 Arrow upload refused part-read → 400, code 13; the rest of its stream is refused (RST_STREAM NO_ERROR) and the session serves the next request", { timeout: 10_000 }, async () => {
  const session = await connectHttp2();
  try {
    const table = await new Promise<number>((resolve, reject) => {
      const stream = session.request({ ":method": "POST", ":path": "/v1/table/refused/create", "content-type": "application/vnd.apache.arrow.stream" });
      stream.on("response", (headers) => resolve(Number(headers[":status"])));
      stream.on("error", reject);
      stream.resume();
      stream.end(Buffer.from(arrowStream({ id: Int32Array.from([1]) })));
    });
    assert.equal(table, 200);
    const refused = await new Promise<Answer>((resolve, reject) => {
      const stream = session.request({ ":method": "POST", ":path": "/v1/table/refused/insert", "content-type": "application/vnd.apache.arrow.stream" });
      let status = 0;
      let text = "";
      stream.setEncoding("utf8");
      stream.on("response", (headers) => (status = Number(headers[":status"])));
      stream.on("data", (chunk) => (text += chunk));
      // The client never ends its body; the server's RST_STREAM with NO_ERROR (rstCode 0) tells it to stop sending.
      stream.on("end", () => {
        assert.equal(stream.rstCode, 0, "the rest of the body was refused");
        // Node's client keeps a refused stream while its own unsent bytes wait; they never will be sent.
        stream.destroy();
        resolve({ status, headers: {}, body: text, protocol: "2.0" });
      });
      stream.on("error", (error) => (status ? undefined : reject(error)));
      // The first message has a negative metadata length: the reader stops there, having read some.
      stream.write(Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff, 0xf0, 0xff, 0xff, 0xff]), Buffer.alloc(256 * 1024, 0x5a)]));
    });
    assert.equal(refused.status, 400, refused.body);
    assert.equal(JSON.parse(refused.body).code, 13);
    const next = await http2Request(session, "GET", "/health");
    assert.equal(next.status, 200);
  } finally {
    session.close();
  }
});

test("a malformed HTTP/1.1 request over TLS → 400 with a JSON error body, code 13", async () => {
  const socket = tls.connect({ host: "127.0.0.1", port: Number(new URL(server.url).port), ca: authority.ca, servername: "localhost", ALPNProtocols: ["http/1.1"] });
  await new Promise((resolve, reject) => socket.once("secureConnect", resolve).once("error", reject));
  let text = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk) => (text += chunk));
  const ended = new Promise((resolve) => socket.once("close", resolve));
  socket.write("GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n");
  await ended;
  assert.match(text, /^HTTP\/1\.1 400 /);
  assert.equal(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)).code, 13);
});

test("the real LanceDB client over HTTPS (hostOverride https://, CA from tlsConfig) creates, reads and describes a table", async () => {
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url, clientConfig: { tlsConfig: { sslCaCert: authority.caFile } } });
  const table = await db.createTable("tls_rows", [{ id: 1, name: "a" }, { id: 2, name: "b" }]);
  await table.add([{ id: 3, name: "c" }]);
  assert.equal(await table.countRows(), 3);
  const rows = await table.query().where("id >= 2").toArray();
  assert.deepEqual(rows.map((row) => row.id).sort(), [2, 3]);
  assert.equal(await table.version(), 2);
  assert.ok((await db.tableNames()).includes("tls_rows"));
});

test("a TLS server closes promptly with an idle HTTP/2 session and an idle HTTP/1.1 keep-alive connection open", async () => {
  const own = await startTestServer({ tls: { certFile: issued.certFile, keyFile: issued.keyFile } });
  const session = http2.connect(own.url, { ca: authority.ca });
  const agent = new https.Agent({ keepAlive: true, ca: authority.ca });
  try {
    const h2 = await http2Request(session, "GET", "/health");
    assert.equal(h2.status, 200);
    const h1 = await new Promise<number>((resolve, reject) => {
      https.get(`${own.url}/health`, { agent }, (response) => response.resume().on("end", () => resolve(response.statusCode ?? 0))).on("error", reject);
    });
    assert.equal(h1, 200);
    const started = Date.now();
    await own.close();
    assert.ok(Date.now() - started < 3000, `closed in ${Date.now() - started} ms`);
  } finally {
    session.destroy();
    agent.destroy();
  }
});

// A plain upload of Arrow rows over HTTPS, as every client but the Cloud one sends them.
test("CreateTable from an Arrow stream over HTTPS → 200, version 1", async () => {
  const response = await new Promise<Answer>((resolve, reject) => {
    const request = https.request(
      `${server.url}/v1/table/plain/create`,
      { method: "POST", ca: authority.ca, agent: false, headers: { "content-type": "application/vnd.apache.arrow.stream" } },
      (answer) => {
        let text = "";
        answer.on("data", (chunk) => (text += chunk));
        answer.on("end", () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: text, protocol: answer.httpVersion }));
      },
    );
    request.on("error", reject);
    request.end(Buffer.from(arrowStream({ id: Int32Array.from([1, 2, 3]) })));
  });
  assert.equal(response.status, 200, response.body);
  assert.equal(JSON.parse(response.body).version, 1);
});
