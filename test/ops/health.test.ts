// Liveness and readiness under the names Kubernetes probes use: /livez and /healthz answer while
// the process runs; /readyz checks the store and that the data location takes writes.
import assert from "node:assert/strict";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";

test("/livez, /healthz, /health and /readyz on a healthy server → 200", async (t) => {
  const server = await startTestServer({ data: undefined });
  t.after(() => server.close());
  for (const path of ["/livez", "/healthz", "/health"]) assert.equal((await expectJson(await server.get(path))).status, "ok", path);
  assert.deepEqual(await expectJson(await server.get("/readyz")), { status: "ready", checks: { store: "ok", data: "ok" } });
  if (!server.dataLocation.includes("://")) assert.deepEqual(readdirSync(server.dataLocation).filter((name) => name.startsWith(".quiver-ready")), [], "the probe object is removed");
});

test("/readyz when the data location cannot be written → 503, code 17, naming the data check; /livez still 200", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  if (server.dataLocation.includes("://")) return t.skip("the data location is an object store here");
  // A file where the folder was: every write below it fails, whoever runs the test.
  rmSync(server.dataLocation, { recursive: true, force: true });
  writeFileSync(server.dataLocation, "not a folder");
  const refused = await expectError(await server.get("/readyz"), 503, 17);
  assert.match(refused.error, /^not ready: data: /);
  assert.equal((await expectJson(await server.get("/livez"))).status, "ok");
});
