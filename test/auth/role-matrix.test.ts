/**
 * The role matrix of docs/auth.md, over every operation the server registers (taken from its
 * own OpenAPI document, so operations added later are covered too): each credential either
 * gets past authorization or is refused with 403 code 15; no credential at all is 401 code 16.
 */
import assert from "node:assert/strict";
import test from "node:test";
import { type Role, roleAllows } from "../../src/auth/roles.js";
import { expectJson } from "../helpers/test-server.js";
import { apiKey, startAuthServer } from "./auth-helpers.js";

/** Admin operations over the whole deployment: only a deployment-wide admin may call them. */
const deploymentOperations = new Set([
  "CreateDatabase",
  "DropDatabase",
  "ListDeploymentApiKeys",
  "CreateDeploymentApiKey",
  "RevokeDeploymentApiKey",
  "ListDeploymentAuditRecords",
]);
/** Operations that authenticate their caller themselves. */
const publicOperations = new Set(["IssueToken"]);

interface Operation {
  operationId: string;
  method: string;
  path: string;
  access: Role;
  arrow: boolean;
}

function operationsOf(document: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const list: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = (op.requestBody as { content?: Record<string, unknown> } | undefined)?.content ?? {};
      list.push({
        operationId: op.operationId as string,
        method: method.toUpperCase(),
        path,
        access: op["x-quiver-access"] as Role,
        arrow: "application/vnd.apache.arrow.stream" in content,
      });
    }
  }
  return list;
}

function concretePath(op: Operation): string {
  const database = deploymentOperations.has(op.operationId) ? "scratch" : "default";
  return op.path
    .replace("{id}", "matrix$t")
    .replace("{table_name}", "matrix_t")
    .replace("{database}", database)
    .replace("{key_id}", "0000000000000000")
    .replace("{client_id}", "qc_0000000000000000");
}

async function call(url: string, op: Operation, headers: Record<string, string>): Promise<{ status: number; code?: number }> {
  const init: RequestInit = { method: op.method, headers: { ...headers } };
  if (op.method === "POST") {
    if (op.arrow) {
      init.body = new Uint8Array(0);
      (init.headers as Record<string, string>)["content-type"] = "application/vnd.apache.arrow.stream";
    } else {
      init.body = "{}";
      (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
  }
  const response = await fetch(url + concretePath(op), init);
  const text = await response.text();
  let code: number | undefined;
  try {
    code = (JSON.parse(text) as { code?: number }).code;
  } catch {
    code = undefined;
  }
  return { status: response.status, code };
}

test("Role matrix over every registered operation: read, write, admin and deployment admin → allowed or 403 code 15; none → 401 code 16", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const document = await expectJson(await server.get("/openapi.json"));
  const operations = operationsOf(document).filter((op) => !publicOperations.has(op.operationId));
  const groups = new Set(operations.map((op) => op.path.split("/")[2]));
  for (const group of ["namespace", "table", "tables", "admin"]) assert.ok(groups.has(group), `route group ${group} is covered`);

  const credentials: { name: string; key: string; role: Role; deployment: boolean }[] = [];
  for (const role of ["read", "write", "admin"] as const) credentials.push({ name: `${role} key`, key: await apiKey(server, "default", role), role, deployment: false });
  credentials.push({ name: "deployment admin key", key: await apiKey(server, null, "admin"), role: "admin", deployment: true });

  const failures: string[] = [];
  let refusals = 0;
  for (const op of operations) {
    const anonymous = await call(server.url, op, {});
    if (anonymous.status !== 401 || anonymous.code !== 16) failures.push(`${op.operationId} without credentials → ${anonymous.status}/${anonymous.code}`);
    for (const credential of credentials) {
      const allowed = deploymentOperations.has(op.operationId) ? credential.deployment : roleAllows(credential.role, op.access);
      const result = await call(server.url, op, { "x-api-key": credential.key });
      const refused = result.status === 403 && result.code === 15;
      if (refused) refusals += 1;
      if (allowed && (result.status === 401 || result.status === 403)) failures.push(`${op.operationId} with ${credential.name}: refused (${result.status})`);
      if (!allowed && !refused) failures.push(`${op.operationId} with ${credential.name}: expected 403/15, got ${result.status}/${result.code}`);
    }
  }
  assert.deepEqual(failures, []);
  // read may call no write operation; write no admin one; only the deployment key the deployment ones.
  const expectedRefusals = operations.reduce((n, op) => {
    if (deploymentOperations.has(op.operationId)) return n + 3;
    return n + (op.access === "write" ? 1 : op.access === "admin" ? 2 : 0);
  }, 0);
  assert.equal(refusals, expectedRefusals);
});
