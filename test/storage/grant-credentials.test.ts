// Credentials vended by DescribeTable follow the caller's grants on the table (table data on
// Azurite): SELECT alone gets a SAS that reads and cannot write, INSERT beside it one that writes,
// a table it may see but not select from gets none; a read key gets read credentials as before.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { AzureStorage } from "../../src/storage/azure/azure-storage.js";
import { joinLocation } from "../../src/storage/locations.js";
import { apiKey } from "../auth/auth-helpers.js";
import { arrowStream } from "../helpers/arrow.js";
import { type Azurite, statusOfFailure } from "../helpers/azurite.js";
import { sharedAzurite } from "../helpers/test-backend.js";
import { type TestServer, expectJson, startTestServer } from "../helpers/test-server.js";

type TableAnswer = { location: string; storage_options?: Record<string, string> };

let azurite: Azurite;
let server: TestServer;
let owner: string;
let location: string;

const post = (key: string, route: string, body: object) =>
  fetch(server.url + route, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });

/** A key of `default` holding nothing but `privileges` on `orders` (and USAGE on the database). */
async function keyHolding(...privileges: string[]): Promise<string> {
  const key = await apiKey(server, "default", "none");
  const subject = `p:api-key:${key.slice(3, 19)}`;
  const grants: [string, string][] = [["database:default", "USAGE"], ...privileges.map((privilege): [string, string] => ["table:default:public$orders", privilege])];
  for (const [object, privilege] of grants) await expectJson(await post(owner, "/admin/authz/acl/add", { subject, object, privilege }));
  return key;
}

/** The storage a client builds from what DescribeTable vends to `key`, or undefined when nothing is vended. */
async function vendedStorage(key: string): Promise<AzureStorage | undefined> {
  const answer = await expectJson<TableAnswer>(await post(key, "/v1/table/orders/describe", {}));
  const token = answer.storage_options?.azure_storage_sas_token;
  if (!token) return undefined;
  return new AzureStorage({ azure_storage_account_name: azurite.storageOptions.azure_storage_account_name as string, azure_storage_sas_token: token, azure_endpoint: azurite.endpoint, allow_http: "true" });
}

before(async () => {
  azurite = await sharedAzurite();
  server = await startTestServer({ data: `az://q${randomUUID().replaceAll("-", "").slice(0, 24)}/data`, storageOptions: azurite.storageOptions, auth: { mode: "required" } });
  owner = await apiKey(server, "default", "admin");
  const created = await fetch(`${server.url}/v1/table/orders/create`, {
    method: "POST",
    headers: { "x-api-key": owner, "content-type": "application/vnd.apache.arrow.stream" },
    body: arrowStream({ id: Int32Array.from([1, 2, 3]) }),
  });
  location = (await expectJson<TableAnswer>(created)).location;
});
after(() => server?.close());

test("DescribeTable by grant: SELECT → a SAS that reads the table and cannot write it; SELECT and INSERT → one that writes; INSERT alone → none", async () => {
  const probe = joinLocation(location, "_probe", `${randomUUID()}.bin`);
  const manifests = joinLocation(location, "_versions");

  const reader = await vendedStorage(await keyHolding("SELECT"));
  assert.ok(reader, "SELECT gets credentials");
  assert.ok((await reader.list(manifests)).length > 0, "they read the table's versions");
  assert.equal(await statusOfFailure(reader.put(probe, Buffer.from("x"))), 403);

  const writer = await vendedStorage(await keyHolding("SELECT", "INSERT"));
  assert.ok(writer, "SELECT and INSERT get credentials");
  await writer.put(probe, Buffer.from("x"));
  await writer.delete(probe);

  assert.equal(await vendedStorage(await keyHolding("INSERT")), undefined, "without SELECT nothing is vended");

  const readKey = await vendedStorage(await apiKey(server, "default", "read"));
  assert.ok(readKey, "a read key's credentials, as before grants");
  assert.equal(await statusOfFailure(readKey.put(probe, Buffer.from("x"))), 403);
});
