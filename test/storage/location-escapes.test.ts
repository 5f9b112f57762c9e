// Tenants and their storage roots: a location a client or an operator names is refused (400,
// code 13) when Lance could read it as a place outside the database's storage root (encoded dots,
// slashes, backslashes and percent signs, control characters, '?' or '#'), on every route that
// takes one and on every scheme; a key of database a never reaches database b's rows; and
// credentials that would reach a container other databases share are withheld unless the
// operator accepts that reach.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { ensureDatabase } from "../../src/catalog/runtime/database-registry.js";
import { AzureStorage } from "../../src/storage/azure/azure-storage.js";
import { joinLocation, objectPathOf } from "../../src/storage/locations.js";
import { apiKey } from "../auth/auth-helpers.js";
import { arrowStream } from "../helpers/arrow.js";
import { type Azurite, startAzurite } from "../helpers/azurite.js";
import { type S3rver, startS3rver } from "../helpers/s3rver.js";
import { type TestServer, expectError, expectJson, startTestServer } from "../helpers/test-server.js";

/**
 * Spellings of `<root>/../<rest>` that Lance, a URL parser or an object store reads as leaving
 * `root`, while a plain path comparison sees them inside it.
 */
function escapesFrom(root: string, rest: string): string[] {
  return [
    `${root}/%2e%2e/${rest}`,
    `${root}/%2E%2E/${rest}`,
    `${root}/%252e%252e/${rest}`,
    `${root}/%25252e%25252e/${rest}`,
    `${root}/.%2e/${rest}`,
    `${root}/%2e./${rest}`,
    `${root}/.%2E/${rest}`,
    `${root}/x%2f%2e%2e%2f%2e%2e/${rest}`,
    `${root}/%2e%2e%2f${rest}`,
    `${root}/..%2F${rest}`,
    `${root}/..%5c${rest}`,
    `${root}\\..\\${rest}`,
    `${root}/tables\\..\\..\\${rest}`,
    `${root}/.\t./${rest}`,
    `${root}/.\n./${rest}`,
    `${root}/..%00/${rest}`,
    `${root}/..?/${rest}`,
    `${root}/x.lance#/../../${rest}`,
    `%2e%2e/${rest}`,
    `%2e%2e/%2e%2e/elsewhere/planted.lance`,
    `.%2e/${rest}`,
  ];
}

/** A 400 code 13 whose message says why the location's spelling was refused. */
async function expectUnsafe(response: Response, what: string): Promise<void> {
  const body = await expectError(response, 400, 13).catch((error: Error) => {
    throw new Error(`${what}: ${error.message}`);
  });
  assert.match(body.error, /holds/, `${what}: ${body.error}`);
}

function upload(server: TestServer, route: string, key: string, ids: number[]): Promise<Response> {
  return fetch(`${server.url}${route}`, {
    method: "POST",
    headers: { "content-type": "application/vnd.apache.arrow.stream", ...(key ? { "x-api-key": key } : {}) },
    body: arrowStream({ id: Int32Array.from(ids) }),
  });
}

async function describeAs(server: TestServer, id: string, key: string) {
  return expectJson<{ location: string; storage_options: Record<string, string> }>(await server.post(`/v1/table/${id}/describe`, {}, { "x-api-key": key }));
}

