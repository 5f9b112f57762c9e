// `quiver serve --tls-cert --tls-key` as users run it: an https:// ready line, a renewed
// certificate picked up on SIGHUP by new connections while the listener stays, a bad renewal
// leaving the certificate in use serving, and certificates that cannot serve refused at start.
import assert from "node:assert/strict";
import { copyFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import tls from "node:tls";
import { after, before, test } from "node:test";
import { spawnServe } from "../helpers/cli-process.js";
import { tempRoot } from "../helpers/test-server.js";
import { type IssuedCertificate, type TestAuthority, makeTestAuthority } from "../helpers/tls-certificates.js";

let authority: TestAuthority;
let first: IssuedCertificate;
let second: IssuedCertificate;

before(() => {
  authority = makeTestAuthority();
  first = authority.issue("first");
  second = authority.issue("second");
});

after(() => authority?.remove());

/** The fingerprint of the certificate a new TLS connection to `url` is served, trusting the test CA. */
async function servedFingerprint(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = tls.connect({ host: hostname, port: Number(port), ca: authority.ca, servername: "localhost" });
  try {
    await new Promise((resolve, reject) => socket.once("secureConnect", resolve).once("error", reject));
    return socket.getPeerCertificate().fingerprint256;
  } finally {
    socket.destroy();
  }
}

/** Polls until a new connection is served `fingerprint`, failing after `ms`. */
async function waitForServed(url: string, fingerprint: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if ((await servedFingerprint(url)) === fingerprint) return;
    if (Date.now() > deadline) assert.fail(`new connections are still not served ${fingerprint}`);
    await sleep(100);
  }
}

function freshRoot(t: { after(fn: () => void): void }): string {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

test("serve with --tls-cert and --tls-key → an https:// ready line; SIGHUP serves a renewed pair to new connections, a broken one leaves the pair in use", async (t) => {
  const root = freshRoot(t);
  const certFile = path.join(root, "..", `${path.basename(root)}-cert.pem`);
  const keyFile = path.join(root, "..", `${path.basename(root)}-key.pem`);
  t.after(() => {
    rmSync(certFile, { force: true });
    rmSync(keyFile, { force: true });
  });
  copyFileSync(first.certFile, certFile);
  copyFileSync(first.keyFile, keyFile);
  const server = await spawnServe(["--port", "0", "--root", root, "--tls-cert", certFile, "--tls-key", keyFile], { QUIVER_LOG_LEVEL: "info" });
  t.after(() => server.stop("SIGKILL"));
  assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(await servedFingerprint(server.url), first.fingerprint);

  // A connection opened before the renewal keeps working after it.
  const { hostname, port } = new URL(server.url);
  const early = tls.connect({ host: hostname, port: Number(port), ca: authority.ca, servername: "localhost", ALPNProtocols: ["http/1.1"] });
  await new Promise((resolve, reject) => early.once("secureConnect", resolve).once("error", reject));
  t.after(() => early.destroy());

  copyFileSync(second.certFile, certFile);
  copyFileSync(second.keyFile, keyFile);
  server.child.kill("SIGHUP");
  await waitForServed(server.url, second.fingerprint);
  const answer = new Promise<string>((resolve) => {
    let text = "";
    early.setEncoding("utf8");
    early.on("data", (chunk) => {
      text += chunk;
      if (text.includes("\r\n\r\n") && text.includes("}")) resolve(text);
    });
  });
  early.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n");
  assert.match(await answer, /^HTTP\/1\.1 200 /);

  // A renewal cut short: the certificate is there, the key is not a key.
  writeFileSync(keyFile, "not a key\n");
  server.child.kill("SIGHUP");
  const deadline = Date.now() + 10_000;
  while (!server.output().includes("TLS certificate reload failed")) {
    if (Date.now() > deadline) assert.fail(`no reload failure was logged: ${server.output()}`);
    await sleep(100);
  }
  assert.equal(await servedFingerprint(server.url), second.fingerprint, "the pair in use keeps serving");
  assert.equal(server.child.exitCode, null, "the server is still running");
  assert.equal(await server.stop("SIGTERM"), 0);
});

test("serve with a missing certificate file → exits 1 naming the file, before listening", async (t) => {
  const root = freshRoot(t);
  const missing = path.join(root, "missing.pem");
  await assert.rejects(spawnServe(["--port", "0", "--root", root, "--tls-cert", missing, "--tls-key", first.keyFile]), (error: Error) => {
    assert.match(error.message, /cannot read the TLS certificate file .*missing\.pem: ENOENT/);
    assert.doesNotMatch(error.message, /Quiver listening/);
    return true;
  });
});

test("serve with a key that does not belong to the certificate → exits 1 saying the pair is not usable", async (t) => {
  const root = freshRoot(t);
  await assert.rejects(spawnServe(["--port", "0", "--root", root, "--tls-cert", first.certFile, "--tls-key", second.keyFile]), /are not a usable pair: key values mismatch/);
});

test("serve with a certificate file that holds no PEM → exits 1 naming the file", async (t) => {
  const root = freshRoot(t);
  const garbage = path.join(root, "garbage.pem");
  writeFileSync(garbage, "hello\n");
  await assert.rejects(spawnServe(["--port", "0", "--root", root, "--tls-cert", garbage, "--tls-key", first.keyFile]), /the TLS certificate file .*garbage\.pem holds no PEM block/);
});

test("serve with --tls-cert but no --tls-key → exits 1 saying they go together", async (t) => {
  const root = freshRoot(t);
  await assert.rejects(spawnServe(["--port", "0", "--root", root, "--tls-cert", first.certFile]), /--tls-cert and --tls-key go together/);
});

test("QUIVER_TLS_CERT and QUIVER_TLS_KEY configure TLS like the flags", async (t) => {
  const root = freshRoot(t);
  const server = await spawnServe(["--port", "0", "--root", root], { QUIVER_TLS_CERT: first.certFile, QUIVER_TLS_KEY: first.keyFile });
  t.after(() => server.stop("SIGKILL"));
  assert.match(server.url, /^https:/);
  assert.equal(await servedFingerprint(server.url), first.fingerprint);
});
