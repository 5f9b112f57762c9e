/**
 * Cross-database isolation: a key of database alpha can neither list, read, write nor drop
 * anything of database beta, whatever database headers, prefixes, Host names or ids it sends.
 */
import assert from "node:assert/strict";
import test from "node:test";
import { arrowStream } from "../helpers/arrow.js";
import { rawRequest } from "../helpers/raw-http.js";
import { type TestServer, expectError, expectJson } from "../helpers/test-server.js";
import { addDatabase, apiKey, startAuthServer } from "./auth-helpers.js";

/** A request with full control of headers, Host included (fetch does not let a caller set Host). */
async function raw(server: TestServer, method: string, path: string, headers: Record<string, string>, body?: string | Uint8Array) {
  const { status, text } = await rawRequest(server.url, method, path, { headers, body });
  return { status, body: text ? (JSON.parse(text) as any) : undefined };
}

async function tableNames(server: TestServer, key: string, database: string): Promise<string[]> {
  const listed = await expectJson<{ tables: string[] }>(await server.get("/v1/tables", { "x-api-key": key, "x-svc-database": database }));
  return listed.tables;
}

test("A key of database alpha against database beta: every list, read, write and drop → 403 code 15 or alpha's own data; beta is unchanged", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  await addDatabase(server, "alpha");
  await addDatabase(server, "beta");
  const alphaKey = await apiKey(server, "alpha", "admin");
  const betaKey = await apiKey(server, "beta", "admin");

  // beta holds a namespace and a table; alpha holds its own table.
  await expectJson(await server.post("/v1/namespace/secret/create", {}, { "x-api-key": betaKey, "x-svc-database": "beta" }));
  const rows = arrowStream({ id: Int32Array.from([1, 2, 3]) });
  const created = await fetch(`${server.url}/v1/tables/payroll`, { method: "POST", headers: { "x-api-key": betaKey, "x-svc-database": "beta", "content-type": "application/vnd.apache.arrow.stream" }, body: rows });
  await expectJson(created);
  const own = await fetch(`${server.url}/v1/tables/mine`, { method: "POST", headers: { "x-api-key": alphaKey, "x-svc-database": "alpha", "content-type": "application/vnd.apache.arrow.stream" }, body: rows });
  await expectJson(own);

  const aimedAtBeta: Record<string, string>[] = [
    { "x-svc-database": "beta" },
    { "x-lancedb-database": "beta" },
    { "x-svc-database-prefix": "beta" },
    { "x-lancedb-database-prefix": "beta" },
    { host: "beta.quiver.example" },
    { host: "beta.quiver.example", "x-svc-database": "beta" },
  ];
  const attempts: [string, string, string | Uint8Array | undefined][] = [
    ["GET", "/v1/tables", undefined],
    ["GET", "/v1/table", undefined],
    ["GET", "/v1/namespace/%24/list", undefined],
    ["GET", "/v1/namespace/secret/table/list", undefined],
    ["POST", "/v1/table/payroll/describe", "{}"],
    ["POST", "/v1/table/payroll/exists", "{}"],
    ["POST", "/v1/namespace/secret/describe", "{}"],
    ["POST", "/v1/namespace/evil/create", "{}"],
    ["POST", "/v1/tables/planted", rows],
    ["POST", "/v1/table/payroll/rename", JSON.stringify({ new_table_name: "stolen" })],
    ["POST", "/v1/table/payroll/drop", "{}"],
    ["POST", "/v1/table/payroll/deregister", "{}"],
    ["POST", "/v1/namespace/secret/drop", JSON.stringify({ behavior: "Cascade" })],
  ];
  for (const headers of aimedAtBeta) {
    for (const [method, path, body] of attempts) {
      const contentType = body instanceof Uint8Array ? "application/vnd.apache.arrow.stream" : "application/json";
      const result = await raw(server, method, path, { ...headers, "x-api-key": alphaKey, ...(body ? { "content-type": contentType } : {}) }, body);
      assert.deepEqual([result.status, result.body?.code], [403, 15], `${method} ${path} with ${JSON.stringify(headers)}`);
    }
  }

  // The beta admin routes refuse alpha's admin, and a body identity cannot swap in another key.
  for (const path of ["/v1/admin/databases/beta/api-keys", "/v1/admin/databases/beta/audit", "/v1/admin/databases/beta/oauth-clients"]) {
    await expectError(await server.get(path, { "x-api-key": alphaKey }), 403, 15);
  }
  await expectError(await server.post("/v1/admin/databases/beta/api-keys", { role: "admin" }, { "x-api-key": alphaKey }), 403, 15);
  await expectError(await server.post("/v1/admin/databases/beta/drop", undefined, { "x-api-key": alphaKey }), 403, 15);
  await expectError(await server.post("/v1/table/payroll/drop", { identity: { api_key: betaKey } }, { "x-api-key": alphaKey, "x-svc-database": "beta" }), 403, 15);

  // Naming no database lands in alpha's own database; naming one that does not exist is refused
  // rather than silently redirected. Beta stays out of sight either way.
  assert.deepEqual((await expectJson<{ tables: string[] }>(await server.get("/v1/tables", { "x-api-key": alphaKey }))).tables, ["mine"]);
  await expectError(await server.get("/v1/tables", { "x-api-key": alphaKey, "x-svc-database": "nowhere" }), 404, 1);
  await expectError(await server.post("/v1/table/payroll/describe", {}, { "x-api-key": alphaKey }), 404, 4);
  const visible = await expectJson<{ databases: { name: string }[] }>(await server.get("/v1/admin/databases", { "x-api-key": alphaKey }));
  assert.deepEqual(visible.databases.map((db) => db.name), ["alpha"]);

  // beta is untouched, and its admin sees the refused attempts in its audit log.
  assert.deepEqual(await tableNames(server, betaKey, "beta"), ["payroll"]);
  const betaNamespaces = await expectJson<{ namespaces: string[] }>(await server.get("/v1/namespace/%24/list", { "x-api-key": betaKey, "x-svc-database": "beta" }));
  assert.deepEqual(betaNamespaces.namespaces, ["secret"]);
  const audit = await expectJson<{ records: { principal: string; outcome: string }[] }>(await server.get("/v1/admin/databases/beta/audit?limit=1000", { "x-api-key": betaKey }));
  const alphaKeyId = alphaKey.split("_")[1];
  assert.ok(audit.records.some((r) => r.principal === `api-key:${alphaKeyId}` && r.outcome === "denied"));
  assert.ok(audit.records.every((r) => r.principal !== `api-key:${alphaKeyId}` || r.outcome === "denied"));
});
