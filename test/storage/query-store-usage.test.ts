// What a query cost on the object store, in QueryTable's answer headers: Azurite behind a proxy
// that records every request the store receives, and the object cache in front of the engine.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { arrowStream, readArrow } from "../helpers/arrow.js";
import { type Azurite, azuriteAccount, startAzurite } from "../helpers/azurite.js";
import { type LatencyProxy, startLatencyProxy } from "../helpers/latency-proxy.js";
import { type TestServer, expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";

const table = "lake$points";

function usageOf(response: Response): { requests: number; bytes: number; cacheHits: number; cacheBytes: number } {
  const count = (name: string) => {
    const value = response.headers.get(name);
    assert.ok(value !== null && /^\d+$/.test(value), `${name} is a count (got ${value})`);
    return Number(value);
  };
  return { requests: count("x-quiver-store-requests"), bytes: count("x-quiver-store-bytes"), cacheHits: count("x-quiver-cache-hits"), cacheBytes: count("x-quiver-cache-bytes") };
}

describe("store usage of a query on an Azure data location", () => {
  let azurite: Azurite;
  let store: LatencyProxy;
  let server: TestServer;
  let container: string;

  before(async () => {
    azurite = await startAzurite();
    store = await startLatencyProxy(`http://127.0.0.1:${azurite.port}`);
    const root = tempRoot("quiver-usage-");
    container = `c${randomUUID().replaceAll("-", "").slice(0, 20)}`;
    server = await startTestServer({
      root,
      data: `az://${container}/data`,
      storageOptions: { ...azurite.storageOptions, azure_endpoint: `${store.origin}/${azuriteAccount}` },
      // Blocks only: a local copy of the table would answer without the proxy counting anything.
      objectCache: { dir: path.join(root, "object-cache"), maxBytes: 64 * 1024 * 1024, copyBytes: 0 },
    });
    // Within a minute a read answers from the table it holds: a warm query needs the store for nothing.
    await expectJson(await server.post("/v1/admin/databases/default/settings", { read_consistency_interval_ms: 60_000 }));
    await expectJson(await server.post("/v1/namespace/lake/create", {}));
    const ids = Int32Array.from({ length: 2000 }, (_, i) => i);
    await expectJson(await server.upload(`/v1/table/${table}/create`, arrowStream({ id: ids, score: Float64Array.from(ids, (id) => id * 1.5) })));
  });

  after(async () => {
    await server.close();
    await store.close();
    await azurite.stop();
  });

  const query = () => server.post(`/v1/table/${table}/query`, { k: 2, vector: null, filter: "id IN (7, 1500)", columns: ["id", "score"] });

  test("QueryTable of a table on an object store, its data not yet cached → 200 with x-quiver-store-requests > 0 and the bytes, each request one the store received for the table", async () => {
    store.reset();
    const response = await query();
    assert.equal(response.status, 200, await response.clone().text());
    assert.deepEqual((await readArrow(response)).toArray().map((row) => Number(row.score)).sort((a, b) => a - b), [10.5, 2250]);
    const usage = usageOf(response);
    const { location } = await expectJson(await server.post(`/v1/table/${table}/describe`, {}));
    const folder = `${String(location).replace(/^az:\/\/[^/]+\//, "")}/`;
    const tableRequests = store.requests.filter((request) => request.path.includes(`/${container}/${folder}`) || request.query.get("prefix")?.startsWith(folder));
    assert.ok(usage.requests > 0, "the cold query reached the store");
    assert.ok(usage.requests <= tableRequests.length, `every request counted reached the store (${usage.requests} counted, ${tableRequests.length} received)`);
    assert.ok(usage.bytes > 0, "the bytes the store sent are counted");
  });

  test("QueryTable repeated once the table's blocks are cached → x-quiver-store-requests 0 and the cache hits that answered it", async () => {
    store.reset();
    const response = await query();
    assert.equal(response.status, 200, await response.clone().text());
    await response.arrayBuffer();
    assert.deepEqual(store.requests, [], "the warm query reached the store for nothing");
    assert.equal(response.headers.get("x-quiver-read-from"), "object-store", "read through the proxy, not from a local copy");
    const usage = usageOf(response);
    assert.equal(usage.requests, 0);
    assert.equal(usage.bytes, 0);
    assert.ok(usage.cacheHits > 0 && usage.cacheBytes > 0, `the cache answered (${usage.cacheHits} hits, ${usage.cacheBytes} bytes)`);
  });
});
