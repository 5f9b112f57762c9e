// SAS tokens minted for one az:// table, used against Azure Blob Storage (Azurite) by Quiver's own
// storage layer and by LanceDB. Azurite has no hierarchical namespace, so the tokens it sees are
// container-scoped; directory scope (sr=d) is checked on the signed parameters alone.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import * as sdk from "@azure/storage-blob";
import { azureBackend } from "../../src/storage/azure/azure-backend.js";
import { azureCredentialMinterOf, sasParametersOf, signSas } from "../../src/storage/azure/azure-credentials.js";
import { AzureStorage } from "../../src/storage/azure/azure-storage.js";
import type { TableAccess } from "../../src/storage/storage-backend.js";
import type { StorageOptions } from "../../src/storage/storage-options.js";
import { type Azurite, azuriteAccount, azuriteKey, startAzurite, statusOfFailure } from "../helpers/azurite.js";

let azurite: Azurite;

before(async () => {
  azurite = await startAzurite();
});

after(() => azurite.stop());

/** A fresh container holding a table prefix, and a key-holding storage to arrange and inspect it. */
async function freshTable(): Promise<{ container: string; table: string; admin: AzureStorage }> {
  const container = `c${randomUUID().replaceAll("-", "").slice(0, 20)}`;
  const admin = new AzureStorage(azurite.storageOptions);
  await admin.preparePrefix(`az://${container}`);
  return { container, table: `az://${container}/db/t.lance`, admin };
}

async function mint(location: string, access: TableAccess, ttlSeconds = 300): Promise<StorageOptions> {
  const minter = azureBackend.minter(azurite.storageOptions);
  assert.ok(minter, "a minter for options holding the account key");
  return minter.mint(location, access, ttlSeconds);
}

/** The options a client gets: the minted ones plus the non-secret endpoint settings. */
function clientOptions(minted: StorageOptions): StorageOptions {
  return {
    azure_storage_account_name: minted.azure_storage_account_name as string,
    azure_storage_sas_token: minted.azure_storage_sas_token as string,
    azure_endpoint: azurite.endpoint,
    allow_http: "true",
  };
}