describe("two databases in one Azurite container", () => {
  let azurite: Azurite;
  let server: TestServer;
  let data: string;
  let aWrite: string;
  let aRead: string;
  let bWrite: string;
  let payroll: string;

  before(async () => {
    azurite = await startAzurite();
    data = `az://lake${randomUUID().replaceAll("-", "").slice(0, 16)}/quiver`;
    server = await startTestServer({ data, storageOptions: azurite.storageOptions, auth: { mode: "required" } });
    await ensureDatabase(server.runtime.storages, server.runtime.store, server.dataLocation, "a");
    await ensureDatabase(server.runtime.storages, server.runtime.store, server.dataLocation, "b");
    aWrite = await apiKey(server, "a", "write");
    aRead = await apiKey(server, "a", "read");
    bWrite = await apiKey(server, "b", "write");
    await expectJson(await upload(server, "/v1/table/payroll/create", bWrite, [1, 2, 3]));
    payroll = (await describeAs(server, "payroll", bWrite)).location;
    await expectJson(await upload(server, "/v1/table/own/create", aWrite, [7]));
  });

  after(async () => {
    await server?.close();
    await azurite?.stop();
  });

  test("DeclareTable (and its create-empty alias) and RegisterTable with a's write key at every encoded spelling of '..' (az://, relative) → 400, code 13; nothing is declared", async () => {
    const aRoot = joinLocation(data, "a");
    const target = objectPathOf(payroll).split("/").slice(1).join("/");
    for (const location of escapesFrom(aRoot, target)) {
      await expectUnsafe(await server.post("/v1/table/stolen/declare", { location }, { "x-api-key": aWrite }), `declare ${JSON.stringify(location)}`);
      await expectUnsafe(await server.post("/v1/table/stolen/register", { location }, { "x-api-key": aWrite }), `register ${JSON.stringify(location)}`);
      await expectUnsafe(await server.post("/v1/table/stolen/create-empty", { location }, { "x-api-key": aWrite }), `create-empty ${JSON.stringify(location)}`);
    }
    const listed = await expectJson<{ tables: string[] }>(await server.get("/v1/tables", { "x-api-key": aWrite }));
    assert.deepEqual(listed.tables, ["own"]);
  });

  test("CreateTableVersion with a manifest_path that climbs out of a's table through encoded dots → 400, code 13", async () => {
    const own = (await describeAs(server, "own", aWrite)).location;
    const ownPath = objectPathOf(own);
    const bManifest = `${objectPathOf(payroll)}/_versions/1.manifest`;
    const climbs = ["%2e%2e", "%2E%2E", "%252e%252e", ".%2e", "%2e."].map((dots) => `${ownPath}/_versions/${Array(5).fill(dots).join("/")}/${bManifest}`);
    climbs.push(`${ownPath}/_versions/..%2f..%2f..%2f..%2f..%2f${bManifest.replaceAll("/", "%2f")}`, `${ownPath}\\_versions\\..\\..\\..\\..\\..\\${bManifest}`);
    for (const manifest_path of climbs) {
      await expectUnsafe(await server.post("/v1/table/own/version/create", { version: 2, manifest_path }, { "x-api-key": aWrite }), `manifest_path ${manifest_path}`);
      await expectUnsafe(
        await server.post("/v1/table/version/batch-create", { entries: [{ id: ["own"], version: 2, manifest_path }] }, { "x-api-key": aWrite }),
        `batch-create manifest_path ${manifest_path}`,
      );
    }
  });

  test("BatchCommit declaring a table at an encoded spelling of '..' → 400, code 13; nothing is declared", async () => {
    const target = objectPathOf(payroll).split("/").slice(1).join("/");
    for (const location of escapesFrom(joinLocation(data, "a"), target)) {
      await expectUnsafe(
        await server.post("/v1/table/batch-commit", { operations: [{ declare_table: { id: ["stolen"], location } }] }, { "x-api-key": aWrite }),
        `batch declare ${JSON.stringify(location)}`,
      );
    }
    assert.deepEqual((await expectJson<{ tables: string[] }>(await server.get("/v1/tables", { "x-api-key": aWrite }))).tables, ["own"]);
  });

  test("Azurite has no hierarchical namespace, so a's table is described with no SAS token (its container holds b): a's client cannot list or read b's objects", async () => {
    for (const key of [aRead, aWrite]) {
      const answer = await describeAs(server, "own", key);
      assert.equal(answer.storage_options.azure_storage_sas_token, undefined, "no container-wide token is vended");
      assert.equal(answer.storage_options.azure_storage_account_key, undefined);
      await assert.rejects(async () => new AzureStorage(answer.storage_options).list(joinLocation(payroll, "_versions")));
    }
    // Its client has nothing to open storage with, so b's rows stay out of reach; the server's own routes still answer.
    const db = await lancedb.connectNamespace("rest", { uri: server.url, headers: { "x-api-key": aRead } });
    await assert.rejects(async () => (await db.openTable("own")).countRows());
    assert.equal(await (await server.post("/v1/table/own/count_rows", {}, { "x-api-key": aRead })).text(), "1");
  });

  test("CreateDatabase in the shared container → 201 with a warning naming the databases that share it; in a container of its own → 201 without one", async () => {
    const admin = await apiKey(server, null, "admin");
    const shared = await expectJson<{ name: string; warnings?: string[] }>(await server.post("/v1/admin/databases", { name: "c" }, { "x-api-key": admin }), 201);
    assert.equal(shared.warnings?.length, 1);
    assert.match(shared.warnings?.[0] as string, /shares az:\/\/lake\w+ with 'a', 'b'.*no credentials.*own container.*--vend-shared-containers/);
    const alone = `az://own${randomUUID().replaceAll("-", "").slice(0, 16)}/c`;
    const own = await expectJson<{ name: string; warnings?: string[] }>(
      await server.post("/v1/admin/databases", { name: "d", location: alone, storage_options: azurite.storageOptions }, { "x-api-key": admin }),
      201,
    );
    assert.equal(own.warnings, undefined);
    const dKey = await apiKey(server, "d", "write");
    await expectJson(await upload(server, "/v1/table/t/create", dKey, [1]));
    assert.ok((await describeAs(server, "t", dKey)).storage_options.azure_storage_sas_token, "a database alone in its container gets a SAS token");
  });

  test("CreateDatabase at an encoded location → 400, code 13, and no database is made", async () => {
    const admin = await apiKey(server, null, "admin");
    for (const location of escapesFrom(joinLocation(data, "a"), "b").filter((text) => text.startsWith("az://"))) {
      await expectUnsafe(await server.post("/v1/admin/databases", { name: "e", location }, { "x-api-key": admin }), `database location ${JSON.stringify(location)}`);
      await expectUnsafe(
        await server.post("/v1/admin/databases", { name: "e", location, storage_options: azurite.storageOptions }, { "x-api-key": admin }),
        `database location with options ${JSON.stringify(location)}`,
      );
    }
    const listed = await expectJson<{ databases: { name: string }[] }>(await server.get("/v1/admin/databases", { "x-api-key": admin }));
    assert.ok(!listed.databases.some((database) => database.name === "e"));
  });
});

