// What `quiver serve --help` lists, and the managed-versioning switch as flag and environment.
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { runCli, spawnServe, spawnServeOnFreshRoot } from "../helpers/cli-process.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";

const readme = readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8");

/** The flags of README's configuration table (its rows start with a flag). */
function configurationTableFlags(): string[] {
  return [...readme.matchAll(/^\| `(--[a-z-]+)/gm)].map((match) => match[1] as string);
}

/** Settings README names that other commands read, not serve: `quiver backup` and `quiver restore`'s key file. */
const otherCommandsSettings = ["QUIVER_BACKUP_KEY_FILE"];

/** Every QUIVER_* setting README names for serve: not the test suite's own (QUIVER_TEST_*), nor other commands'. */
function readmeSettings(): string[] {
  return [...new Set([...readme.matchAll(/QUIVER_[A-Z_]+/g)].map((match) => match[0]))].filter((name) => !name.startsWith("QUIVER_TEST_") && !otherCommandsSettings.includes(name));
}

test("serve --help lists every flag and setting README names for serve, and exits 0", async () => {
  const tableFlags = configurationTableFlags();
  for (const flag of ["--host", "--port", "--root", "--log-level", "--managed-versioning", "--auth"]) assert.ok(tableFlags.includes(flag), `README's table names ${flag}`);
  // The serve flags of README's Authentication section, and the claim names it calls configurable.
  const authFlags = ["--insecure-no-auth", "--token-ttl", "--oidc-issuer", "--oidc-audience", "--oidc-jwks-url", "--oidc-role-claim", "--oidc-database-claim"];
  const settings = readmeSettings();
  for (const name of ["QUIVER_WORKER_POOLS", "QUIVER_JOB_LEASE_MS", "QUIVER_JOB_POLL_MS", "QUIVER_JOB_CONCURRENCY", "QUIVER_COMMIT_ATTEMPTS"]) {
    assert.ok(settings.includes(name), `README names ${name}`);
  }

  const { code, stdout, stderr } = await runCli(["serve", "--help"]);
  assert.equal(code, 0, stderr);
  const missing = [...tableFlags, ...authFlags, ...settings].filter((name) => !new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(stdout));
  assert.deepEqual(missing, [], stdout);
});

test("an unknown serve flag is refused with exit code 1 and a message naming it", async () => {
  const { code, stderr } = await runCli(["serve", "--no-such-flag"]);
  assert.equal(code, 1);
  assert.match(stderr, /--no-such-flag/);
});

/** What declare answers for managed_versioning on a fresh root served with `args` and `env`. */
async function managedVersioningOf(t: { after(fn: () => Promise<void>): void }, args: string[], env: Record<string, string | undefined>) {
  const server = await spawnServeOnFreshRoot(t, [...args], env);
  const declared = await expectJson(await fetch(`${server.url}/v1/table/planned/declare`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
  const described = await expectJson(await fetch(`${server.url}/v1/table/planned/describe`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
  assert.equal(described.managed_versioning, declared.managed_versioning, "describe and declare agree");
  return declared.managed_versioning as boolean;
}

test("--managed-versioning and QUIVER_MANAGED_VERSIONING=1 each turn managed versioning on; without either it is off", { timeout: 60_000 }, async (t) => {
  const [flag, env, neither, envOff] = await Promise.all([
    managedVersioningOf(t, ["--managed-versioning"], { QUIVER_MANAGED_VERSIONING: undefined }),
    managedVersioningOf(t, [], { QUIVER_MANAGED_VERSIONING: "1" }),
    managedVersioningOf(t, [], { QUIVER_MANAGED_VERSIONING: undefined }),
    managedVersioningOf(t, [], { QUIVER_MANAGED_VERSIONING: "0" }),
  ]);
  assert.deepEqual({ flag, env, neither, envOff }, { flag: true, env: true, neither: false, envOff: false });
});

test("--managed-versioning on a root whose default database was created without it → the database keeps its mode and serve warns so", { timeout: 60_000 }, async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const first = await spawnServe(["--port", "0", "--root", root], { QUIVER_MANAGED_VERSIONING: undefined });
  await first.stop();
  const second = await spawnServe(["--port", "0", "--root", root, "--managed-versioning"], { QUIVER_MANAGED_VERSIONING: undefined });
  t.after(() => second.stop("SIGKILL"));
  const declared = await expectJson(await fetch(`${second.url}/v1/table/planned/declare`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
  assert.equal(declared.managed_versioning, false);
  assert.match(second.output(), /managed versioning was asked for, but the default database was created without it/);
});