describe("minted SAS tokens against Azurite (container scope)", () => {
  test("a read SAS reads, lists and heads objects under the table; put, putIfAbsent and delete → 403 and the object unchanged", async () => {
    const { table, admin } = await freshTable();
    const manifest = `${table}/_versions/1.manifest`;
    await admin.put(manifest, Buffer.from("original"));
    const reader = new AzureStorage(clientOptions(await mint(table, "read")));

    assert.deepEqual(await reader.read(manifest), Buffer.from("original"));
    assert.equal((await reader.head(manifest))?.size, "original".length);
    assert.deepEqual(await reader.list(`${table}/_versions`), [{ name: "1.manifest", kind: "object", size: "original".length }]);

    assert.equal(await statusOfFailure(reader.put(manifest, Buffer.from("overwritten"))), 403);
    assert.equal(await statusOfFailure(reader.putIfAbsent(`${table}/_versions/2.manifest`, Buffer.from("new"))), 403);
    assert.equal(await statusOfFailure(reader.delete(manifest)), 403);
    assert.deepEqual(await admin.read(manifest), Buffer.from("original"));
    assert.equal(await admin.head(`${table}/_versions/2.manifest`), undefined);
  });

  test("a write SAS puts, creates if absent and deletes under the table", async () => {
    const { table, admin } = await freshTable();
    const writer = new AzureStorage(clientOptions(await mint(table, "write")));
    const data = `${table}/data/a.lance`;

    await writer.put(data, Buffer.from("first"));
    await writer.put(data, Buffer.from("second"));
    assert.equal(await writer.putIfAbsent(`${table}/_versions/1.manifest`, Buffer.from("m1")), "created");
    assert.equal(await writer.putIfAbsent(`${table}/_versions/1.manifest`, Buffer.from("other")), "exists");
    assert.deepEqual(await admin.read(data), Buffer.from("second"));
    assert.deepEqual(await admin.read(`${table}/_versions/1.manifest`), Buffer.from("m1"));
    await writer.delete(data);
    assert.equal(await admin.head(data), undefined);
  });

  test("an expired SAS → 403, for reads as for writes", async () => {
    const { table, admin } = await freshTable();
    await admin.put(`${table}/a.json`, Buffer.from("{}"));
    // Two seconds: the expiry is cut to a whole second, so a one-second token may be valid for a millisecond.
    const minted = await mint(table, "write", 2);
    const client = new AzureStorage(clientOptions(minted));
    assert.deepEqual(await client.read(`${table}/a.json`), Buffer.from("{}"), "valid before its expiry");
    // The service compares whole seconds; wait until the expiry is well behind.
    await sleep(Number(minted.expires_at_millis) - Date.now() + 1_200);
    assert.equal(await statusOfFailure(client.read(`${table}/a.json`)), 403);
    assert.equal(await statusOfFailure(client.put(`${table}/b.json`, Buffer.from("{}"))), 403);
  });

  test("a token minted without allow_http is https-only, and Azurite refuses it over http → 403", async () => {
    const { table, admin } = await freshTable();
    await admin.put(`${table}/a.json`, Buffer.from("{}"));
    const { allow_http: _allowHttp, ...httpsOnly } = azurite.storageOptions;
    const minted = await azureCredentialMinterOf(httpsOnly)?.mint(table, "read", 300);
    assert.ok(minted);
    assert.equal(new URLSearchParams(minted.azure_storage_sas_token).get("spr"), "https");
    assert.equal(await statusOfFailure(new AzureStorage(clientOptions(minted)).read(`${table}/a.json`)), 403);
  });

  test("the minted options: the SAS without '?', the account name and expires_at_millis ≈ now + ttl; never the account key", async () => {
    const { table } = await freshTable();
    const before = Date.now();
    const minted = await mint(table, "read", 900);
    assert.deepEqual(Object.keys(minted).sort(), ["azure_storage_account_name", "azure_storage_sas_token", "expires_at_millis"]);
    assert.equal(minted.azure_storage_account_name, azuriteAccount);
    assert.ok(!JSON.stringify(minted).includes(azuriteKey), "no account key anywhere in the answer");
    const token = minted.azure_storage_sas_token as string;
    assert.ok(!token.startsWith("?"));
    const parameters = new URLSearchParams(token);
    assert.deepEqual([parameters.get("sr"), parameters.get("sp"), parameters.get("spr"), parameters.get("sdd")], ["c", "rl", "https,http", null]);
    const expiresAt = Number(minted.expires_at_millis);
    assert.ok(expiresAt > before + 900_000 - 1_000 && expiresAt <= Date.now() + 900_000, `expires_at_millis ${expiresAt}`);
    assert.equal(new Date(parameters.get("se") as string).getTime(), expiresAt, "the answer's expiry is the token's");
    assert.ok(new Date(parameters.get("st") as string).getTime() < before - 60_000, "the start allows for a client's clock running behind");
  });

  test("options holding only a SAS token → no minter; a non-positive ttl is refused", async () => {
    const minted = await mint("az://c/db/t.lance", "read");
    assert.equal(azureBackend.minter(clientOptions(minted)), undefined);
    await assert.rejects(mint("az://c/db/t.lance", "read", 0), RangeError);
  });

  test("when the account cannot be asked about its namespace, the token is container-scoped", async () => {
    const minter = azureCredentialMinterOf({ ...azurite.storageOptions, azure_endpoint: `http://127.0.0.1:1/${azuriteAccount}` });
    const minted = await minter?.mint("az://c/db/t.lance", "write", 60);
    assert.equal(new URLSearchParams(minted?.azure_storage_sas_token).get("sr"), "c");
  });
});

