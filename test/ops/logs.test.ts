// The log of `quiver serve`: JSON lines unless asked for pretty ones, refused requests with
// their spec code and message, Lance's own lines as records with their level, and never a
// configured secret.
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { logStream } from "../../src/cli/log-output.js";
import { rowsTable, streamOf, range } from "../data/fixtures.js";
import pg from "pg";
import { spawnServe } from "../helpers/cli-process.js";
import { createPostgresDatabase, startPostgres } from "../helpers/postgres.js";
import { expectError, expectJson, tempRoot } from "../helpers/test-server.js";

const jsonLines = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100 && !check(); i += 1) await sleep(50);
  assert.ok(check(), what);
}

test("JSON log lines: a refused request's line carries its code and message; Lance's lines are records with their level", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const server = await spawnServe(["--root", root, "--port", "0"], { QUIVER_LOG_LEVEL: "info", LANCEDB_LOG: "info" });
  t.after(() => server.stop());
  await expectError(await fetch(`${server.url}/v1/table/missing_one/describe`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }), 404, 4);
  await expectJson(await fetch(`${server.url}/v1/table/made/create`, { method: "POST", body: streamOf(rowsTable(range(0, 5))), headers: { "content-type": "application/vnd.apache.arrow.stream" } }));
  await until(() => jsonLines(server.stdout()).some((line) => line.source === "lance"), "Lance's lines reach the log");

  const lines = jsonLines(server.stdout());
  const refused = lines.find((line) => line.msg === "request" && line.status === 404);
  assert.ok(refused, server.stdout());
  assert.equal(refused.code, 4);
  assert.match(String(refused.error), /missing_one/);
  const lance = lines.filter((line) => line.source === "lance");
  assert.ok(lance.every((line) => typeof line.level === "number" && typeof line.target === "string" && typeof line.msg === "string" && typeof line.time === "number"));
  assert.ok(lance.some((line) => line.level === 30 && String(line.target).startsWith("lance")), JSON.stringify(lance.slice(0, 3)));
  assert.doesNotMatch(server.output(), /^\[\d{4}-\d\d-\d\dT\S+ (INFO|WARN)/m, "no line in Lance's own format is left");
});

test("--log-format pretty writes readable lines, the refused request's with code= and error=", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const server = await spawnServe(["--root", root, "--port", "0", "--log-format", "pretty"], { QUIVER_LOG_LEVEL: "info" });
  t.after(() => server.stop());
  await expectError(await fetch(`${server.url}/v1/namespace/nowhere/describe`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }), 404, 1);
  await until(() => /status=404/.test(server.stdout()), "the request's line is written");
  assert.match(server.stdout(), /^\d\d:\d\d:\d\d\.\d{3} INFO  request .*path=\/v1\/namespace\/nowhere\/describe status=404 .*code=1 error="namespace 'nowhere' does not exist"/m);
  assert.doesNotMatch(server.stdout(), /^\{/m, "no JSON line");
});

test("no secret from the configuration appears in any log, even at trace level", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const secrets = ["AKIA-not-a-real-key-7781", "s3cr3t+/value=with\"quote", "az-account-key-0123456789=="];
  const config = path.join(root, "quiver.toml");
  writeFileSync(
    config,
    [`root = ${JSON.stringify(path.join(root, "data"))}`, "port = 0", "log_level = \"trace\"", "[storage_options]",
      `aws_access_key_id = ${JSON.stringify(secrets[0])}`, `aws_secret_access_key = ${JSON.stringify(secrets[1])}`, `azure_storage_account_key = ${JSON.stringify(secrets[2])}`].join("\n"),
  );
  const server = await spawnServe(["--config", config], { QUIVER_LOG_LEVEL: undefined, LANCEDB_LOG: "debug" });
  t.after(() => server.stop());
  await expectJson(await fetch(`${server.url}/v1/table/t/create`, { method: "POST", body: streamOf(rowsTable(range(0, 3))), headers: { "content-type": "application/vnd.apache.arrow.stream" } }));
  await expectJson(await fetch(`${server.url}/v1/table/t/describe`, { method: "POST", body: "{}", headers: { "content-type": "application/json", "x-api-key": secrets[0] as string } }));
  await expectError(await fetch(`${server.url}/v1/table/t/query?token=${encodeURIComponent(secrets[1] as string)}`, { method: "POST", body: "{", headers: { "content-type": "application/json" } }), 400, 13);
  await server.stop();
  assert.ok(server.stdout().length > 0);
  for (const secret of secrets) assert.ok(!server.output().includes(secret), `the log holds ${secret}`);
});