test("with --vend-shared-containers, a's SAS token in a shared container is vended and reaches b's objects: the reach the default withholds", async (t) => {
  const azurite = await startAzurite();
  const data = `az://lake${randomUUID().replaceAll("-", "").slice(0, 16)}/quiver`;
  const server = await startTestServer({ data, storageOptions: azurite.storageOptions, auth: { mode: "required" }, vending: { mode: "scoped", ttlSeconds: 3600, vendSharedContainers: true } });
  t.after(async () => {
    await server.close();
    await azurite.stop();
  });
  await ensureDatabase(server.runtime.storages, server.runtime.store, server.dataLocation, "a");
  await ensureDatabase(server.runtime.storages, server.runtime.store, server.dataLocation, "b");
  const aRead = await apiKey(server, "a", "read");
  const aWrite = await apiKey(server, "a", "write");
  const bWrite = await apiKey(server, "b", "write");
  await expectJson(await upload(server, "/v1/table/own/create", aWrite, [7]));
  await expectJson(await upload(server, "/v1/table/payroll/create", bWrite, [1, 2, 3]));
  const payroll = (await describeAs(server, "payroll", bWrite)).location;
  const answer = await describeAs(server, "own", aRead);
  assert.ok(answer.storage_options.azure_storage_sas_token);
  assert.ok((await new AzureStorage(answer.storage_options).list(joinLocation(payroll, "_versions"))).length > 0);

  await t.test("a namespace client with a's keys cannot name b's table through an encoded location: register → 400, code 13; a's tables are its own and open, b's do not", async () => {
    const escape = joinLocation(data, "a", "%2e%2e", ...objectPathOf(payroll).split("/").slice(1));
    await expectUnsafe(await server.post("/v1/table/stolen/register", { location: escape }, { "x-api-key": aWrite }), "register");
    await expectUnsafe(await server.post("/v1/table/stolen/declare", { location: escape }, { "x-api-key": aWrite }), "declare");
    for (const key of [aRead, aWrite]) {
      const db = await lancedb.connectNamespace("rest", { uri: server.url, headers: { "x-api-key": key } });
      assert.deepEqual(await db.tableNames(), ["own"]);
      await assert.rejects(db.openTable("stolen"));
      await assert.rejects(db.openTable("payroll"));
      assert.equal(await (await db.openTable("own")).countRows(), 1);
    }
    const bDb = await lancedb.connectNamespace("rest", { uri: server.url, headers: { "x-api-key": bWrite } });
    assert.deepEqual((await (await bDb.openTable("payroll")).query().toArray()).map((row) => row.id), [1, 2, 3]);
  });
});

