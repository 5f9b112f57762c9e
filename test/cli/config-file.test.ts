// `quiver serve --config quiver.toml`: the file sets every option a flag can, flags and the
// environment win over it, and a key or value it does not accept stops serve with a message
// naming that key.
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { stringify } from "smol-toml";
import { parseServeOptions } from "../../src/cli/serve-options.js";
import { type Setting, serveSettings } from "../../src/cli/serve-settings.js";
import { runCli, spawnServe } from "../helpers/cli-process.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";

const webhookSecret = `whsec_${Buffer.from("a secret of twenty-four!!").toString("base64")}`;

/** A value other than the default for each setting, as the file holds it and as a flag spells it. */
function sampleOf(setting: Setting): { file: unknown; flag: string[] } {
  const kind = setting.kind;
  switch (kind.type) {
    case "boolean":
      return { file: true, flag: [setting.flag] };
    case "integer": {
      const value = setting.key === "port" ? 8123 : setting.key === "credential_ttl" ? 900 : kind.min + 7;
      return { file: value, flag: [setting.flag, String(value)] };
    }
    case "choice": {
      const value = kind.values.find((v) => v !== setting.shownDefault) as string;
      return { file: value, flag: [setting.flag, value] };
    }
    case "size":
      return { file: "64MiB", flag: [setting.flag, "64 MiB"] };
    case "duration":
      return { file: "12h", flag: [setting.flag, "12h"] };
    case "list":
      if (setting.key === "event_webhook") return { file: ["http://a.example/hook", "http://b.example/hook"], flag: [setting.flag, "http://a.example/hook", setting.flag, "http://b.example/hook"] };
      return { file: ["fast", "slow"], flag: [setting.flag, "fast,slow"] };
    case "map":
      return { file: { aws_region: "eu-west-3", aws_secret_access_key: "s3cr3t/value" }, flag: [setting.flag, "aws_region=eu-west-3", setting.flag, "aws_secret_access_key=s3cr3t/value"] };
    case "string": {
      const value =
        setting.key === "event_webhook_secret"
          ? webhookSecret
          : setting.key === "store"
          ? "postgres://quiver:pw@db.internal:5432/quiver"
          : setting.key === "otel_endpoint"
            ? "http://collector.internal:4318"
            : setting.key.startsWith("oidc_")
              ? `https://issuer.example/${setting.key}`
              : setting.key.endsWith("rate_limit")
                ? "25/s"
                : `/srv/${setting.key}`;
      return { file: value, flag: [setting.flag, value] };
    }
  }
}

function writeConfig(folder: string, values: Record<string, unknown>, name = "quiver.toml"): string {
  const file = path.join(folder, name);
  writeFileSync(file, stringify(values));
  return file;
}

test("a config file sets every option a flag can, to the same effect", (t) => {
  const folder = tempRoot();
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const fileValues = Object.fromEntries(serveSettings.map((setting) => [setting.key, sampleOf(setting).file]));
  const flags = serveSettings.flatMap((setting) => sampleOf(setting).flag);
  const fromFlags = parseServeOptions(flags, {});
  const fromFile = parseServeOptions(["--config", writeConfig(folder, fileValues)], {});
  assert.deepEqual(fromFile, fromFlags);

  // Each key on its own changes what serve runs with (the three OIDC keys only count together,
  // and so do the two TLS files, and a burst with its rate).
  const defaults = parseServeOptions([], {});
  const oidcTrio = { oidc_issuer: "https://i.example", oidc_audience: "quiver", oidc_jwks_url: "https://i.example/jwks" };
  const tlsPair = { tls_cert: "/etc/quiver/cert.pem", tls_key: "/etc/quiver/key.pem" };
  const baseOf = (key: string) =>
    key.startsWith("oidc_")
      ? oidcTrio
      : key.startsWith("tls_")
        ? tlsPair
        : key.endsWith("rate_limit_burst")
          ? { [key.replace(/_burst$/, "")]: "25/s" }
          : key === "event_webhook"
            ? { event_webhook_secret: webhookSecret }
            : undefined;
  for (const setting of serveSettings) {
    const base = baseOf(setting.key);
    const without = parseServeOptions(["--config", writeConfig(folder, base ?? {}, "base.toml")], {});
    const withKey = parseServeOptions(["--config", writeConfig(folder, { ...base, [setting.key]: sampleOf(setting).file }, "one.toml")], {});
    assert.notDeepEqual(withKey, base ? without : defaults, `${setting.key} in the file changes the options`);
  }
});

