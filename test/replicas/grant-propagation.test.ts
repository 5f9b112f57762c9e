// Grants across `quiver serve` processes on one PostgreSQL catalog with `--auth required`: a grant
// or revoke made through one replica holds on the other within a second (the store's change
// notices), and both hold after the replica restarts.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { arrowStream } from "../helpers/arrow.js";
import { type ServeProcess, runCli, spawnServe } from "../helpers/cli-process.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { expectError, expectJson, tempRoot } from "../helpers/test-server.js";

let storeUrl: string;
let data: string;
const roots = [tempRoot(), tempRoot()];
let replicas: ServeProcess[] = [];
let owner: string;
let analyst: string;

const serve = (root: string) => spawnServe(["--port", "0", "--root", root, "--store", storeUrl, "--data", data, "--auth", "required"]);

async function key(database: string, role: string): Promise<string> {
  const created = await runCli(["keys", "create", "--database", database, "--role", role, "--store", storeUrl]);
  assert.equal(created.code, 0, created.stderr);
  return created.stdout.trim();
}

const send = (url: string, apiKey: string, route: string, body: unknown = {}) =>
  fetch(url + route, { method: "POST", headers: { "x-api-key": apiKey, "content-type": "application/json" }, body: JSON.stringify(body) });

/** Milliseconds until `route` through `url` answers `status` to the analyst; fails past `limitMs`. */
async function untilAnswers(url: string, route: string, status: number, limitMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const response = await send(url, analyst, route);
    await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (response.status === status) return elapsed;
    if (elapsed > limitMs) assert.fail(`${route} still answered ${response.status} after ${Math.round(elapsed)} ms`);
    await sleep(20);
  }
}

before(async () => {
  storeUrl = await freshPostgresDatabase();
  data = tempRoot("quiver-shared-data-");
  replicas = await Promise.all(roots.map(serve));
  owner = await key("default", "admin");
  analyst = await key("default", "none");
  const created = await fetch(`${replicas[0]!.url}/v1/table/orders/create`, {
    method: "POST",
    headers: { "x-api-key": owner, "content-type": "application/vnd.apache.arrow.stream" },
    body: arrowStream({ id: Int32Array.from([1, 2, 3]) }),
  });
  await expectJson(created);
});
after(async () => {
  await Promise.all(replicas.map((replica) => replica.stop("SIGKILL")));
  for (const dir of [data, ...roots]) rmSync(dir, { recursive: true, force: true });
});

test("a grant and a revoke made through one replica hold on the other within a second, and after it restarts", async () => {
  const [a, b] = replicas.map((replica) => replica.url) as [string, string];
  const subject = `p:api-key:${analyst.slice(3, 19)}`;
  // Replica b has judged the analyst once (and keeps what it holds in memory) before the grants.
  await expectError(await send(b, analyst, "/v1/table/orders/count_rows"), 403, 15);
  await expectJson(await send(a, owner, "/admin/authz/acl/add", { subject, object: "database:default", privilege: "USAGE" }));
  await expectJson(await send(a, owner, "/admin/authz/acl/add", { subject, object: "table:default:public$orders", privilege: "SELECT" }));
  const granted = await untilAnswers(b, "/v1/table/orders/count_rows", 200, 1000);
  assert.ok(granted < 1000, `granted after ${granted} ms`);

  await expectJson(await send(a, owner, "/admin/authz/acl/delete", { subject, object: "table:default:public$orders", privilege: "SELECT" }));
  const revoked = await untilAnswers(b, "/v1/table/orders/count_rows", 404, 1000);
  assert.ok(revoked < 1000, `revoked after ${revoked} ms`);

  await replicas[1]!.stop("SIGKILL");
  replicas[1] = await serve(roots[1]!);
  await expectError(await send(replicas[1].url, analyst, "/v1/table/orders/count_rows"), 404, 4);
  const listed = await expectJson<{ entries: { privilege: string; object: string }[] }>(await send(replicas[1].url, owner, "/admin/authz/acl/list", { object: "database:default" }));
  assert.deepEqual(
    listed.entries.filter((entry) => entry.privilege === "USAGE"),
    [{ subject_id: subject, object: "database:default", privilege: "USAGE" }],
  );
});
