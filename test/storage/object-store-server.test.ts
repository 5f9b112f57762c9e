// A Quiver whose table data lives in Azure Blob Storage (Azurite): clients with no storage
// options of their own work through the credentials Quiver vends, scoped to their role; the
// account key never leaves the server; concurrent appends keep every row; a restart on the same
// root and data finds everything again.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { BlobServiceClient, StorageSharedKeyCredential } from "@azure/storage-blob";
import * as lancedb from "@lancedb/lancedb";
import { AzureStorage } from "../../src/storage/azure/azure-storage.js";
import { joinLocation } from "../../src/storage/locations.js";
import { apiKey } from "../auth/auth-helpers.js";
import { Field, Int32, Schema } from "apache-arrow-21";
import { arrowStream } from "../helpers/arrow.js";
import { schemaBase64, waitForJob } from "../helpers/views.js";
import { type Azurite, azuriteAccount, azuriteKey, startAzurite } from "../helpers/azurite.js";
import { holdsObjects, namesUnder, testStorages } from "../helpers/test-backend.js";
import { type TestServer, expectError, expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";

let azurite: Azurite;

before(async () => {
  azurite = await startAzurite();
});

after(() => azurite.stop());

/** A fresh container's data location, which the test also reads through its own `testStorages`. */
async function freshData(): Promise<string> {
  const data = `az://q${randomUUID().replaceAll("-", "").slice(0, 24)}/data`;
  await testStorages.configure(data, azurite.storageOptions);
  return data;
}

/** Every file below `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

async function describeTable(server: TestServer, id: string, key: string, body: unknown = {}) {
  return expectJson<{ location: string; storage_options: Record<string, string> }>(await server.post(`/v1/table/${id}/describe`, body, { "x-api-key": key }));
}

describe("a namespace client on an az:// data location", () => {
  let server: TestServer;
  let writer: string;
  let reader: string;

  before(async () => {
    server = await startTestServer({ data: await freshData(), storageOptions: azurite.storageOptions, auth: { mode: "required" } });
    writer = await apiKey(server, "default", "write");
    reader = await apiKey(server, "default", "read");
  });

  after(() => server.close());

  test("with no storage options of its own, creates, appends, indexes and reads a table; its objects are in the container, none on local disk", async () => {
    const db = await lancedb.connectNamespace("rest", { uri: server.url, headers: { "x-api-key": writer } });
    await db.createNamespace(["lake"]);
    const rows = Array.from({ length: 300 }, (_, i) => ({ id: i, vector: [i % 7, i % 11, i % 13, 1] }));
    const table = await db.createTable("points", rows.slice(0, 200), ["lake"]);
    await table.add(rows.slice(200));
    await table.createIndex("id");
    const reopened = await db.openTable("points", ["lake"]);
    assert.equal(await reopened.countRows(), 300);
    assert.deepEqual((await reopened.listIndices()).map((index) => index.columns), [["id"]]);
    const nearest = await reopened.search([3, 3, 3, 1]).limit(1).toArray();
    assert.equal(nearest[0].id, 3, "the nearest neighbour of [3, 3, 3, 1] is row 3");
    assert.equal((await reopened.query().where("id >= 295").toArray()).length, 5);

    const described = await describeTable(server, "lake$points", writer);
    assert.match(described.location, /^az:\/\//);
    assert.deepEqual(await namesUnder(described.location).then((names) => names.filter((name) => !name.startsWith("_transactions"))), ["_indices", "_versions", "data"]);
    assert.deepEqual(
      filesUnder(server.root).filter((file) => !file.startsWith("quiver.sqlite") && !file.startsWith("cache/")),
      [],
      "nothing but the metadata store and the object cache's copies on local disk",
    );
  });

  test("describe answers credentials scoped to the caller's role: a reader's SAS reads and is refused writes by the store, a writer's SAS writes; no answer holds the account key", async () => {
    const db = await lancedb.connectNamespace("rest", { uri: server.url, headers: { "x-api-key": writer } });
    await db.createTable("scoped", [{ id: 1 }, { id: 2 }]);
    const forReader = await describeTable(server, "scoped", reader);
    const forWriter = await describeTable(server, "scoped", writer);
    for (const answer of [forReader, forWriter]) {
      assert.ok(answer.storage_options.azure_storage_sas_token, "a SAS token is vended");
      assert.ok(Number(answer.storage_options.expires_at_millis) > Date.now() + 50 * 60_000, "it lasts about the credential lifetime");
      assert.equal(answer.storage_options.azure_storage_account_key, undefined);
      assert.ok(!JSON.stringify(answer).includes(azurite.storageOptions.azure_storage_account_key as string), "the account key appears nowhere");
    }
    assert.match(forReader.storage_options.azure_storage_sas_token as string, /sp=rl(&|$)/);

    const asReader = new AzureStorage(forReader.storage_options);
    const asWriter = new AzureStorage(forWriter.storage_options);
    const probe = joinLocation(forReader.location, "written-by-a-client");
    assert.ok((await asReader.list(joinLocation(forReader.location, "_versions"))).length > 0, "the reader lists the table's objects");
    await assert.rejects(asReader.put(probe, Buffer.from("x")), (error: { statusCode?: number }) => error.statusCode === 403);
    assert.equal(await asReader.head(probe), undefined);
    await asWriter.put(probe, Buffer.from("x"));
    assert.equal((await asWriter.head(probe))?.size, 1);
    await asWriter.delete(probe);

    // A reader's LanceDB client opens the table with its vended options and reads, but cannot append.
    const readerDb = await lancedb.connectNamespace("rest", { uri: server.url, headers: { "x-api-key": reader } });
    const readOnly = await readerDb.openTable("scoped");
    assert.equal(await readOnly.countRows(), 2);
    await assert.rejects(readOnly.add([{ id: 3 }]));
    assert.equal(await (await db.openTable("scoped")).countRows(), 2);
  });

  test("vend_credentials false withholds secrets; the answer still says how to reach the store", async () => {
    const answer = await describeTable(server, "scoped", writer, { vend_credentials: false });
    assert.equal(answer.storage_options.azure_storage_sas_token, undefined);
    assert.equal(answer.storage_options.azure_endpoint, azurite.endpoint);
    assert.equal(answer.storage_options.allow_http, "true");
  });

  test("8 concurrent appends through Quiver keep every row", async () => {
    const upload = (route: string, ids: number[]) =>
      fetch(`${server.url}${route}`, { method: "POST", headers: { "content-type": "application/vnd.apache.arrow.stream", "x-api-key": writer }, body: arrowStream({ id: Int32Array.from(ids) }) });
    await expectJson(await upload("/v1/table/busy/create", [0]));
    const appends = await Promise.all(Array.from({ length: 8 }, (_, writerIndex) => upload("/v1/table/busy/insert?mode=append", Array.from({ length: 10 }, (_, row) => 1 + writerIndex * 10 + row))));
    for (const answer of appends) await expectJson(answer);
    const count = await server.post("/v1/table/busy/count_rows", {}, { "x-api-key": writer });
    assert.equal(await count.text(), "81");
  });

  test("clone is refused as unsupported on an object store, leaving nothing behind", async () => {
    const source = await describeTable(server, "scoped", writer);
    const before = await namesUnder(joinLocation(server.dataLocation, "default", "tables"));
    await expectError(await server.post("/v1/table/copy/clone", { source_location: source.location }, { "x-api-key": writer }), 406, 0);
    assert.deepEqual(await namesUnder(joinLocation(server.dataLocation, "default", "tables")), before);
  });
});

test("a restart on the same root and data finds every table, version, tag and view", async () => {
  const root = tempRoot();
  const config = { root, data: await freshData(), storageOptions: azurite.storageOptions, keepRoot: true };
  const first = await startTestServer(config);
  await expectJson(await first.upload("/v1/table/kept/create", arrowStream({ id: Int32Array.from([1, 2, 3]) })));
  await expectJson(await first.upload("/v1/table/kept/insert?mode=append", arrowStream({ id: Int32Array.from([4]) })));
  await expectJson(await first.post("/v1/table/kept/tags/create", { tag: "before-delete", version: 2 }));
  await expectJson(await first.post("/v1/table/kept/delete", { predicate: "id = 1" }));
  const view = await expectJson(
    await first.post("/v1/materialized_view/kept_view/create", {
      kind: "query",
      source_query: JSON.stringify({ source: "kept", projections: ["id"], filter: "id > 2" }),
      output_schema: schemaBase64(new Schema([new Field("id", new Int32())])),
      with_no_data: false,
    }),
    201,
  );
  await waitForJob(first, view.job_id);
  await first.close();

  const second = await startTestServer(config);
  try {
    const versions = await expectJson<{ versions: { version: number }[] }>(await second.post("/v1/table/kept/version/list", {}));
    assert.deepEqual(versions.versions.map((entry) => entry.version), [1, 2, 3]);
    const tags = await expectJson<{ tags: Record<string, { version: number }> }>(await second.post("/v1/table/kept/tags/list", {}));
    assert.equal(tags.tags["before-delete"]?.version, 2);
    assert.equal(await (await second.post("/v1/table/kept/count_rows", {})).text(), "3");
    assert.equal(await (await second.post("/v1/table/kept/count_rows", { version: 2 })).text(), "4");
    const described = await expectJson<{ location: string }>(await second.post("/v1/table/kept/describe", {}));
    assert.ok(await holdsObjects(described.location));
    assert.equal(await (await second.post("/v1/table/kept_view/count_rows", {})).text(), "2", "the view holds ids 3 and 4");
  } finally {
    await second.close();
  }
});

test("a database with a location and storage options of its own: its tables live there; answers redact its secrets", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const own = await freshData();
  const created = await expectJson<{ location: string; storage_options: Record<string, string> }>(
    await server.post("/v1/admin/databases", { name: "lake", location: own, storage_options: azurite.storageOptions }),
    201,
  );
  assert.equal(created.location, own);
  assert.equal(created.storage_options.azure_storage_account_key, "<redacted>");
  assert.equal(created.storage_options.azure_storage_account_name, azurite.storageOptions.azure_storage_account_name);
  const listed = await (await server.get("/v1/admin/databases")).text();
  assert.ok(!listed.includes(azurite.storageOptions.azure_storage_account_key as string));

  const table = await expectJson<{ location: string }>(await server.upload("/v1/table/t/create", arrowStream({ id: Int32Array.from([1]) })));
  assert.ok(!table.location.startsWith("az://"), "the default database stays on local disk");
  const response = await fetch(`${server.url}/v1/table/t/create`, {
    method: "POST",
    headers: { "content-type": "application/vnd.apache.arrow.stream", "x-svc-database": "lake" },
    body: arrowStream({ id: Int32Array.from([1, 2]) }),
  });
  const inLake = await expectJson<{ location: string }>(response);
  assert.ok(inLake.location.startsWith(`${own}/`), inLake.location);
  assert.ok(await holdsObjects(joinLocation(inLake.location, "_versions")));
  assert.ok((await server.runtime.storages.for(inLake.location).list(own)).length > 0);

  await expectError(await server.post("/v1/admin/databases", { name: "nowhere", location: "az://unconfigured/data" }), 400, 13);
  await expectError(await server.post("/v1/admin/databases", { name: "ftp", location: "ftp://host/data", storage_options: { a: "b" } }), 400, 13);
});

test("a server started on a data location whose container is gone creates it again and serves", async (t) => {
  const config = { root: tempRoot(), data: await freshData(), storageOptions: azurite.storageOptions, keepRoot: true };
  const first = await startTestServer(config);
  await first.close();
  const container = config.data.slice("az://".length).split("/")[0] as string;
  const service = new BlobServiceClient(azurite.endpoint, new StorageSharedKeyCredential(azuriteAccount, azuriteKey));
  await service.getContainerClient(container).delete();
  const second = await startTestServer(config);
  t.after(() => second.close());
  const created = await expectJson<{ location: string }>(await second.upload("/v1/table/again/create", arrowStream({ id: Int32Array.from([1]) })));
  assert.ok(await holdsObjects(joinLocation(created.location, "_versions")));
});
