// What a caller without valid credentials costs a `--auth required` server: its body is refused
// before it is read (the server's memory stays flat however large the bodies), repeated failures
// from one source are slowed while valid credentials from it are not, and the audit log gets one
// record per source and minute instead of one per attempt.
import assert from "node:assert/strict";
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { after, before, test } from "node:test";
import { type ServeProcess, runCli, spawnServe } from "../helpers/cli-process.js";
import { RawConnection } from "../helpers/raw-http.js";
import { expectError, expectJson, tempRoot } from "../helpers/test-server.js";

const mib = 1024 * 1024;

/** Resident memory of a process, in MiB. */
function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1]) / 1024;
}

/** The process serving requests: `quiver serve` runs the server in a child of its own. */
function serverPidOf(serve: ServeProcess): number {
  const supervisor = serve.child.pid as number;
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === supervisor) return Number(entry);
    } catch {
      // the process ended while the table was read
    }
  }
  throw new Error(`no child of process ${supervisor}`);
}

type AuthServer = { server: ServeProcess; root: string; admin: string; reader: string };

/** Stop the servers and remove their roots once the file's tests are done. */
const cleanUps: (() => Promise<void>)[] = [];

async function authServer(): Promise<AuthServer> {
  const root = tempRoot();
  const created = await runCli(["keys", "create", "--all-databases", "--role", "admin", "--root", root]);
  assert.equal(created.code, 0, created.stderr);
  const reader = await runCli(["keys", "create", "--database", "default", "--role", "read", "--root", root]);
  assert.equal(reader.code, 0, reader.stderr);
  const server = await spawnServe(["--port", "0", "--root", root, "--auth", "required"]);
  cleanUps.push(async () => {
    await server.stop("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  });
  return { server, root, admin: created.stdout.trim(), reader: reader.stdout.trim() };
}

// Each test has a server of its own: the slowing counts failures per server. Both are started at
// once, before the first test, since starting them is most of the wait.
let servers: [AuthServer, AuthServer];
before(async () => {
  servers = await Promise.all([authServer(), authServer()]);
});
after(async () => {
  for (const cleanUp of cleanUps) await cleanUp();
});

const createNamespace = (url: string, name: string, headers: Record<string, string>, body: string | Uint8Array = "{}") =>
  fetch(`${url}/v1/namespace/${name}/create`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

test("Bodies of callers without valid credentials are never read", { timeout: 120_000 }, async (t) => {
  const { server, admin, reader } = servers[0];
  // Each refusal counts towards the source's slowdown (tested below), so the cheap cases go first.

  await t.test("credentials only in the identity of a body over 64 KiB → 401, code 16", async () => {
    const padded = JSON.stringify({ identity: { api_key: admin }, properties: { pad: "x".repeat(100 * 1024) } });
    await expectError(await createNamespace(server.url, "too_big", {}, padded), 401, 16);
  });

  await t.test("CreateNamespace declaring a 60 MiB JSON body with a bad API key → 401, code 16, before a body byte is sent", async () => {
    for (const credential of ["x-api-key: not-a-key\r\n", "authorization: Bearer not.a.token\r\n", ""]) {
      const connection = await RawConnection.open(server.url);
      t.after(() => connection.close());
      connection.write(`POST /v1/namespace/big/create HTTP/1.1\r\nhost: quiver.test\r\ncontent-type: application/json\r\n${credential}content-length: ${60 * mib}\r\n\r\n`);
      const answer = await connection.response(10_000);
      assert.equal(answer.status, 401, credential);
      assert.equal(JSON.parse(answer.body.toString("utf8")).code, 16);
      assert.equal(answer.headers.connection, "close");
      await connection.closedWithin(5000);
    }
  });

  await t.test("CreateNamespace declaring a 60 MiB JSON body with a read-only key → 403, code 15, before a body byte is sent", async () => {
    const connection = await RawConnection.open(server.url);
    t.after(() => connection.close());
    connection.write(`POST /v1/namespace/big/create HTTP/1.1\r\nhost: quiver.test\r\ncontent-type: application/json\r\nx-api-key: ${reader}\r\ncontent-length: ${60 * mib}\r\n\r\n`);
    const answer = await connection.response(10_000);
    assert.equal(answer.status, 403);
    assert.equal(JSON.parse(answer.body.toString("utf8")).code, 15);
    await connection.closedWithin(5000);
  });

  await t.test("16 concurrent 16 MiB bodies with bad keys → every client reads 401 code 16 and the server's memory stays flat", async () => {
    // Each past the size the server drains after an answer (8 MiB), so each connection is closed.
    const body = Buffer.alloc(16 * mib, " ");
    const pid = serverPidOf(server);
    const baseline = rssOf(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 10);
    try {
      const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => createNamespace(server.url, `n${i}`, { "x-api-key": `bad-${i}` }, body)));
      for (const answer of answers) await expectError(answer, 401, 16);
    } finally {
      clearInterval(sampler);
    }
    // The bodies add up to 256 MiB; read, they would add at least that much.
    assert.ok(peak - baseline < 100, `RSS grew by ${Math.round(peak - baseline)} MiB (from ${Math.round(baseline)} MiB)`);
  });

  await t.test("valid credentials in headers or in a small body's identity still work", async () => {
    await expectJson(await createNamespace(server.url, "by_header", { "x-api-key": admin }));
    await expectJson(await createNamespace(server.url, "by_body", {}, JSON.stringify({ identity: { api_key: admin } })));
    const listed = await expectJson(await fetch(`${server.url}/v1/namespace/list`, { headers: { "x-api-key": admin } }));
    assert.deepEqual(listed.namespaces.sort(), ["by_body", "by_header"]);
  });

});

test("Repeated bad keys from one source are slowed and audited in aggregate", { timeout: 120_000 }, async (t) => {
  const { server, root, admin } = servers[1];
  const audit = async (url: string) => (await expectJson(await fetch(`${url}/v1/admin/audit?limit=1000`, { headers: { "x-api-key": admin } }))).records;

  const attempts = 15;
  const durations: number[] = [];
  for (let i = 0; i < attempts; i += 1) {
    const started = Date.now();
    await expectError(await createNamespace(server.url, "x", { "x-api-key": `guess-${i}` }), 401, 16);
    durations.push(Date.now() - started);
  }

  await t.test("the first ten failures answer at once, later ones wait longer and longer", () => {
    // Unslowed: each quicker than the 15th's wait (at least 1.5 s), however loaded the machine is.
    assert.ok(Math.max(...durations.slice(0, 10)) < (durations[14] as number) / 2, `first ten took ${durations.slice(0, 10)} ms, the 15th ${durations[14]} ms`);
    assert.ok((durations[14] as number) >= 1500, `the 15th took ${durations[14]} ms`);
    assert.ok((durations[14] as number) > (durations[11] as number), `${durations} ms`);
  });

  await t.test("a valid key from the same source is answered at once", async () => {
    const started = Date.now();
    await expectJson(await createNamespace(server.url, "welcome", { "x-api-key": admin }));
    // Not held back as the source's next failure would be (longer than the 15th's wait): measured
    // against that wait, not a fixed time, so a loaded machine slows both alike.
    const elapsed = Date.now() - started;
    assert.ok(elapsed < (durations[14] as number), `${elapsed} ms, against the 15th failure's ${durations[14]} ms`);
  });

  await t.test("no audit record per attempt: the log holds none of them while they are being counted", async () => {
    const records = await audit(server.url);
    assert.equal(records.filter((record: { principal: string }) => record.principal === "unauthenticated").length, 0);
    assert.ok(records.some((record: { operation: string }) => record.operation === "CreateNamespace"), "authenticated calls are still recorded one by one");
  });

  await t.test("at shutdown the attempts become one record for the source, with their count", async () => {
    assert.equal(await server.stop("SIGTERM"), 0);
    const again = await spawnServe(["--port", "0", "--root", root, "--auth", "required"]);
    t.after(async () => void (await again.stop("SIGKILL")));
    const denied = (await audit(again.url)).filter((record: { principal: string }) => record.principal === "unauthenticated");
    assert.equal(denied.length, 1, JSON.stringify(denied));
    assert.equal(denied[0].operation, "UnauthenticatedAttempts");
    assert.equal(denied[0].target, "127.0.0.1");
    assert.equal(denied[0].outcome, "denied");
    assert.equal(denied[0].error_code, 16);
    assert.equal(denied[0].context.attempts, String(attempts));
  });
});
