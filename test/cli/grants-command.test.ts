// `quiver grants` and `quiver roles` beside a running `quiver serve --auth required` on SQLite:
// what the shell grants, binds, revokes or unbinds holds for the server's next requests within a
// second; bad input is refused with the API's reasons and an exit code, and an API key never shows.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { arrowStream } from "../helpers/arrow.js";
import { type ServeProcess, runCli, spawnServe } from "../helpers/cli-process.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";

const root = tempRoot();
let server: ServeProcess;
let analyst: string;

async function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCli([...args, "--root", root]);
}

const countRows = (key: string) => fetch(`${server.url}/v1/table/orders/count_rows`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: "{}" });

/** Milliseconds until the analyst's count answers `status`; fails past two seconds. */
async function untilStatus(status: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const response = await countRows(analyst);
    await response.arrayBuffer();
    if (response.status === status) return performance.now() - started;
    if (performance.now() - started > 2000) assert.fail(`still ${response.status}`);
    await sleep(25);
  }
}

before(async () => {
  const owner = (await cli("keys", "create", "--database", "default", "--role", "admin")).stdout.trim();
  analyst = (await cli("keys", "create", "--database", "default", "--role", "none")).stdout.trim();
  server = await spawnServe(["--port", "0", "--root", root, "--auth", "required"]);
  await expectJson(
    await fetch(`${server.url}/v1/table/orders/create`, { method: "POST", headers: { "x-api-key": owner, "content-type": "application/vnd.apache.arrow.stream" }, body: arrowStream({ id: Int32Array.from([1, 2]) }) }),
  );
});
after(async () => {
  await server.stop("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

test("quiver grants add, list and delete act on a running server within a second; a:<key> names the key's principal and is never printed", async () => {
  const principal = `p:api-key:${analyst.slice(3, 19)}`;
  assert.equal((await countRows(analyst)).status, 403);
  for (const [object, privilege] of [["database:default", "USAGE"], ["table:default:public$orders", "SELECT"]]) {
    const added = await cli("grants", "add", "--subject", `a:${analyst}`, "--object", object!, "--privilege", privilege!);
    assert.equal(added.code, 0, added.stderr);
    assert.ok(!(added.stdout + added.stderr).includes(analyst.slice(20)), "the key's secret is never printed");
  }
  assert.ok((await untilStatus(200)) < 1500);
  const listed = await cli("grants", "list", "--subject", principal);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(listed.stdout.trim().split("\n").sort(), [`${principal}\tdatabase:default\tUSAGE`, `${principal}\ttable:default:public$orders\tSELECT`]);

  const removed = await cli("grants", "delete", "--subject", principal, "--object", "table:default:public$orders", "--privilege", "SELECT");
  assert.equal(removed.code, 0, removed.stderr);
  assert.ok((await untilStatus(404)) < 1500);
});

test("quiver roles bind and unbind: grants to r:<role> reach the bound principal and leave with the binding", async () => {
  const principal = `p:api-key:${analyst.slice(3, 19)}`;
  const usage = await cli("grants", "add", "--subject", principal, "--object", "database:default", "--privilege", "USAGE");
  assert.ok(usage.code === 0 || /already holds/.test(usage.stderr), usage.stderr);
  assert.equal((await cli("grants", "add", "--subject", "r:readers", "--object", "database:default", "--privilege", "SELECT")).code, 0);
  const bound = await cli("roles", "bind", "--subject", principal, "--role", "readers");
  assert.equal(bound.code, 0, bound.stderr);
  await untilStatus(200);
  assert.equal((await cli("roles", "list", "--role", "readers")).stdout.trim(), `${principal}\treaders`);
  assert.equal((await cli("roles", "unbind", "--subject", principal, "--role", "readers")).code, 0);
  await untilStatus(404);
});

test("bad grants from the shell → exit code 1 and the API's reason", async () => {
  // The API's refusals themselves are tested in test/auth/grants.test.ts; here, that the shell reports them.
  const cases: [string[], RegExp][] = [
    [["--subject", "p:api-key:0000000000000000", "--object", "table:default:public$orders", "--privilege", "SELECT"], /does not exist/],
    [["--subject", "g:team", "--object", "table:default:public$orders"], /--privilege is required/],
  ];
  for (const [args, reason] of cases) {
    const refused = await cli("grants", "add", ...args);
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(refused.stderr, reason);
  }
});
