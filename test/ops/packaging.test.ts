// The container image, compose file and Kubernetes manifests cannot be run here (no container
// engine), so what they hand to Quiver is checked instead: each config file they pass is accepted
// by `quiver serve`, the image's config starts a server, and every health path they probe is one
// Quiver serves.
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { parseServeOptions } from "../../src/cli/serve-options.js";
import { runCli, spawnServe } from "../helpers/cli-process.js";
import { tempRoot } from "../helpers/test-server.js";

const checkout = fileURLToPath(new URL("../../../", import.meta.url));
const read = (file: string) => readFileSync(path.join(checkout, file), "utf8");

/** `KEY=VALUE` lines of an env file. */
function envFile(file: string): Record<string, string> {
  return Object.fromEntries(
    read(file)
      .split("\n")
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

test("every config file the packaging passes is accepted by quiver serve", () => {
  const image = parseServeOptions(["--config", path.join(checkout, "deploy/docker/quiver.toml")], {});
  assert.ok(image !== "help");
  assert.deepEqual([image.host, image.port, image.root, image.auth.mode], ["0.0.0.0", 2333, "/var/lib/quiver", "required"]);

  const compose = parseServeOptions(["--config", path.join(checkout, "deploy/compose/quiver.toml")], {});
  assert.ok(compose !== "help");
  assert.equal(compose.store, "postgres://quiver:quiver@postgres:5432/quiver");
  assert.equal(compose.storage.data, "az://lake/tables");
  assert.equal(compose.storage.options.azure_endpoint, "http://azurite:10000/devstoreaccount1");

  const kubernetes = parseServeOptions(["--config", path.join(checkout, "deploy/kubernetes/quiver.toml")], envFile("deploy/kubernetes/secrets.example.env"));
  assert.ok(kubernetes !== "help");
  assert.equal(kubernetes.storage.data, "s3://my-lake-bucket/quiver");
  assert.equal(kubernetes.storage.options.aws_region, "eu-west-1");
  assert.ok(kubernetes.secrets.includes("CHANGE-ME"), "the Secret's values are kept out of the logs");
});

test("the files the packaging mounts and copies are the ones in the checkout", () => {
  const dockerfile = read("Dockerfile");
  assert.match(dockerfile, /^COPY deploy\/docker\/quiver\.toml \/etc\/quiver\/quiver\.toml$/m);
  assert.match(dockerfile, /^CMD \["serve", "--config", "\/etc\/quiver\/quiver\.toml"\]$/m);
  assert.match(dockerfile, /^USER node$/m, "the image runs as an unprivileged user");
  const compose = read("compose.yaml");
  assert.match(compose, /- \.\/deploy\/compose\/quiver\.toml:\/etc\/quiver\/compose\.toml:ro/);
  assert.match(compose, /command: \["serve", "--config", "\/etc\/quiver\/compose\.toml"\]/);
  assert.match(read("deploy/kubernetes/deployment.yaml"), /args: \["serve", "--config", "\/etc\/quiver\/quiver\.toml"\]/);
});

test("the image's config starts a server that answers every path the health checks probe", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  // The image's file, with what only differs outside a container: the folder, a loopback port.
  const server = await spawnServe(["--config", path.join(checkout, "deploy/docker/quiver.toml"), "--root", root, "--host", "127.0.0.1", "--port", "0"]);
  t.after(() => server.stop());
  const probed = [
    ...[...read("Dockerfile").matchAll(/127\.0\.0\.1:2333(\/[a-z]+)/g)].map((m) => m[1] as string),
    ...[...read("deploy/kubernetes/deployment.yaml").matchAll(/path: (\/[a-z]+)/g)].map((m) => m[1] as string),
  ];
  assert.deepEqual([...new Set(probed)].sort(), ["/livez", "/metrics", "/readyz"]);
  for (const probe of new Set(probed)) assert.equal((await fetch(server.url + probe)).status, 200, probe);
  // auth = "required": the API itself wants a key.
  assert.equal((await fetch(`${server.url}/v1/namespace/list`)).status, 401);
});

test("the package's bin gives a quiver command", async () => {
  const { bin } = JSON.parse(read("package.json")) as { bin: Record<string, string> };
  assert.equal(bin.quiver, "./dist/src/bin/main.js");
  assert.match(read("dist/src/bin/main.js"), /^#!\/usr\/bin\/env node\n/);
  const { code, stdout } = await runCli(["--version"]);
  assert.equal(code, 0);
  assert.equal(stdout.trim(), JSON.parse(read("package.json")).version);
});
