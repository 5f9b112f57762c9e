// Two runtimes in one process keep their storage apart: each serves its own configured roots with
// its own options, even when both name the same object-store URI, so a table written through one
// lands in that runtime's store and never in the other's.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { BlobServiceClient, StorageSharedKeyCredential } from "@azure/storage-blob";
import { arrowStream } from "../helpers/arrow.js";
import { type Azurite, azuriteAccount, azuriteKey, startAzurite } from "../helpers/azurite.js";
import { type TestServer, expectJson, startTestServer } from "../helpers/test-server.js";

let first: Azurite;
let second: Azurite;

before(async () => {
  [first, second] = await Promise.all([startAzurite(), startAzurite()]);
});

after(async () => {
  await Promise.all([first.stop(), second.stop()]);
});

/** Whether `azurite` holds any blob under `location` (an `az://container/path` URI), asked of it directly. */
async function storedIn(azurite: Azurite, location: string): Promise<boolean> {
  const { host: container, pathname } = new URL(location);
  const client = new BlobServiceClient(azurite.endpoint, new StorageSharedKeyCredential(azuriteAccount, azuriteKey)).getContainerClient(container);
  if (!(await client.exists())) return false;
  for await (const blob of client.listBlobsFlat({ prefix: `${pathname.slice(1)}/` })) if (blob.name) return true;
  return false;
}

test("CreateTable on two servers in one process, same az:// data location on two Azurite stores → each table is stored only in its own server's store", async () => {
  // One URI for both: only the storage options tell the two stores apart.
  const data = `az://shared${randomUUID().replaceAll("-", "").slice(0, 20)}/data`;
  const servers: TestServer[] = [];
  try {
    servers.push(await startTestServer({ data, storageOptions: first.storageOptions }));
    servers.push(await startTestServer({ data, storageOptions: second.storageOptions }));
    const [one, two] = servers as [TestServer, TestServer];
    const inFirst = await expectJson<{ location: string }>(await one.upload("/v1/table/t1/create", arrowStream({ id: Int32Array.from([1]) })));
    const inSecond = await expectJson<{ location: string }>(await two.upload("/v1/table/t2/create", arrowStream({ id: Int32Array.from([1, 2]) })));

    assert.equal(await storedIn(first, inFirst.location), true, "the first server's table is in the first store");
    assert.equal(await storedIn(second, inFirst.location), false, "the first server's table is not in the second store");
    assert.equal(await storedIn(second, inSecond.location), true, "the second server's table is in the second store");
    assert.equal(await storedIn(first, inSecond.location), false, "the second server's table is not in the first store");

    const counted = await expectJson<number>(await one.post("/v1/table/t1/count_rows", {}));
    assert.equal(counted, 1, "the first server still reads its table from its own store");
  } finally {
    for (const server of servers) await server.close();
  }
});
