import assert from "node:assert/strict";
import { existsSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { tableFromArrays, tableToIPC } from "apache-arrow-21";
import { arrowStream } from "../helpers/arrow.js";
import { spawnServe } from "../helpers/cli-process.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";

test("quiver serve prints its ready line, answers /health and stops cleanly on SIGTERM", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const server = await spawnServe(["--port", "0", "--root", root]);
  // Not a TTY, so the ready line is a JSON record like the rest of stdout.
  const ready = server
    .stdout()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((record) => typeof record.msg === "string" && record.msg.startsWith("Quiver listening on "));
  assert.equal(ready?.url, server.url);
  assert.equal(ready?.level, 30);
  const health = await expectJson(await fetch(`${server.url}/health`));
  assert.equal(health.status, "ok");
  assert.equal(await server.stop("SIGTERM"), 0);
});

test("QUIVER_* environment variables configure serve when no flags are given", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const server = await spawnServe([], { QUIVER_PORT: "0", QUIVER_ROOT: root, QUIVER_HOST: "127.0.0.1" });
  assert.equal((await fetch(`${server.url}/health`)).status, 200);
  assert.equal(await server.stop("SIGINT"), 0);
});

test("catalog and data survive a restart on the same root", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const first = await spawnServe(["--port", "0", "--root", root]);
  await expectJson(await fetch(`${first.url}/v1/namespace/kept/create`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }));
  await expectJson(
    await fetch(`${first.url}/v1/table/kept$rows/create`, { method: "POST", body: arrowStream({ n: Int32Array.from([1, 2, 3, 4]) }) }),
  );
  assert.equal(await first.stop(), 0);

  const second = await spawnServe(["--port", "0", "--root", root]);
  t.after(() => second.stop());
  assert.deepEqual((await expectJson(await fetch(`${second.url}/v1/namespace/kept/table/list`))).tables, ["rows"]);
  const described = await expectJson(await fetch(`${second.url}/v1/table/kept$rows/describe`, { method: "POST" }));
  assert.equal(described.version, 1);
  assert.deepEqual(described.schema.fields.map((f: { name: string }) => f.name), ["n"]);
});

test("serve refuses a bad port with a clear message", async () => {
  await assert.rejects(spawnServe(["--port", "99999"]), /--port must be an integer/);
});

test("the metadata store, which holds the token signing key, is readable by its owner only", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const server = await spawnServe(["--port", "0", "--root", root]);
  await fetch(`${server.url}/v1/namespace/ops/create`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  for (const suffix of ["", "-wal"]) {
    const file = path.join(root, `quiver.sqlite${suffix}`);
    if (suffix === "" || existsSync(file)) assert.equal(statSync(file).mode & 0o777, 0o600, file);
  }
  assert.equal(await server.stop("SIGTERM"), 0);
});

test("quiver serve refuses an upload whose schema claims billions of entries at once: each corrupted word of the schema message → 200 or 400 code 13 within 5 s, the guard's refusal among them", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const server = await spawnServe(["--port", "0", "--root", root]);
  t.after(() => server.stop("SIGKILL"));
  const table = tableFromArrays({ id: Int32Array.from([1, 2, 3]), name: ["a", "b", "c"] });
  table.schema.metadata.set("origin", "test");
  const stream = Buffer.from(tableToIPC(table, "stream"));
  // The schema message: a continuation marker, its metadata's length, then the FlatBuffer.
  const schemaEnd = 8 + stream.readInt32LE(4);
  const refusals: string[] = [];
  for (let offset = 8; offset + 4 <= schemaEnd; offset += 4) {
    const corrupt = Buffer.from(stream);
    corrupt.writeInt32LE(0x7ffffff0, offset);
    const response = await fetch(`${server.url}/v1/table/t${offset}/create`, {
      method: "POST",
      headers: { "content-type": "application/vnd.apache.arrow.stream" },
      body: corrupt,
      signal: AbortSignal.timeout(5_000),
    });
    const body = await response.text();
    assert.ok(response.status === 200 || (response.status === 400 && JSON.parse(body).code === 13), `offset ${offset}: ${response.status} ${body}`);
    if (response.status === 400) refusals.push(JSON.parse(body).error);
  }
  assert.ok(refusals.some((error) => /claims a vector of \d+ entries/.test(error)), refusals.join("\n"));
});
