/**
 * How a request selects its database (service description: Authentication §3): header, prefix header, Host
 * label, or the caller's own database when it names none.
 */
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import test from "node:test";
import { arrowStream } from "../helpers/arrow.js";
import { type TestServer, expectError, expectJson } from "../helpers/test-server.js";
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
  // A deployment-wide key confined to no database must name one when several exist.
  await expectError(await server.get("/v1/tables", base), 400, 13);
});
