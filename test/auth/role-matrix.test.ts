/**
 * The role matrix of docs/auth.md, over every operation the server registers (taken from its
 * own OpenAPI document, so operations added later are covered too, and must bring a fixture):
 * each credential's call, made with a request that is valid against real state, either
 * succeeds with the operation's 2xx or is refused with 403 code 15; no credential at all is
 * 401 code 16.
 */
import assert from "node:assert/strict";
import test from "node:test";
import { type Role, roleAllows } from "../../src/auth/roles.js";
import { expectJson } from "../helpers/test-server.js";
import { apiKey, startAuthServer } from "./auth-helpers.js";
import { type Call, FixtureEnv, type Operation, fixtures, unsupportedOperations } from "./role-fixtures.js";

/** Admin operations over the whole deployment: only a deployment-wide admin may call them. */
const deploymentOperations = new Set([
  "CreateDatabase",
  "DropDatabase",
  "UpdateDatabaseSettings",
  "ListDeploymentApiKeys",
  "CreateDeploymentApiKey",
  "RevokeDeploymentApiKey",
  "ListDeploymentAuditRecords",
, "ListRoleBindings", "AddRoleBinding", "DeleteRoleBinding", "GetPrincipal", "GetGroup"]);
/** Operations that authenticate their caller themselves (GetCapabilities answers without credentials too: test/server/capabilities.test.ts). */
const publicOperations = new Set(["IssueToken", "GetCapabilities"]);

type Document = { paths: Record<string, Record<string, Record<string, unknown>>> };

/**
 * The operation's name as the fixtures know it: the second method of a GET-or-POST operation is
 * documented as the name plus the method (`CountTableRowsGet`), and runs the same fixture.
 */
function specNameOf(operationId: string, method: string, methodsOnPath: number): string {
  const suffix = method.charAt(0).toUpperCase() + method.slice(1).toLowerCase();
  return methodsOnPath > 1 && operationId.endsWith(suffix) ? operationId.slice(0, -suffix.length) : operationId;
}

function operationsOf(document: Document): Operation[] {
  const list: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = (op.requestBody as { content?: Record<string, unknown> } | undefined)?.content ?? {};
      const successes = Object.keys(op.responses as Record<string, unknown>).filter((status) => /^2\d\d$/.test(status));
      assert.equal(successes.length, 1, `${op.operationId} documents one success status`);
      list.push({
        operationId: specNameOf(op.operationId as string, method, Object.keys(methods).length),
        method: method.toUpperCase(),
        path,
        access: op["x-quiver-access"] as Role,
        arrow: "application/vnd.apache.arrow.stream" in content,
        success: Number(successes[0]),
      });
    }
  }
  return list;
}

function urlOf(op: Operation, call: Call): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = call.params?.[name];
    if (value === undefined) throw new Error(`${op.operationId}: the fixture gives no value for {${name}}`);
    return encodeURIComponent(value);
  });
  return call.query ? `${path}?${call.query}` : path;
}

interface Answer {
  status: number;
  code?: number;
  text: string;
}

