/**
 * How a request selects its database (service description: Authentication §3): header, prefix header, Host
 * label, or the caller's own database when it names none, else the only one or `default`.
 */
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import test from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { ensureDatabase } from "../../src/catalog/runtime/database-registry.js";
import { arrowStream } from "../helpers/arrow.js";
import { type TestServer, expectError, expectJson, startTestServer } from "../helpers/test-server.js";
import { addDatabase, apiKey, startAuthServer } from "./auth-helpers.js";

function listWithHost(server: TestServer, headers: Record<string, string>): Promise<string[]> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: url.hostname, port: url.port, path: "/v1/tables", headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        if (response.statusCode !== 200) return reject(new Error(`HTTP ${response.statusCode}: ${Buffer.concat(chunks).toString()}`));
        resolve((JSON.parse(Buffer.concat(chunks).toString()) as { tables: string[] }).tables);
      });
    });
    request.on("error", reject);
    request.end();
  });
}

test("Database prefix headers pick <base>.<prefix> behind one endpoint; a Host label is the base; the header names beat the Host", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  for (const name of ["acme", "acme.sales", "acme.ml"]) await addDatabase(server, name);
  const key = await apiKey(server, null, "write");
  for (const name of ["acme", "acme.sales", "acme.ml"]) {
    const upload = await fetch(`${server.url}/v1/tables/${name.replace(".", "_")}_t`, {
      method: "POST",
      headers: { "x-api-key": key, "x-svc-database": name, "content-type": "application/vnd.apache.arrow.stream" },
      body: arrowStream({ id: Int32Array.from([1]) }),
    });
    await expectJson(upload);
  }
  const base = { "x-api-key": key };
  assert.deepEqual(await listWithHost(server, { ...base, "x-svc-database": "acme", "x-svc-database-prefix": "sales" }), ["acme_sales_t"]);
  assert.deepEqual(await listWithHost(server, { ...base, "x-lancedb-database": "acme", "x-lancedb-database-prefix": "ml" }), ["acme_ml_t"]);
  assert.deepEqual(await listWithHost(server, { ...base, host: "acme.quiver.example", "x-svc-database-prefix": "ml" }), ["acme_ml_t"]);
  assert.deepEqual(await listWithHost(server, { ...base, host: "acme.quiver.example" }), ["acme_t"]);
  assert.deepEqual(await listWithHost(server, { ...base, host: "acme.quiver.example", "x-svc-database": "acme.sales" }), ["acme_sales_t"]);
  // A deployment-wide key naming no database addresses `default` when several exist.
  assert.deepEqual(await listWithHost(server, base), []);
});

test("With several databases, a namespace client sending no database header works against `default`; with no `default` it is refused", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await ensureDatabase(server.runtime.storages, server.runtime.store, server.dataLocation, "analytics");
  const db = await lancedb.connectNamespace("rest", { uri: server.url });
  const table = await db.createTable("events", [{ id: 1 }, { id: 2 }]);
  await table.add([{ id: 3 }]);
  assert.deepEqual(await db.tableNames(), ["events"]);
  assert.equal(await (await db.openTable("events")).countRows(), 3);
  const inDefault = await expectJson(await server.get("/v1/tables", { "x-svc-database": "default" }));
  assert.deepEqual(inDefault.tables, ["events"]);
  const inAnalytics = await expectJson(await server.get("/v1/tables", { "x-svc-database": "analytics" }));
  assert.deepEqual(inAnalytics.tables, []);

  // Without `default`, two databases and no name leave nothing to choose.
  await ensureDatabase(server.runtime.storages, server.runtime.store, server.dataLocation, "ml");
  await expectJson(await server.post("/v1/admin/databases/default/drop?cascade=true", {}));
  const refused = await expectError(await server.get("/v1/tables"), 400, 13);
  assert.match(refused.error, /several databases.*x-svc-database header/);
  await assert.rejects(db.tableNames(), /x-svc-database header/);
  const named = await expectJson(await server.get("/v1/tables", { "x-svc-database": "analytics" }));
  assert.deepEqual(named.tables, [], "naming a database still works");
});
