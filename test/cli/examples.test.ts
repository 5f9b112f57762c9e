// The example programs README points to, run as users run them: each exits 0 and prints what
// its operations answered, and what they wrote is there for a server on the same data.
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { examplesDir, runNode, spawnServe, spawnServeOnFreshRoot } from "../helpers/cli-process.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";

/** The lines a program printed. */
function printed(stdout: string): string[] {
  return stdout.trimEnd().split("\n");
}

/** The items of the array a line ends with, such as `[ 2, 5 ]` or `[ 'a', 'b' ]`. */
function items(line: string | undefined): string[] {
  const inner = /\[([^[\]]*)\]$/.exec(line ?? "")?.[1] ?? "";
  return inner.split(",").map((item) => item.trim().replace(/^'|'$/g, "")).filter((item) => item !== "");
}

const post = (url: string, route: string, body: unknown = {}) =>
  fetch(url + route, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

test("dir-client in a given folder exits 0, prints each step's answer, and leaves tables that quiver serve on that folder serves", { timeout: 60_000 }, async (t) => {
  const folder = tempRoot("quiver-dir-example-");
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const run = await runNode(path.join(examplesDir, "dir-client.js"), [folder]);
  assert.equal(run.code, 0, run.stderr);
  const lines = printed(run.stdout);
  assert.match(lines[0] ?? "", new RegExp(`^created shop\\$orders version 1 at ${folder.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/databases/default/tables/[0-9a-f-]+\\.lance$`));
  assert.deepEqual(lines.slice(1, 4), [
    "opened shop$orders: version 1, columns order_id, amount, customer, embedding",
    "inserted 1 row, now version 2",
    "merged: 1 updated, 1 inserted",
  ]);
  assert.deepEqual(items(lines[4]).sort(), ["1 ada 9.5", "2 grace 12", "4 ada 20", "5 grace 7"]);
  assert.deepEqual(items(lines[5]), ["2", "5"], "order 2 is at [1, 0], order 5 next to it");
  assert.deepEqual(lines.slice(6), [
    "orders of ada: 2",
    "tags: [ 'reviewed' ]",
    "namespaces: [ 'shop' ]",
    "tables in shop: [ 'orders' ]",
    "describing a missing table: TableNotFound (code 4, HTTP 404)",
    "after rename: [ 'shop$orders_2024' ]",
  ]);
  assert.ok(existsSync(path.join(folder, "quiver.sqlite")), "the folder has the server's layout");

  const server = await spawnServe(["--port", "0", "--root", folder]);
  t.after(() => server.stop("SIGKILL"));
  assert.deepEqual((await expectJson(await fetch(`${server.url}/v1/namespace/shop/table/list`))).tables, ["orders_2024"]);
  assert.equal(await expectJson(await post(server.url, "/v1/table/shop$orders_2024/count_rows")), 5);
  assert.deepEqual(Object.keys((await expectJson(await post(server.url, "/v1/table/shop$orders_2024/tags/list"))).tags), ["reviewed"]);
});

test("rest-client given a running quiver serve's address exits 0, prints each step's answer, and its calls reach that server", { timeout: 60_000 }, async (t) => {
  // At info level the server logs each request, with the call context the example sends.
  const server = await spawnServeOnFreshRoot(t, [], { QUIVER_LOG_LEVEL: "info" });
  const run = await runNode(path.join(examplesDir, "rest-client.js"), [server.url]);
  assert.equal(run.code, 0, run.stderr);
  const lines = printed(run.stdout);
  assert.deepEqual(lines.slice(0, 3), ["created lab$runs$results version 1", "inserted: 2", "updated: 2"]);
  assert.deepEqual(items(lines[3]).sort(), ["2", "4"], "the failed runs were marked for retry");
  assert.deepEqual(lines.slice(4, 6), ["rows: 3", "versions: [ 1, 2, 3, 4 ]"]);
  assert.match(lines[6] ?? "", /^described: version 4, location (.+)$/);
  assert.ok((lines[6] as string).includes(path.join(server.root, "databases", "default", "tables")), "the table lives under the server's root");
  assert.deepEqual(lines.slice(7), [
    "all tables: [ 'lab$runs$results' ]",
    "creating lab again: NamespaceAlreadyExists (code 2, HTTP 409): namespace 'lab' already exists",
    "dropped lab$runs$results",
  ]);

  assert.deepEqual((await expectJson(await fetch(`${server.url}/v1/namespace/lab/list`))).namespaces, ["runs"]);
  assert.deepEqual((await expectJson(await fetch(`${server.url}/v1/namespace/lab$runs/table/list`))).tables, []);
  const created = server
    .stdout()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line))
    .find((entry) => entry.msg === "request" && entry.path === "/v1/namespace/lab/create" && entry.status === 200);
  assert.deepEqual(created?.context, { "request-origin": "example" }, "the example's first call reached this server");
});