test("flags win over the environment, which wins over the file; storage options merge key by key", (t) => {
  const folder = tempRoot();
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const config = writeConfig(folder, { port: 7001, host: "127.0.0.2", root: "/from/file", storage_options: { region: "file", endpoint: "file" } });
  const options = parseServeOptions(["--config", config, "--port", "7003", "--storage-option", "region=flag"], {
    QUIVER_PORT: "7002",
    QUIVER_HOST: "127.0.0.3",
    QUIVER_STORAGE_OPTIONS: JSON.stringify({ region: "env", bucket: "env" }),
  });
  assert.ok(options !== "help");
  assert.equal(options.port, 7003);
  assert.equal(options.host, "127.0.0.3");
  assert.equal(options.root, "/from/file");
  assert.deepEqual(options.storage.options, { region: "flag", bucket: "env", endpoint: "file" });
});

test("quiver serve --config runs with the file's settings", async (t) => {
  const folder = tempRoot();
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const config = writeConfig(folder, { port: 0, root: path.join(folder, "data"), log_format: "json", log_level: "info", job_concurrency: 1 });
  const server = await spawnServe(["--config", config], { QUIVER_LOG_LEVEL: undefined });
  t.after(() => server.stop());
  assert.equal((await expectJson(await fetch(`${server.url}/health`))).status, "ok");
  assert.match(server.stdout(), /"msg":"table data location"/, "JSON log lines at level info");
  assert.ok(server.stdout().includes(path.join(folder, "data")));
});

test("a key or value the file does not accept stops serve with exit code 1, naming the key", async (t) => {
  const folder = tempRoot();
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ prot: 8080 }, /unknown setting 'prot' in quiver\.toml; did you mean 'port'\?/],
    [{ port: "high" }, /port in quiver\.toml must be an integer from 0 to 65535, got 'high'/],
    [{ job_lease_ms: 0 }, /job_lease_ms in quiver\.toml must be an integer of at least 1, got 0/],
    [{ auth: "sometimes" }, /auth in quiver\.toml must be one of none, required, got 'sometimes'/],
    [{ managed_versioning: "yes" }, /managed_versioning in quiver\.toml must be true or false/],
    [{ max_upload_size: "huge" }, /max_upload_size in quiver\.toml must be a size of at least 1 byte/],
    [{ storage_options: { aws_region: 3 } }, /storage_options in quiver\.toml: the value of 'aws_region' must be a string/],
  ];
  // Each file is refused before anything is opened, so the starts need not wait for each other;
  // each case has a folder of its own, as the messages name the file quiver.toml.
  const files = cases.map(([values], i) => {
    mkdirSync(path.join(folder, String(i)));
    return writeConfig(path.join(folder, String(i)), values);
  });
  const broken = path.join(folder, "broken.toml");
  writeFileSync(broken, "port = = 1\n");
  const [refused, brokenRun, missing] = await Promise.all([
    Promise.all(files.map((file) => runCli(["serve", "--config", file]))),
    runCli(["serve", "--config", broken]),
    runCli(["serve", "--config", path.join(folder, "absent.toml")]),
  ]);
  cases.forEach(([, message], i) => {
    const { code, stderr } = refused[i] as { code: number | null; stderr: string };
    assert.equal(code, 1, stderr);
    assert.match(stderr, message);
  });
  assert.equal(brokenRun.code, 1);
  assert.match(brokenRun.stderr, /broken\.toml is not valid TOML/);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /cannot read the config file .*absent\.toml: ENOENT/);
});

test("a config file serve refuses, while the relaying process is slow to load its modules → still exit code 1 with the message, never 0 and silence", async (t) => {
  const folder = tempRoot();
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  // A module hook that makes only the relaying process (the child has QUIVER_SERVE_SUPERVISOR
  // set) take 1.5 s to load the serve options, as on a loaded machine: the server's process then
  // refuses the file and ends before the relay has read its options.
  writeFileSync(path.join(folder, "slow-options.mjs"), 'export async function load(url, context, next) {\n  if (url.endsWith("/cli/serve-options.js")) await new Promise((resolve) => setTimeout(resolve, 1500));\n  return next(url, context);\n}\n');
  writeFileSync(path.join(folder, "slow-relay.mjs"), 'import { register } from "node:module";\nif (process.env.QUIVER_SERVE_SUPERVISOR === undefined) register(new URL("./slow-options.mjs", import.meta.url));\n');
  const { code, stderr } = await runCli(["serve", "--config", writeConfig(folder, { prot: 8080 })], { NODE_OPTIONS: `--import ${path.join(folder, "slow-relay.mjs")}` });
  assert.equal(code, 1, stderr);
  assert.match(stderr, /unknown setting 'prot' in quiver\.toml/);
});
