// An Idempotency-Key answer that carried vended credentials is kept without them: the metadata
// store (and so its backups) never holds a SAS token, and a retry after the first credentials ran
// out answers credentials minted for it, which the store accepts.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
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
let writer: string;

before(async () => {
  // The run's Azurite: this file's data is in a container of its own, and nothing here stops it.
  azurite = await sharedAzurite();
  server = await startTestServer({
    data: `az://q${randomUUID().replaceAll("-", "").slice(0, 24)}/data`,
    storageOptions: azurite.storageOptions,
    auth: { mode: "required" },
    // Two seconds, so that a retry can come after the first answer's credentials ran out.
    vending: { mode: "scoped", ttlSeconds: 2 },
  });
  writer = await apiKey(server, "default", "write");
});

after(async () => {
  await server?.close();
});

function send(route: string, body: Uint8Array | object, key: string): Promise<Response> {
  const arrow = body instanceof Uint8Array;
  return fetch(server.url + route, {
    method: "POST",
    headers: { "content-type": arrow ? "application/vnd.apache.arrow.stream" : "application/json", "x-api-key": writer, "idempotency-key": key },
    body: arrow ? body : JSON.stringify(body),
  });
}

/** The answer kept for the writer's `key`, as the metadata store holds it. */
async function keptAnswer(key: string): Promise<string> {
  const row = await server.runtime.store.rows.findIdempotencyKey({ database: "default", principal: `api-key:${writer.split("_")[1]}`, key });
  assert.ok(row?.body, "an answer is kept");
  return Buffer.from(row.body, "base64").toString();
}

test("CreateTable retried with one Idempotency-Key after its credentials expired → 200 with fresh credentials that work; the kept answer holds none", async () => {
  const bytes = arrowStream({ id: Int32Array.from([1, 2, 3]) });
  const first = await expectJson<TableAnswer>(await send("/v1/table/t/create", bytes, "create-t"));
  const firstToken = first.storage_options?.azure_storage_sas_token;
  assert.ok(firstToken, "the first answer vends a SAS token");

  const kept = await keptAnswer("create-t");
  assert.equal(JSON.parse(kept).location, first.location);
  assert.deepEqual(JSON.parse(kept).storage_options, {});
  for (const secret of [firstToken, "sig=", "azure_storage_account_name", azurite.storageOptions.azure_storage_account_key as string]) {
    assert.ok(!kept.includes(secret), `the kept answer holds no ${secret === firstToken ? "SAS token" : secret}`);
  }

  // The service compares whole seconds; wait until the first token's expiry is well behind.
  await sleep(Number(first.storage_options?.expires_at_millis) - Date.now() + 1_200);
  const versions = joinLocation(first.location, "_versions");
  assert.equal(await statusOfFailure(new AzureStorage(first.storage_options ?? {}).list(versions)), 403, "the first answer's token has run out");

  const retried = await send("/v1/table/t/create", bytes, "create-t");
  assert.equal(retried.headers.get("idempotent-replayed"), "true");
  const replayed = await expectJson<TableAnswer>(retried);
  assert.equal(replayed.location, first.location);
  assert.notEqual(replayed.storage_options?.azure_storage_sas_token, firstToken);
  assert.ok(Number(replayed.storage_options?.expires_at_millis) > Date.now(), "the replay's credentials have not run out");
  const fresh = new AzureStorage(replayed.storage_options ?? {});
  assert.ok((await fresh.list(versions)).length > 0, "the fresh token lists the table's versions");
  const probe = joinLocation(first.location, "written-by-a-client");
  await fresh.put(probe, Buffer.from("x"));
  await fresh.delete(probe);
  assert.ok(!(await keptAnswer("create-t")).includes(replayed.storage_options?.azure_storage_sas_token as string), "nor is the replay's token kept");
});

test("DeclareTable retried with one Idempotency-Key once the table was dropped → the first answer without credentials", async () => {
  const first = await expectJson<TableAnswer>(await send("/v1/table/declared/declare", {}, "declare"));
  assert.ok(first.storage_options?.azure_storage_sas_token, "the first answer vends a SAS token");
  assert.ok(!(await keptAnswer("declare")).includes("sig="));

  await expectJson(await fetch(`${server.url}/v1/table/declared/drop`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": writer }, body: "{}" }));
  const replayed = await expectJson<TableAnswer>(await send("/v1/table/declared/declare", {}, "declare"));
  assert.equal(replayed.location, first.location);
  assert.deepEqual(replayed.storage_options, {}, "no access to a dropped table's files");
});
