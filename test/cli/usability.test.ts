// What a newcomer meets first: `quiver --version`, an unknown flag pointing to --help, a busy
// port named as such, and `databases create` on a root that does not exist yet.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { runCli } from "../helpers/cli-process.js";
import { tempRoot } from "../helpers/test-server.js";

const { version } = JSON.parse(readFileSync(fileURLToPath(new URL("../../../package.json", import.meta.url)), "utf8")) as { version: string };

test("quiver --version and -V print the version and exit 0", async () => {
  for (const flag of ["--version", "-V"]) {
    const { code, stdout } = await runCli([flag]);
    assert.equal(code, 0);
    assert.equal(stdout.trim(), version);
  }
});

test("an unknown flag names itself and points to the command's --help; exit code 1", async () => {
  const serve = await runCli(["serve", "--prot", "80"]);
  assert.equal(serve.code, 1);
  assert.match(serve.stderr, /Unknown option '--prot'/);
  assert.match(serve.stderr, /Run 'quiver serve --help' for the options\./);
  const databases = await runCli(["databases", "list", "--colour"]);
  assert.equal(databases.code, 1);
  assert.match(databases.stderr, /Run 'quiver databases --help' for the options\./);
});

test("serve on a port another process holds → exit 1 with a message naming the port and --port", async (t) => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  t.after(() => holder.close());
  const port = (holder.address() as net.AddressInfo).port;
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const { code, stderr } = await runCli(["serve", "--root", root, "--port", String(port)]);
  assert.equal(code, 1);
  assert.match(stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use by another process; choose another with --port`));
  assert.doesNotMatch(stderr, /EADDRINUSE|    at /, "no stack trace");
});

test("databases create on a root that does not exist creates it; other commands still refuse a missing root", async (t) => {
  const parent = tempRoot();
  t.after(() => rmSync(parent, { recursive: true, force: true }));
  const root = path.join(parent, "new", "root");
  const created = await runCli(["databases", "create", "analytics", "--root", root]);
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stdout.trim(), "analytics");
  assert.ok(existsSync(path.join(root, "quiver.sqlite")));
  const listed = await runCli(["databases", "list", "--root", root]);
  assert.match(listed.stdout, /^analytics\t/m);
  const missing = await runCli(["keys", "list", "--root", path.join(parent, "typo")]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /root folder .*typo does not exist/);
});

test("databases set --read-consistency-interval changes a database's interval, list shows it, 'strong' goes back, a bad value exits 1", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const created = await runCli(["databases", "create", "events", "--read-consistency-interval", "250", "--root", root]);
  assert.equal(created.code, 0, created.stderr);
  assert.match((await runCli(["databases", "list", "--root", root])).stdout, /^events\t.*read_consistency=250ms\t/m);
  const set = await runCli(["databases", "set", "events", "--read-consistency-interval", "strong", "--root", root]);
  assert.equal(set.code, 0, set.stderr);
  assert.match((await runCli(["databases", "list", "--root", root])).stdout, /^events\t.*read_consistency=strong\t/m);
  const bad = await runCli(["databases", "set", "events", "--read-consistency-interval", "soon", "--root", root]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /--read-consistency-interval must be a whole number of milliseconds or 'strong'/);
});