test("a server on s3:// (s3rver): DeclareTable and RegisterTable at encoded spellings of '..' → 400, code 13, before any request reaches the store", async (t) => {
  const s3rver: S3rver = await startS3rver();
  const server = await startTestServer({ data: `s3://${s3rver.bucket}/quiver`, storageOptions: s3rver.storageOptions, allowUnsafeObjectStore: true });
  t.after(async () => {
    await server.close();
    await s3rver.stop();
  });
  const root = joinLocation(server.dataLocation, "default");
  const seen = s3rver.requests.length;
  for (const location of escapesFrom(root, "elsewhere/planted.lance")) {
    await expectUnsafe(await server.post("/v1/table/planted/declare", { location }), `declare ${JSON.stringify(location)}`);
    await expectUnsafe(await server.post("/v1/table/planted/register", { location }), `register ${JSON.stringify(location)}`);
  }
  assert.deepEqual(s3rver.requests.slice(seen), [], "no refused location reached the store");
});

test("CreateDatabase at an encoded gs:// or s3:// location → 400, code 13, before any store is asked", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const options = { google_service_account_key: "{}", google_storage_endpoint: "http://127.0.0.1:9" };
  for (const base of ["gs://bucket/quiver", "s3://bucket/quiver"]) {
    for (const location of escapesFrom(base, "other").filter((text) => /^(gs|s3):/.test(text))) {
      await expectUnsafe(await server.post("/v1/admin/databases", { name: "e", location, storage_options: base.startsWith("gs") ? options : { aws_region: "us-east-1" } }), `database location ${JSON.stringify(location)}`);
    }
  }
});

test("a server on local folders: DeclareTable, RegisterTable and CloneTable at encoded, backslashed or '..' paths and file:// URIs → 400, code 13", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await upload(server, "/v1/table/source/create", "", [1]));
  const source = (await expectJson<{ location: string }>(await server.post("/v1/table/source/describe", {}))).location;
  const root = path.dirname(path.dirname(source));
  // '?' ends no local path: a folder named '..?' is just a folder.
  const attempts = [...escapesFrom(root, "elsewhere/planted.lance").filter((text) => !text.includes("?")), ...escapesFrom(`file://${root}`, "elsewhere/planted.lance"), `${root}/../elsewhere/planted.lance`, `${root}/tables/./x.lance`];
  for (const location of attempts) {
    await expectUnsafe(await server.post("/v1/table/planted/declare", { location }), `declare ${JSON.stringify(location)}`);
    await expectUnsafe(await server.post("/v1/table/planted/register", { location }), `register ${JSON.stringify(location)}`);
  }
  for (const dots of ["%2e%2e", "%252e%252e", ".%2e", "..%5c"]) {
    const source_location = `${root}/tables/${dots}/${path.basename(source)}`;
    await expectUnsafe(await server.post("/v1/table/copy/clone", { source_location }), `clone ${source_location}`);
  }
});
