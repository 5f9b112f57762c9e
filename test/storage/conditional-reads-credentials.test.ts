// A describe that vends expiring credentials is never answered 304: the client would keep
// credentials that run out. Without credentials (vend_credentials false) the answer is tagged.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { arrowStream } from "../helpers/arrow.js";
import type { Azurite } from "../helpers/azurite.js";
import { sharedAzurite } from "../helpers/test-backend.js";
import { type TestServer, expectJson, startTestServer } from "../helpers/test-server.js";

let azurite: Azurite;
let server: TestServer;
const route = "/v1/table/t/describe";

before(async () => {
  // The run's Azurite: this file's data is in containers of its own, and nothing here stops it.
  azurite = await sharedAzurite();
  server = await startTestServer({ data: `az://q${randomUUID().replaceAll("-", "").slice(0, 24)}/data`, storageOptions: azurite.storageOptions });
  await expectJson(await server.upload("/v1/table/t/create", arrowStream({ id: Int32Array.from([1, 2]) })));
});

after(async () => {
  await server?.close();
});

test("DescribeTable vending scoped credentials → 200 with the credentials and no ETag, even for If-None-Match *", async () => {
  for (const ifNoneMatch of [undefined, "*"]) {
    const response = await server.post(route, {}, ifNoneMatch ? { "if-none-match": ifNoneMatch } : {});
    const body = await expectJson(response);
    assert.ok(body.storage_options.azure_storage_sas_token, "fresh credentials are in the answer");
    assert.ok(Number(body.storage_options.expires_at_millis) > Date.now());
    assert.equal(response.headers.get("etag"), null);
  }
});

test("DescribeTable with vend_credentials false → tagged; the same tag answers 304", async () => {
  const first = await server.post(route, { vend_credentials: false });
  const body = await expectJson(first);
  assert.equal(body.storage_options.azure_storage_sas_token, undefined);
  const tag = first.headers.get("etag");
  assert.ok(tag);
  const again = await server.post(route, { vend_credentials: false }, { "if-none-match": tag });
  assert.equal(again.status, 304);
  const vended = await server.post(route, {}, { "if-none-match": tag });
  assert.ok((await expectJson(vended)).storage_options.azure_storage_sas_token);
});