test("the scrubber replaces a configured secret where it stands as a value, in its JSON-escaped form too", () => {
  const out = new PassThrough();
  let written = "";
  out.on("data", (chunk) => (written += chunk));
  const secret = 'pa"ss\\word-42';
  const log = logStream(out, { pretty: false, secrets: [secret, "abc"] });
  log.write(`${JSON.stringify({ level: 50, msg: "request failed", err: { message: `could not connect: account_key=${secret}` } })}\n`);
  assert.ok(!written.includes(JSON.stringify(secret).slice(1, -1)), written);
  assert.match(written, /could not connect: account_key=\[redacted\]/);
  assert.equal(JSON.parse(written).level, 50, "the line stays JSON");
});

test("the scrubber with a password that is a common word: the URL's password field, option values and authorization headers are redacted; paths, host names and prose holding the word stay", () => {
  for (const pretty of [false, true]) {
    const out = new PassThrough();
    let written = "";
    out.on("data", (chunk) => (written += chunk));
    const log = logStream(out, { pretty, secrets: ["tables"] });
    const lines = [
      { level: 30, msg: "table data location", data: "/srv/quiver/shared-tables" },
      { level: 30, msg: "made 3 tables at tables.internal", location: "/srv/tables/x.lance" },
      { level: 50, msg: "store unreachable", err: { message: "connect postgres://quiver:tables@db.internal:5432/quiver failed; password=tables" } },
      { level: 30, msg: "request", headers: { authorization: "Bearer tables", "x-ms-key": "tables" } },
    ];
    for (const line of lines) log.write(`${JSON.stringify(line)}\n`);
    assert.match(written, /\/srv\/quiver\/shared-tables/, written);
    assert.match(written, /made 3 tables at tables\.internal/);
    assert.match(written, /\/srv\/tables\/x\.lance/);
    assert.match(written, /postgres:\/\/quiver:\[redacted\]@db\.internal:5432\/quiver failed; password=\[redacted\]/);
    assert.match(written, /Bearer \[redacted\]/);
    assert.doesNotMatch(written, /:tables@|password=tables|Bearer tables|"tables"/);
  }
});

test("quiver serve on a postgres://quiver:quiver@ store: the log shows the data location's path with 'quiver' in it intact, and never the store's password", async (t) => {
  const postgres = await startPostgres();
  t.after(() => postgres.stop());
  // The replicas recipe's credentials: user and password both `quiver`.
  const url = new URL(await createPostgresDatabase(postgres.url));
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query("alter role quiver password 'quiver'");
  await admin.end();
  url.password = "quiver";
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const data = path.join(root, "quiver", "shared-tables");
  const server = await spawnServe(["--root", path.join(root, "quiver"), "--port", "0", "--store", url.toString(), "--data", data], { QUIVER_LOG_LEVEL: "info" });
  t.after(() => server.stop());
  await expectJson(await fetch(`${server.url}/v1/table/quiver/create`, { method: "POST", body: streamOf(rowsTable(range(0, 3))), headers: { "content-type": "application/vnd.apache.arrow.stream" } }));
  await until(() => /"msg":"request"/.test(server.stdout()), "the request's line is written");
  await server.stop();
  const located = jsonLines(server.stdout()).find((line) => line.msg === "table data location");
  assert.equal(located?.data, data, server.stdout());
  assert.ok(jsonLines(server.stdout()).some((line) => line.msg === "request" && line.path === "/v1/table/quiver/create"), "the request's path is intact");
  assert.doesNotMatch(server.output(), /\[redacted\]/, "nothing here is a secret");
  assert.doesNotMatch(server.output(), /quiver:quiver@/);
});

test("killing quiver serve with SIGKILL ends the server it runs too", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const server = await spawnServe(["--root", root, "--port", "0"]);
  await expectJson(await fetch(`${server.url}/livez`));
  await server.stop("SIGKILL");
  let refused = false;
  for (let i = 0; i < 40 && !refused; i += 1) {
    refused = await fetch(`${server.url}/livez`).then(() => false, () => true);
    if (!refused) await sleep(50);
  }
  assert.ok(refused, "the port no longer answers");
});
