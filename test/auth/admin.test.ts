/**
 * The admin API and the audit log: databases, API keys (secret shown once, never listed),
 * the audit trail of mutating calls with their context, and the CLI that manages the same.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { checkAuthExposure, isLoopbackHost } from "../../src/cli/auth-runtime.js";
import { metadataFileName } from "../../src/catalog/runtime/local-root.js";
import { arrowStream } from "../helpers/arrow.js";
import { expectError, expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";
import { testStoreUrl } from "../helpers/test-store.js";
import { apiKey, startAuthServer } from "./auth-helpers.js";

const run = promisify(execFile);
const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/bin/main.js");

test("CreateDatabase, ListDatabases, DropDatabase with a deployment admin key → 201, listed, 409 code 3 while not empty, gone after cascade with its keys and data", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const root = await apiKey(server, null, "admin");
  const headers = { "x-api-key": root };

  const created = await expectJson<{ name: string }>(await server.post("/v1/admin/databases", { name: "sales" }, headers), 201);
  assert.equal(created.name, "sales");
  await expectError(await server.post("/v1/admin/databases", { name: "sales" }, headers), 409, 2);
  await expectError(await server.post("/v1/admin/databases", { name: "../up" }, headers), 400, 13);
  const listed = await expectJson<{ databases: { name: string }[] }>(await server.get("/v1/admin/databases", headers));
  assert.deepEqual(listed.databases.map((db) => db.name), ["default", "sales"]);

  const salesKey = (await expectJson<{ api_key: string }>(await server.post("/v1/admin/databases/sales/api-keys", { role: "write" }, headers), 201)).api_key;
  const upload = await fetch(`${server.url}/v1/tables/t`, { method: "POST", headers: { "x-api-key": salesKey, "x-svc-database": "sales", "content-type": "application/vnd.apache.arrow.stream" }, body: arrowStream({ id: Int32Array.from([1]) }) });
  await expectJson(upload);
  const dataDir = path.join(server.root, "databases", "sales");
  assert.ok(existsSync(dataDir));

  await expectError(await server.post("/v1/admin/databases/sales/drop", undefined, headers), 409, 3);
  await expectJson(await server.post("/v1/admin/databases/sales/drop?cascade=true", undefined, headers));
  assert.ok(!existsSync(dataDir), "the database's data is removed");
  await expectError(await server.get("/v1/tables", { "x-api-key": salesKey, "x-svc-database": "sales" }), 401, 16);
  await expectError(await server.post("/v1/admin/databases/sales/drop", undefined, headers), 404, 1);
  const after = await expectJson<{ databases: { name: string }[] }>(await server.get("/v1/admin/databases", headers));
  assert.deepEqual(after.databases.map((db) => db.name), ["default"]);
});

test("CreateApiKey → the secret once; ListApiKeys never shows it; the store holds only a salted hash", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const admin = await apiKey(server, "default", "admin");
  const created = await expectJson<{ key_id: string; api_key: string; role: string }>(
    await server.post("/v1/admin/databases/default/api-keys", { role: "read", description: "dashboards" }, { "x-api-key": admin }),
    201,
  );
  assert.equal(created.role, "read");
  await expectError(await server.post("/v1/admin/databases/default/api-keys", { role: "owner" }, { "x-api-key": admin }), 400, 13);

  // The key is `<prefix>_<key id>_<secret>`; the secret itself may contain "_".
  const secret = created.api_key.split("_").slice(2).join("_");
  assert.ok(secret.length >= 20, created.api_key);
  const listing = await server.get("/v1/admin/databases/default/api-keys", { "x-api-key": admin });
  const text = await listing.text();
  assert.ok(!text.includes(secret), "no secret in the listing");
  const keys = (JSON.parse(text) as { api_keys: { key_id: string; description: string; api_key?: string }[] }).api_keys;
  assert.deepEqual(keys.find((k) => k.key_id === created.key_id)?.description, "dashboards");
  assert.ok(keys.every((k) => k.api_key === undefined));

  const row = await server.runtime.store.rows.findApiKey(created.key_id);
  assert.ok(row && row.secret_hash !== secret && row.salt.length > 0);
  assert.ok(!JSON.stringify(await server.runtime.store.rows.listApiKeys(undefined)).includes(secret), "the secret is in no stored row");
  if (server.runtime.store.dialect === "sqlite") {
    const file = readFileSync(path.join(server.root, metadataFileName));
    assert.equal(file.indexOf(secret), -1, "the secret is not in the metadata file");
  }
});

test("Every mutating call is audited with who, database, operation, target, outcome, request id and context; reads are not; only admins list it", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const writer = await apiKey(server, "default", "write");
  const reader = await apiKey(server, "default", "read");
  const admin = await apiKey(server, "default", "admin");

  await expectJson(await server.post("/v1/namespace/ops/create", { context: { ticket: "OPS-1" } }, { "x-api-key": writer, "x-request-id": "req-create", "x-svc-ctx-reason": "setup" }));
  await expectError(await server.post("/v1/namespace/ops/create", {}, { "x-api-key": writer, "x-request-id": "req-again" }), 409, 2);
  await expectError(await server.post("/v1/namespace/nope/create", {}, { "x-api-key": reader, "x-request-id": "req-denied" }), 403, 15);
  await expectJson(await server.get("/v1/namespace/%24/list", { "x-api-key": reader, "x-request-id": "req-read" }));

  await expectError(await server.get("/v1/admin/databases/default/audit", { "x-api-key": writer }), 403, 15);
  const { records } = await expectJson<{ records: Record<string, any>[] }>(await server.get("/v1/admin/databases/default/audit", { "x-api-key": admin }));
  const byRequest = new Map(records.map((r) => [r.request_id, r]));
  assert.ok(!byRequest.has("req-read"), "reads are not audited");
  const writerId = `api-key:${writer.split("_")[1]}`;
  assert.deepEqual(
    { ...byRequest.get("req-create"), id: undefined, at: undefined },
    { id: undefined, at: undefined, database: "default", principal: writerId, operation: "CreateNamespace", target: "ops", outcome: "ok", status: 200, error_code: null, request_id: "req-create", context: { ticket: "OPS-1", reason: "setup" } },
  );
  assert.deepEqual([byRequest.get("req-again")?.outcome, byRequest.get("req-again")?.error_code], ["failed", 2]);
  assert.deepEqual([byRequest.get("req-denied")?.outcome, byRequest.get("req-denied")?.status], ["denied", 403]);

  // Pages are newest first and do not overlap.
  const first = await expectJson<{ records: { id: string }[]; page_token?: string }>(await server.get("/v1/admin/databases/default/audit?limit=2", { "x-api-key": admin }));
  assert.equal(first.records.length, 2);
  assert.ok(first.page_token);
  const second = await expectJson<{ records: { id: string }[] }>(await server.get(`/v1/admin/databases/default/audit?limit=2&page_token=${first.page_token}`, { "x-api-key": admin }));
  assert.deepEqual([...first.records, ...second.records].map((r) => r.id), records.slice(0, first.records.length + second.records.length).map((r) => r.id));
});

test("Auth mode none on loopback → everything allowed, still audited; none on another host → refused unless --insecure-no-auth", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/open/create", {}));
  await expectJson(await server.get("/v1/admin/databases"));
  const { records } = await expectJson<{ records: { principal: string; operation: string }[] }>(await server.get("/v1/admin/audit"));
  assert.deepEqual(records.map((r) => [r.principal, r.operation]), [["anonymous", "CreateNamespace"]]);

  for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"]) assert.ok(isLoopbackHost(host), host);
  for (const host of ["0.0.0.0", "::", "10.0.0.5", "quiver.example.com"]) assert.ok(!isLoopbackHost(host), host);
  assert.throws(() => checkAuthExposure("0.0.0.0", { mode: "none" }), /--insecure-no-auth/);
  assert.doesNotThrow(() => checkAuthExposure("0.0.0.0", { mode: "none", insecureNoAuth: true }));
  assert.doesNotThrow(() => checkAuthExposure("0.0.0.0", { mode: "required" }));
});

test("quiver serve --host 0.0.0.0 without auth → exits with an error before listening", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  await assert.rejects(run(process.execPath, [cli, "serve", "--host", "0.0.0.0", "--port", "0", "--root", root], { timeout: 20_000 }), (error: { code?: number; stderr?: string }) => {
    assert.equal(error.code, 1);
    assert.match(error.stderr ?? "", /refusing to serve 0\.0\.0\.0 without authentication/);
    return true;
  });
});

test("quiver databases create, keys create (key alone on a line, once), keys list (no secret), keys revoke → the key works, then 401 code 16", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  // The admin commands open the catalog the server uses: the SQLite file under the root, or --store.
  const storeUrl = await testStoreUrl(root);
  const at = storeUrl ? ["--root", root, "--store", storeUrl] : ["--root", root];
  assert.equal((await run(process.execPath, [cli, "databases", "create", "analytics", ...at])).stdout.trim(), "analytics");
  const created = await run(process.execPath, [cli, "keys", "create", ...at, "--database", "analytics", "--role", "write"]);
  const lines = created.stdout.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 1);
  const key = lines[0] as string;
  assert.match(key, /^qk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
  const keyId = key.split("_")[1] as string;
  assert.ok(!created.stderr.includes(key));
  const listed = (await run(process.execPath, [cli, "keys", "list", ...at, "--database", "analytics"])).stdout;
  assert.ok(listed.includes(keyId) && !listed.includes(key));
  assert.deepEqual((await run(process.execPath, [cli, "databases", "list", ...at])).stdout.split("\n").filter(Boolean).map((l) => l.split("\t")[0]), ["analytics", "default"]);

  const server = await startAuthServer({ root });
  t.after(() => server.close());
  await expectJson(await server.get("/v1/tables", { "x-api-key": key, "x-svc-database": "analytics" }));
  await run(process.execPath, [cli, "keys", "revoke", keyId, ...at]);
  await expectError(await server.get("/v1/tables", { "x-api-key": key, "x-svc-database": "analytics" }), 401, 16);
  await assert.rejects(run(process.execPath, [cli, "keys", "create", ...at, "--database", "missing", "--role", "read"]), /does not exist/);
});

test("CreateDatabase with a location that is, lies inside or holds another database's storage → 400, code 13, naming it; a separate location → 201", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const headers = { "x-api-key": await apiKey(server, null, "admin") };
  await expectJson(await server.post("/v1/admin/databases", { name: "sales" }, headers), 201);
  const sales = path.join(server.root, "databases", "sales");
  for (const [name, location] of [
    ["inside", path.join(sales, "inner")],
    ["same", sales],
    ["around", path.join(server.root, "databases")],
  ]) {
    const refused = await expectError(await server.post("/v1/admin/databases", { name, location }, headers), 400, 13);
    assert.match(refused.error, /overlaps the storage of database '(sales|default)'/);
  }
  const separate = path.join(server.root, "elsewhere");
  await expectJson(await server.post("/v1/admin/databases", { name: "own", location: separate }, headers), 201);
  // A database that would follow the data location into a folder another database keeps is refused too.
  const nested = path.join(server.root, "databases", "later");
  await expectJson(await server.post("/v1/admin/databases", { name: "owner", location: nested }, headers), 201);
  await expectError(await server.post("/v1/admin/databases", { name: "later" }, headers), 400, 13);
  const listed = await expectJson<{ databases: { name: string }[] }>(await server.get("/v1/admin/databases", headers));
  assert.deepEqual(listed.databases.map((db) => db.name).sort(), ["default", "own", "owner", "sales"]);
});
