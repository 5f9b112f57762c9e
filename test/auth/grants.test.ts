// Grants on databases, namespaces and tables through LanceDB's authorization API, over a server
// with `--auth required` (its catalog on SQLite, or on PostgreSQL in that pass): keys holding
// nothing but grants see and do exactly what they were granted, with the LanceDB client and over
// HTTP; ownership follows creation; role bindings add and take away; bad input is refused.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { Field, Int32, Schema } from "apache-arrow-21";
import { arrowStream } from "../helpers/arrow.js";
import { type TestServer, expectError, expectJson } from "../helpers/test-server.js";
import { schemaBase64, waitForJob } from "../helpers/views.js";
import { apiKey, startAuthServer } from "./auth-helpers.js";

let server: TestServer;
/** Admin of database `default`: owns it, so it may grant on everything in it. */
let owner: string;
/** A deployment-wide admin: OWNERSHIP and OPERATE on `system`. */
let operator: string;

const send = (key: string, route: string, body?: unknown) =>
  fetch(server.url + route, {
    method: "POST",
    headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const upload = (key: string, route: string, ids: number[]) =>
  fetch(server.url + route, { method: "POST", headers: { "x-api-key": key, "content-type": "application/vnd.apache.arrow.stream" }, body: arrowStream({ id: Int32Array.from(ids) }) });
const get = (key: string, route: string) => fetch(server.url + route, { headers: { "x-api-key": key } });
const grant = (key: string, subject: string, object: string, privilege: string) => send(key, "/admin/authz/acl/add", { subject, object, privilege });
const revoke = (key: string, subject: string, object: string, privilege: string) => send(key, "/admin/authz/acl/delete", { subject, object, privilege });

/** The grant subject of an API key `qk_<id>_<secret>`: its principal. */
function principalOf(key: string): string {
  return `p:api-key:${key.slice(3, 19)}`;
}

/** A key of `default` that holds nothing until granted. */
const bareKey = () => apiKey(server, "default", "none");

before(async () => {
  server = await startAuthServer();
  owner = await apiKey(server, "default", "admin");
  operator = await apiKey(server, null, "admin");
  await expectJson(await send(owner, "/v1/namespace/team/create", {}));
  await expectJson(await send(owner, "/v1/namespace/hidden/create", {}));
  for (const table of ["orders", "secrets", "team$ledger"]) await expectJson(await upload(owner, `/v1/table/${table}/create`, [1, 2, 3]));
});
after(() => server.close());

test("USAGE on the database and SELECT on one table → the LanceDB client lists and reads that table only; others answer as missing; writes are 403 code 15", async () => {
  const analyst = await bareKey();
  const subject = principalOf(analyst);
  // Before any grant, the key reaches nothing: refused before its body is read.
  await expectError(await get(analyst, "/v1/namespace/%24/list"), 403, 15);
  await expectJson(await grant(owner, subject, "database:default", "USAGE"));
  await expectJson(await grant(owner, subject, "table:default:public$orders", "SELECT"));

  const db = await lancedb.connect("db://default", { apiKey: analyst, hostOverride: server.url });
  assert.deepEqual(await db.tableNames(), ["orders"]);
  const orders = await db.openTable("orders");
  assert.equal(await orders.countRows(), 3);
  assert.deepEqual((await orders.query().toArray()).map((row) => row.id).sort(), [1, 2, 3]);
  await assert.rejects(orders.add([{ id: 4 }]), /403|ermission/);
  assert.equal(await orders.countRows(), 3);

  // A table it holds nothing on answers exactly as a table that does not exist.
  const hidden = await expectError(await send(analyst, "/v1/table/secrets/describe", {}), 404, 4);
  const missing = await expectError(await send(analyst, "/v1/table/no_such_table/describe", {}), 404, 4);
  assert.equal(hidden.error.replace("secrets", "X"), missing.error.replace("no_such_table", "X"));
  await expectError(await send(analyst, "/v1/table/secrets/count_rows", {}), 404, 4);
  await assert.rejects(db.openTable("secrets"), /not found|does not exist|404/i);
  // USAGE on the database reaches its namespaces, but their tables need privileges of their own.
  assert.deepEqual((await expectJson<{ namespaces: string[] }>(await get(analyst, "/v1/namespace/%24/list"))).namespaces, ["hidden", "team"]);
  assert.deepEqual((await expectJson<{ tables: string[] }>(await get(analyst, "/v1/namespace/team/table/list"))).tables, []);
  await expectError(await send(analyst, "/v1/table/team$ledger/describe", {}), 404, 4);
  assert.deepEqual((await expectJson<{ tables: string[] }>(await fetch(`${server.url}/v1/table`, { headers: { "x-api-key": analyst } }))).tables, ["orders"]);

  // Revoked: gone at once.
  await expectJson(await revoke(owner, subject, "table:default:public$orders", "SELECT"));
  assert.deepEqual(await db.tableNames(), []);
  await expectError(await send(analyst, "/v1/table/orders/count_rows", {}), 404, 4);
});

test("INSERT without DELETE or SELECT → rows go in; deletes and reads of the table are 403 code 15", async () => {
  const ingest = await bareKey();
  const subject = principalOf(ingest);
  await expectJson(await grant(owner, subject, "database:default", "USAGE"));
  await expectJson(await grant(owner, subject, "namespace:default:team", "USAGE"));
  await expectJson(await grant(owner, subject, "table:default:team$ledger", "INSERT"));
  await expectJson(await upload(ingest, "/v1/table/team$ledger/insert", [10, 11]));
  await expectError(await send(ingest, "/v1/table/team$ledger/delete", { predicate: "id = 10" }), 403, 15);
  await expectError(await send(ingest, "/v1/table/team$ledger/count_rows", {}), 403, 15);
  await expectError(await send(ingest, "/v1/table/team$ledger/drop", {}), 403, 15);
  // Describing it (what clients do to open a table) works, without credentials to its files.
  await expectJson(await send(ingest, "/v1/table/team$ledger/describe", {}));
  assert.equal(await (await send(owner, "/v1/table/team$ledger/count_rows", {})).json(), 5);
});

test("CREATE_TABLE on a namespace → the key creates a table there, owns it and grants on it; it may not grant on what it does not own", async () => {
  const builder = await bareKey();
  const reader = await bareKey();
  for (const [key, privilege, object] of [
    [builder, "USAGE", "database:default"],
    [builder, "USAGE", "namespace:default:team"],
    [builder, "CREATE_TABLE", "namespace:default:team"],
    [builder, "SELECT", "table:default:team$ledger"],
    [reader, "USAGE", "database:default"],
    [reader, "USAGE", "namespace:default:team"],
  ] as const) {
    await expectJson(await grant(owner, principalOf(key), object, privilege));
  }
  await expectJson(await upload(builder, "/v1/table/team$made/create", [1]));
  // Elsewhere it creates nothing: the root namespace is not its to create in.
  await expectError(await upload(builder, "/v1/table/elsewhere/create", [1]), 403, 15);
  const owned = await expectJson<{ entries: { subject_id: string; privilege: string }[] }>(await send(builder, "/admin/authz/acl/list", { object: "table:default:team$made" }));
  assert.deepEqual(owned.entries, [{ subject_id: principalOf(builder), object: "table:default:team$made", privilege: "OWNERSHIP" }]);
  // As owner it restructures and grants.
  await expectJson(await send(builder, "/v1/table/team$made/create_index", { column: "id", index_type: "BTREE" }));
  await expectJson(await grant(builder, principalOf(reader), "table:default:team$made", "SELECT"));
  assert.equal(await (await send(reader, "/v1/table/team$made/count_rows", {})).json(), 1);
  // It sees the ledger but does not own it: 403 code 15. A table it cannot see: as missing.
  await expectError(await grant(builder, principalOf(reader), "table:default:team$ledger", "SELECT"), 403, 15);
  await expectError(await grant(builder, principalOf(reader), "table:default:public$secrets", "SELECT"), 404, 13);
  // A dropped table leaves no grants for a later one of its name.
  await expectJson(await send(builder, "/v1/table/team$made/drop", {}));
  await expectJson(await upload(owner, "/v1/table/team$made/create", [7, 8]));
  await expectError(await send(reader, "/v1/table/team$made/count_rows", {}), 404, 4);
});

test("role bindings: a grant to r:<role> reaches the principals bound to it, and unbinding takes it away; only OPERATE on system binds", async () => {
  const auditor = await bareKey();
  const subject = principalOf(auditor);
  await expectJson(await grant(owner, subject, "database:default", "USAGE"));
  await expectJson(await grant(owner, "r:auditors", "table:default:public$secrets", "SELECT"));
  await expectError(await send(auditor, "/v1/table/secrets/count_rows", {}), 404, 4);
  // A database's admin does not hold OPERATE on system.
  await expectError(await send(owner, "/admin/authz/role_binding/add", { subject, role: "auditors" }), 403, 15);
  await expectJson(await send(operator, "/admin/authz/role_binding/add", { subject, role: "auditors" }));
  await expectJson(await send(operator, "/admin/authz/role_binding/add", { subject, role: "auditors" }));
  assert.equal(await (await send(auditor, "/v1/table/secrets/count_rows", {})).json(), 3);
  const principal = await expectJson<{ principal_id: string; roles: string[]; groups: unknown[] }>(await send(operator, "/admin/authz/principal", { principal: subject }));
  assert.deepEqual(principal, { principal_id: subject.slice(2), principal_name: subject.slice(2), groups: [], roles: ["auditors"] });
  // The API key itself may stand for its principal; it is never repeated back.
  const byKey = await expectJson<{ principal_id: string }>(await send(operator, "/admin/authz/principal", { principal: `a:${auditor}` }));
  assert.equal(byKey.principal_id, subject.slice(2));
  const bindings = await expectJson<{ bindings: unknown[] }>(await send(operator, "/admin/authz/role_binding/list", { role: "auditors" }));
  assert.deepEqual(bindings.bindings, [{ subject_id: subject, role: "auditors" }]);

  await expectJson(await send(operator, "/admin/authz/role_binding/delete", { subject: `a:${auditor}`, role: "auditors" }));
  await expectJson(await send(operator, "/admin/authz/role_binding/delete", { subject, role: "auditors" }));
  await expectError(await send(auditor, "/v1/table/secrets/count_rows", {}), 404, 4);
});

test("grants are listed in pages of max_results with a continuation token, and every change is a change event and an audit record", async () => {
  const subjects = await Promise.all([1, 2, 3, 4, 5].map(async () => principalOf(await bareKey())));
  for (const subject of subjects) await expectJson(await grant(owner, subject, "table:default:public$orders", "SELECT"));
  const seen: string[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await expectJson<{ entries: { subject_id: string }[]; continuation_token?: string }>(
      await send(owner, "/admin/authz/acl/list", { object: "table:default:public$orders", max_results: 2, ...(token ? { continuation_token: token } : {}) }),
    );
    assert.ok(page.entries.length <= 2);
    seen.push(...page.entries.map((entry) => entry.subject_id));
    token = page.continuation_token;
    pages += 1;
  } while (token);
  assert.equal(new Set(seen).size, seen.length, "no entry twice");
  assert.equal(pages, Math.ceil(seen.length / 2));
  assert.deepEqual(seen.filter((subject) => subjects.includes(subject)).sort(), [...subjects].sort());

  await expectJson(await revoke(owner, subjects[0]!, "table:default:public$orders", "SELECT"));
  const events = await expectJson<{ events: { type: string; data: { subject_id?: string; object?: string } }[] }>(
    await fetch(`${server.url}/v1/events?limit=1000`, { headers: { "x-api-key": owner } }),
  );
  const about = events.events.filter((event) => event.data.subject_id === subjects[0]).map((event) => event.type);
  assert.deepEqual(about, ["io.quiver.grant.added", "io.quiver.grant.deleted"]);
  // A reader of the database sees no grant events.
  const reader = await apiKey(server, "default", "read");
  const readersEvents = await expectJson<{ events: { type: string }[] }>(await fetch(`${server.url}/v1/events?limit=1000`, { headers: { "x-api-key": reader } }));
  assert.ok(readersEvents.events.every((event) => !event.type.startsWith("io.quiver.grant.")));
  const audit = await expectJson<{ records: { operation: string }[] }>(await get(operator, "/v1/admin/audit?limit=200"));
  const operations = new Set(audit.records.map((record) => record.operation));
  assert.ok(operations.has("AddAcl") && operations.has("DeleteAcl"), [...operations].join(", "));
});

test("bad grants → 400 code 13 with the reason, missing objects and grants → 404, duplicates → 409; an API key is never repeated", async () => {
  const someone = principalOf(await bareKey());
  const refused = async (body: Record<string, string>, status: number, reason: RegExp) => {
    const answer = await expectError(await send(owner, "/admin/authz/acl/add", body), status, 13);
    assert.match(answer.error, reason);
    return answer;
  };
  await refused({ subject: someone, object: "table:default:orders", privilege: "SELECT" }, 400, /names no namespace/);
  await refused({ subject: someone, object: "tabel:default:public$orders", privilege: "SELECT" }, 400, /not known/);
  await refused({ subject: someone, object: "table:default:public$orders", privilege: "select" }, 400, /not known/);
  await refused({ subject: someone, object: "table:default:public$orders", privilege: "CREATE_TABLE" }, 400, /cannot be granted on a table/);
  await refused({ subject: someone, object: "table:default:public$nothing", privilege: "SELECT" }, 404, /does not exist/);
  await refused({ subject: "p:api-key:0000000000000000", object: "table:default:public$orders", privilege: "SELECT" }, 404, /does not exist/);
  await refused({ subject: "r:read", object: "table:default:public$orders", privilege: "SELECT" }, 400, /credential role/);
  const secret = "qk_0123456789abcdef_this-is-not-a-live-key-but-looks-secret-aaaa";
  for (const subject of [`a:${secret}`, `x:${secret}`]) {
    const response = await send(owner, "/admin/authz/acl/add", { subject, object: "table:default:public$orders", privilege: "SELECT" });
    const text = await response.text();
    assert.ok(response.status === 400 || response.status === 404, text);
    assert.ok(!text.includes("this-is-not"), text);
  }
  await expectJson(await grant(owner, someone, "table:default:public$orders", "UPDATE"));
  await refused({ subject: someone, object: "table:default:public$orders", privilege: "UPDATE" }, 409, /already holds/);
  await expectError(await revoke(owner, someone, "table:default:public$orders", "DELETE"), 404, 13);
  await expectError(await revoke(owner, someone, "database:default", "OWNERSHIP"), 400, 13);
  await expectError(await send(owner, "/admin/authz/acl/list", { max_results: 101 }), 400, 13);
  await expectError(await send(owner, "/admin/authz/acl/list", { object: "database:default", continuation_token: "not-ours" }), 400, 13);
  // Listing everything needs USAGE on system: a database's admin lists its own objects only.
  await expectError(await send(owner, "/admin/authz/acl/list", {}), 403, 15);
  await expectError(await send(operator, "/admin/authz/principal", { principal: "P:alice" }), 501, 0);
});

test("every existing role keeps what it could do: a read key lists everything, a write key drops a table it did not create", async () => {
  const reader = await apiKey(server, "default", "read");
  const writer = await apiKey(server, "default", "write");
  const tables = (await expectJson<{ tables: string[] }>(await fetch(`${server.url}/v1/table`, { headers: { "x-api-key": reader } }))).tables;
  for (const table of ["orders", "secrets", "team$ledger"]) assert.ok(tables.includes(table), tables.join(", "));
  await expectJson(await upload(owner, "/v1/table/scratch/create", [1]));
  await expectJson(await send(writer, "/v1/table/scratch/drop", {}));
  await expectError(await grant(writer, principalOf(reader), "table:default:public$orders", "SELECT"), 403, 15);
});

test("a dropped database leaves no grants: one created again under its name starts with none", async () => {
  const someone = principalOf(await bareKey());
  await expectJson(await send(operator, "/v1/admin/databases", { name: "scratchdb" }), 201);
  await expectJson(await grant(operator, someone, "database:scratchdb", "USAGE"));
  await expectJson(await fetch(`${server.url}/v1/namespace/ns/create`, { method: "POST", headers: { "x-api-key": operator, "x-svc-database": "scratchdb", "content-type": "application/json" }, body: "{}" }));
  await expectJson(await grant(operator, someone, "namespace:scratchdb:ns", "CREATE_TABLE"));
  await expectJson(await send(operator, "/v1/admin/databases/scratchdb/drop?cascade=true"));
  await expectJson(await send(operator, "/v1/admin/databases", { name: "scratchdb" }), 201);
  const listed = await expectJson<{ entries: unknown[] }>(await send(operator, "/admin/authz/acl/list", { subject: someone }));
  assert.deepEqual(listed.entries, []);
});

test("a materialized view refreshes with its owner's privileges: once its owner may not read the source, its refresh fails saying so", async () => {
  const builder = await bareKey();
  const subject = principalOf(builder);
  for (const [object, privilege] of [
    ["database:default", "USAGE"],
    ["namespace:default:public", "CREATE_MATERIALIZED_VIEW"],
    ["table:default:public$orders", "SELECT"],
  ] as const) {
    await expectJson(await grant(owner, subject, object, privilege));
  }
  const operatorJobs = { get: (route: string) => get(operator, route) };
  const created = await expectJson<{ job_id: string }>(
    await send(builder, "/v1/materialized_view/order_ids/create", {
      kind: "query",
      source_query: JSON.stringify({ source: "orders", projections: ["id"] }),
      output_schema: schemaBase64(new Schema([new Field("id", new Int32())])),
      with_no_data: false,
    }),
    201,
  );
  assert.equal((await waitForJob(operatorJobs, created.job_id)).status, "succeeded");
  assert.equal(await (await send(builder, "/v1/table/order_ids/count_rows", {})).json(), 3);

  await expectJson(await revoke(owner, subject, "table:default:public$orders", "SELECT"));
  const refreshed = await expectJson<{ job_id: string }>(await send(builder, "/v1/materialized_view/order_ids/refresh", {}), 202);
  const failed = await waitForJob(operatorJobs, refreshed.job_id);
  assert.equal(failed.status, "failed");
  assert.match(JSON.stringify(failed), /owner of view 'order_ids' may no longer read its source table 'orders'/);
});