describe("SAS parameters", () => {
  const context = { hierarchical: true, nowMillis: Date.parse("2030-01-02T03:04:05.678Z"), ttlSeconds: 3600, allowHttp: false };

  test("with a hierarchical namespace: the table's directory and its depth; at a container's root, the container", () => {
    const parameters = sasParametersOf("az://lake/databases/default/t.lance/", "read", context);
    assert.deepEqual(parameters.directory, { name: "databases/default/t.lance", depth: 3 });
    assert.equal(parameters.containerName, "lake");
    assert.equal(sasParametersOf("az://lake/t.lance", "read", context).directory?.depth, 1);
    assert.equal(sasParametersOf("az://lake", "read", context).directory, undefined);
    assert.equal(sasParametersOf("az://lake/db/t.lance", "read", { ...context, hierarchical: false }).directory, undefined);
  });

  test("permissions per access, whole-second times, start before now, protocol per allow_http", () => {
    assert.equal(sasParametersOf("az://lake/t.lance", "read", context).permissions, "rl");
    const parameters = sasParametersOf("az://lake/t.lance", "write", context);
    assert.equal(parameters.permissions, "racwdl");
    assert.equal(parameters.expiresOn.toISOString(), "2030-01-02T04:04:05.000Z");
    assert.ok(parameters.startsOn.getTime() < context.nowMillis);
    assert.equal(parameters.protocol, "https");
    assert.equal(sasParametersOf("az://lake/t.lance", "write", { ...context, allowHttp: true }).protocol, "https,http");
  });

  test("a directory token carries sr=d, sdd = the depth and the list permission", () => {
    const credential = new sdk.StorageSharedKeyCredential(azuriteAccount, azuriteKey);
    for (const access of ["read", "write"] as const) {
      const token = new URLSearchParams(signSas(sdk, sasParametersOf("az://lake/databases/default/t.lance", access, context), credential));
      assert.deepEqual([token.get("sr"), token.get("sdd"), token.get("sp"), token.get("spr")], ["d", "3", access === "read" ? "rl" : "racwdl", "https"]);
    }
  });

  test("a directory token is signed as the SDK signs one, for the permissions the SDK accepts on a directory", () => {
    const credential = new sdk.StorageSharedKeyCredential(azuriteAccount, azuriteKey);
    const parameters = { ...sasParametersOf("az://lake/databases/default/t.lance", "write", context), permissions: "racwd" };
    const ours = new URLSearchParams(signSas(sdk, parameters, credential));
    const theirs = sdk.generateBlobSASQueryParameters(
      {
        version: ours.get("sv") as string,
        containerName: "lake",
        blobName: "databases/default/t.lance",
        isDirectory: true,
        permissions: sdk.BlobSASPermissions.parse("racwd"),
        startsOn: parameters.startsOn,
        expiresOn: parameters.expiresOn,
        protocol: sdk.SASProtocol.Https,
      },
      credential,
    );
    const sorted = (query: URLSearchParams) => [...query.entries()].sort(([a], [b]) => a.localeCompare(b));
    assert.deepEqual(sorted(ours), sorted(new URLSearchParams(theirs.toString())));
  });
});

describe("LanceDB with minted SAS tokens only (Azurite)", () => {
  test("a write SAS creates a table, adds rows and counts them; a read SAS opens and counts, and add fails", async (t) => {
    const { container } = await freshTable();
    const database = `az://${container}/db`;

    const writer = await lancedb.connect(database, { storageOptions: clientOptions(await mint(`${database}/t.lance`, "write")) });
    t.after(() => writer.close());
    const created = await writer.createTable("t", [{ id: 1 }, { id: 2 }]);
    await created.add([{ id: 3 }]);
    assert.equal(await created.countRows(), 3);
    created.close();

    const reader = await lancedb.connect(database, { storageOptions: clientOptions(await mint(`${database}/t.lance`, "read")) });
    t.after(() => reader.close());
    const opened = await reader.openTable("t");
    assert.equal(await opened.countRows(), 3);
    await assert.rejects(opened.add([{ id: 4 }]), /403|AuthorizationPermissionMismatch|permission/i);
    assert.equal(await opened.countRows(), 3);
    opened.close();
  });
});
