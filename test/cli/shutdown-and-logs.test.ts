// `quiver serve` as users run it: a stop signal lets the request in flight finish, keeps its
// write and closes the metadata store, and every request leaves one JSON log line on stdout.
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { tableFromIPC } from "apache-arrow-21";
import { arrowStream } from "../helpers/arrow.js";
import { spawnServe, spawnServeOnFreshRoot } from "../helpers/cli-process.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";

/** Whether a new TCP connection to `url` is refused (the listener is closed). */
function refusesConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

/** Resolves with the exit code, or "still running" when the process outlives `ms`. */
function exitWithin(exited: Promise<number | null>, ms: number): Promise<number | null | "still running"> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<"still running">((resolve) => (timer = setTimeout(() => resolve("still running"), ms)));
  return Promise.race([exited, waited]).finally(() => clearTimeout(timer));
}

/** Waits until the server's listener is closed, i.e. the shutdown has begun. */
async function untilListenerClosed(url: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await refusesConnections(url))) {
    assert.ok(Date.now() < deadline, "the server still accepts connections after the signal");
    await sleep(20);
  }
}

/**
 * A client that keeps idle connections open until the server closes them, as long-lived
 * clients do: a shutdown must not wait for it to let go.
 */
function keepAliveAgent(t: { after(fn: () => void): void }): http.Agent {
  const agent = new http.Agent({ keepAlive: true });
  t.after(() => agent.destroy());
  return agent;
}

/** POSTs `body` in two halves; sends the second half only when `release` resolves. */
function uploadInTwoHalves(url: string, agent: http.Agent, body: Uint8Array, release: Promise<void>): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: hostname,
        port: Number(port),
        agent,
        method: "POST",
        path: "/v1/table/kept/insert?mode=append",
        headers: { "content-type": "application/vnd.apache.arrow.stream", "content-length": body.length },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    request.on("error", reject);
    const half = Math.floor(body.length / 2);
    request.write(body.subarray(0, half));
    void release.then(() => request.end(body.subarray(half)));
  });
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  test(`${signal} while an insert is still uploading → the insert answers 200, the process exits 0 at once, and the rows are there after a restart`, { timeout: 60_000 }, async (t) => {
    const root = tempRoot();
    let server = await spawnServe(["--port", "0", "--root", root]);
    t.after(async () => {
      await server.stop("SIGKILL");
      rmSync(root, { recursive: true, force: true });
    });
    await expectJson(await fetch(`${server.url}/v1/table/kept/create`, { method: "POST", body: arrowStream({ id: Int32Array.from([-3, -2, -1]) }) }));

    const rows = 100_000;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const answer = uploadInTwoHalves(server.url, keepAliveAgent(t), arrowStream({ id: Int32Array.from({ length: rows }, (_, i) => i) }), released);
    // The first half reaches the server before it is told to stop.
    await sleep(300);
    server.child.kill(signal);
    // The rest of the body follows only once the shutdown has begun.
    await untilListenerClosed(server.url);
    release();

    const { status, text } = await answer;
    assert.equal(status, 200, text);
    assert.equal(JSON.parse(text).version, 2);
    assert.equal(await exitWithin(server.exited, 3000), 0, server.output());
    // A closed SQLite store leaves no write-ahead log behind; a killed one does.
    assert.equal(existsSync(path.join(root, "quiver.sqlite-wal")), false, "the metadata store was closed");

    server = await spawnServe(["--port", "0", "--root", root]);
    const count = await expectJson(await fetch(`${server.url}/v1/table/kept/count_rows`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
    assert.equal(count, rows + 3);
  });
}

test("SIGTERM while a query answer is still streaming to a slow reader → every row arrives and the process exits 0 at once", { timeout: 60_000 }, async (t) => {
  const server = await spawnServeOnFreshRoot(t, [], { QUIVER_LOG_LEVEL: "info" });
  // Far more than the socket buffers hold, so the server is still writing while the reader pauses.
  const rows = 1_000_000;
  await expectJson(await fetch(`${server.url}/v1/table/big/create`, { method: "POST", body: arrowStream({ x: Float64Array.from({ length: rows }, (_, i) => i) }) }));

  const { hostname, port } = new URL(server.url);
  const chunks: Buffer[] = [];
  let response!: http.IncomingMessage;
  const started = new Promise<void>((resolve, reject) => {
    const request = http.request(
      { host: hostname, port: Number(port), agent: keepAliveAgent(t), method: "POST", path: "/v1/table/big/query", headers: { "content-type": "application/json" } },
      (incoming) => {
        response = incoming;
        incoming.pause();
        resolve();
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify({ k: rows, vector: null, columns: { column_names: ["x"] } }));
  });
  await started;
  await sleep(300);
  // The request log line is written when an answer ends: none yet for the query.
  assert.doesNotMatch(server.stdout(), /"path":"\/v1\/table\/big\/query"/);
  server.child.kill("SIGTERM");
  await untilListenerClosed(server.url);

  response.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => response.on("end", resolve));
  response.resume();
  await ended;
  assert.equal(response.statusCode, 200);
  assert.equal(tableFromIPC(Buffer.concat(chunks)).numRows, rows);
  assert.equal(await exitWithin(server.exited, 3000), 0, server.output());
  assert.match(server.stdout(), /"path":"\/v1\/table\/big\/query","status":200/, "the query's line came once it ended");
});

/** The request log lines on stdout, waiting until `count` have been written. */
async function requestLines(stdout: () => string, count: number): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const lines = stdout()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === "request");
    if (lines.length >= count || Date.now() > deadline) return lines;
    await sleep(20);
  }
}

test("at the default log level each request writes one JSON line on stdout with its id, method, path, status and duration", { timeout: 60_000 }, async (t) => {
  // No QUIVER_LOG_LEVEL and no --log-level: the default applies.
  const server = await spawnServeOnFreshRoot(t, [], { QUIVER_LOG_LEVEL: undefined });

  const health = await fetch(`${server.url}/health`, { headers: { "x-request-id": "probe-7" } });
  assert.equal(health.status, 200);
  assert.equal(health.headers.get("x-request-id"), "probe-7");
  const missing = await fetch(`${server.url}/v1/namespace/nowhere/describe?secret=abc`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  assert.equal(missing.status, 404);
  await missing.text();
  const generatedId = missing.headers.get("x-request-id");
  assert.match(generatedId ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

  const lines = await requestLines(server.stdout, 2);
  assert.equal(lines.length, 2, server.stdout());
  const [first, second] = lines as [Record<string, unknown>, Record<string, unknown>];
  assert.deepEqual([first.reqId, first.method, first.path, first.status], ["probe-7", "GET", "/health", 200]);
  // The query string is left out of the path: it may carry secrets.
  assert.deepEqual([second.reqId, second.method, second.path, second.status], [generatedId, "POST", "/v1/namespace/nowhere/describe", 404]);
  for (const line of lines) assert.ok(typeof line.ms === "number" && line.ms >= 0, JSON.stringify(line));
  // Everything on stdout is JSON, the ready line included.
  for (const line of server.stdout().split("\n").filter((l) => l !== "")) {
    assert.doesNotThrow(() => JSON.parse(line), line);
  }
});

test("--log-level warn writes no request lines", { timeout: 60_000 }, async (t) => {
  const server = await spawnServeOnFreshRoot(t, ["--log-level", "warn"], { QUIVER_LOG_LEVEL: "info" });
  assert.equal((await fetch(`${server.url}/health`)).status, 200);
  await sleep(200);
  assert.deepEqual(await requestLines(server.stdout, 0), []);
  assert.doesNotMatch(server.stdout(), /"msg":"request"/);
});