async function send(url: string, op: Operation, call: Call, headers: Record<string, string>): Promise<Answer> {
  const init: RequestInit = { method: op.method, headers: { ...headers } };
  if (call.body instanceof Uint8Array) {
    init.body = call.body;
    (init.headers as Record<string, string>)["content-type"] = "application/vnd.apache.arrow.stream";
  } else if (call.body !== undefined) {
    init.body = JSON.stringify(call.body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  const response = await fetch(url + urlOf(op, call), init);
  const text = await response.text();
  let code: number | undefined;
  try {
    code = (JSON.parse(text) as { code?: number }).code;
  } catch {
    code = undefined;
  }
  return { status: response.status, code, text };
}

test("Role matrix over every registered operation with valid requests: read, write, admin and deployment admin → the operation's 2xx or 403 code 15; none → 401 code 16", async (t) => {
  const started = Date.now();
  // No worker: jobs the calls queue stay queued, so they cost nothing and stay cancellable.
  const server = await startAuthServer({ jobs: { runWorker: false }, dropRetentionMs: 60 * 60 * 1000 });
  const env = new FixtureEnv(server, await apiKey(server, "default", "admin"));
  t.after(async () => {
    env.close();
    await server.close();
  });
  const document = await expectJson(await server.get("/openapi.json"));
  const operations = operationsOf(document).filter((op) => !publicOperations.has(op.operationId));
  const groups = new Set(operations.map((op) => op.path.split("/")[2]));
  for (const group of ["namespace", "table", "tables", "admin", "jobs", "materialized_view", "transaction"]) assert.ok(groups.has(group), `route group ${group} is covered`);
  const documented = new Set(operations.map((op) => op.operationId));
  const missing = [...documented].filter((id) => !(id in fixtures)).sort();
  assert.deepEqual(missing, [], `operations without a fixture in test/auth/role-fixtures.ts: ${missing.join(", ")}`);
  const stale = [...Object.keys(fixtures), ...unsupportedOperations.keys()].filter((id) => !documented.has(id));
  assert.deepEqual(stale, [], "fixtures and exceptions name only documented operations");

  const credentials: { name: string; key: string; role: Role; deployment: boolean }[] = [];
  for (const role of ["read", "write", "admin"] as const) credentials.push({ name: `${role} key`, key: await apiKey(server, "default", role), role, deployment: false });
  credentials.push({ name: "deployment admin key", key: await apiKey(server, null, "admin"), role: "admin", deployment: true });
  const allows = (op: Operation, credential: (typeof credentials)[number]) =>
    deploymentOperations.has(op.operationId) ? credential.deployment : roleAllows(credential.role, op.access);

  const failures: string[] = [];
  let refusals = 0;
  for (const op of operations) {
    const label = `${op.operationId} (${op.method} ${op.path})`;
    const expected = unsupportedOperations.get(op.operationId);
    // Refused calls and the anonymous one change nothing, so they share the request the
    // first allowed call then uses; every later allowed call gets a freshly prepared one.
    const ordered = [...credentials].sort((a, b) => Number(allows(op, a)) - Number(allows(op, b)));
    let call = await fixtures[op.operationId]!(env, op);
    if (op.arrow !== (call.body instanceof Uint8Array)) failures.push(`${label}: the fixture's body is not of the documented content type`);
    const anonymous = await send(server.url, op, call, {});
    if (anonymous.status !== 401 || anonymous.code !== 16) failures.push(`${label} without credentials → ${anonymous.status}/${anonymous.code}`);
    let used = false;
    for (const credential of ordered) {
      const allowed = allows(op, credential);
      if (allowed && used) call = await fixtures[op.operationId]!(env, op);
      const result = await send(server.url, op, call, { "x-api-key": credential.key });
      const refused = result.status === 403 && result.code === 15;
      if (refused) refusals += 1;
      const got = `${result.status}/${result.code ?? "-"} ${result.text.slice(0, 200)}`;
      if (!allowed) {
        if (!refused) failures.push(`${label} with ${credential.name}: expected 403/15, got ${got}`);
        continue;
      }
      used = true;
      if (expected) {
        if (result.status !== expected.status || result.code !== expected.code) failures.push(`${label} with ${credential.name}: expected ${expected.status}/${expected.code} (${expected.reason}), got ${got}`);
      } else if (result.status !== op.success) {
        failures.push(`${label} with ${credential.name}: expected ${op.success}, got ${got}`);
      }
    }
  }
  assert.deepEqual(failures, []);
  // read may call no write operation; write no admin one; only the deployment key the deployment ones.
  const expectedRefusals = operations.reduce((n, op) => {
    if (deploymentOperations.has(op.operationId)) return n + 3;
    return n + (op.access === "write" ? 1 : op.access === "admin" ? 2 : 0);
  }, 0);
  assert.equal(refusals, expectedRefusals);
  t.diagnostic(`${operations.length} routes in ${Date.now() - started} ms`);
});
