// The read-through object cache on Azure (Azurite behind a proxy that records every request the
// store receives): warm reads stop reaching the store for data, a restart keeps the cache, a
// corrupted block is fetched again, a manifest rewritten behind the cache is seen, concurrent
// misses of one block make one store request, and two databases on one data location each read
// their own rows; an object outside the data location is never answered from the cache. The eviction bound is checked on the cache's disk store directly.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { BlobServiceClient, StorageSharedKeyCredential } from "@azure/storage-blob";
import { BlockCache } from "../../src/storage/object-cache/block-cache.js";
import { arrowStream, readArrow } from "../helpers/arrow.js";
import { type Azurite, azuriteAccount, azuriteKey, startAzurite } from "../helpers/azurite.js";
import { type LatencyProxy, type ProxiedRequest, startLatencyProxy } from "../helpers/latency-proxy.js";
import { parsePrometheusText, sumOf } from "../helpers/prometheus-text.js";
import { type TestServer, expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";

/** Small blocks, so a small table spans several and a corrupted one is one of many. */
const blockSize = 16 * 1024;
const table = "lake$points";
const rowCount = 3000;

function blockFiles(dir: string): string[] {
  const root = path.join(dir, "blocks");
  return readdirSync(root).flatMap((folder) => readdirSync(path.join(root, folder)).map((name) => path.join(root, folder, name)));
}

const isDataRead = (request: ProxiedRequest) => request.method === "GET" && /\/data\/[^/]+\.lance$/.test(request.path);

describe("the object cache on an Azure data location", () => {
  let azurite: Azurite;
  let store: LatencyProxy;
  let server: TestServer;
  let root: string;
  let cacheDir: string;
  let config: Parameters<typeof startTestServer>[0];

  before(async () => {
    azurite = await startAzurite();
    store = await startLatencyProxy(`http://127.0.0.1:${azurite.port}`);
    root = tempRoot("quiver-cache-");
    cacheDir = path.join(root, "object-cache");
    config = {
      root,
      data: `az://c${randomUUID().replaceAll("-", "").slice(0, 20)}/data`,
      storageOptions: { ...azurite.storageOptions, azure_endpoint: `${store.origin}/${azuriteAccount}` },
      // Blocks only: what is tested here is every read going through the proxy.
      objectCache: { dir: cacheDir, maxBytes: 64 * 1024 * 1024, copyBytes: 0, blockSize },
    };
    server = await startTestServer(config);
    await expectJson(await server.post("/v1/namespace/lake/create", {}));
    const ids = Int32Array.from({ length: rowCount }, (_, i) => i);
    const scores = Float64Array.from(ids, (id) => id * 1.5);
    await expectJson(await server.upload(`/v1/table/${table}/create`, arrowStream({ id: ids, score: scores })));
  });

  after(async () => {
    await server.close();
    await store.close();
    await azurite.stop();
  });

  async function scoresOf(target: TestServer, ids: number[], name = table, headers: Record<string, string> = {}): Promise<number[]> {
    const response = await target.post(`/v1/table/${name}/query`, { k: ids.length, vector: null, filter: `id IN (${ids.join(", ")})`, columns: ["id", "score"] }, headers);
    assert.equal(response.status, 200, await response.clone().text());
    const rows = (await readArrow(response)).toArray().map((row) => ({ id: Number(row.id), score: Number(row.score) }));
    return rows.sort((a, b) => a.id - b.id).map((row) => row.score);
  }

  test("a warm read of a table on an object store → its data comes from the cache: no data-file request reaches the store", async () => {
    assert.deepEqual(await scoresOf(server, [7, 2500]), [10.5, 3750]);
    store.reset();
    assert.deepEqual(await scoresOf(server, [7, 2500]), [10.5, 3750]);
    assert.deepEqual(store.requests.filter(isDataRead), [], "no data file is read from the store again");
    const { samples } = parsePrometheusText(await (await server.get("/metrics")).text());
    assert.ok(sumOf(samples, "quiver_object_cache_hits_total") > 0, "the hits are counted");
    assert.ok(sumOf(samples, "quiver_object_store_requests_total", { kind: "data" }) > 0, "the cold read's data requests are counted");
  });

  test("a restart on the same cache folder → the new server's first read fetches no data file from the store", async () => {
    await scoresOf(server, [7, 2500]);
    await server.close();
    server = await startTestServer({ ...config, keepRoot: true });
    store.reset();
    assert.deepEqual(await scoresOf(server, [7, 2500]), [10.5, 3750]);
    assert.deepEqual(store.requests.filter(isDataRead), [], "the blocks kept on disk answer");
  });

  test("a corrupted block on disk → found by its checksum and fetched again; the answer is right", async () => {
    await server.close();
    for (const file of blockFiles(cacheDir)) {
      const bytes = readFileSync(file);
      bytes[bytes.length - 1] = (bytes.at(-1) as number) ^ 0xff;
      writeFileSync(file, bytes);
    }
    server = await startTestServer({ ...config, keepRoot: true });
    store.reset();
    assert.deepEqual(await scoresOf(server, [7, 2500]), [10.5, 3750]);
    assert.ok(store.requests.filter(isDataRead).length > 0, "the corrupt blocks are fetched from the store again");
    store.reset();
    assert.deepEqual(await scoresOf(server, [7, 2500]), [10.5, 3750]);
    assert.deepEqual(store.requests.filter(isDataRead), [], "and cached again");
  });

  test("two databases on one data location, each with a table of the same name → each read answers its own rows", async () => {
    for (const [name, factor] of [["north", 2], ["south", 3]] as const) {
      await expectJson(await server.post("/v1/admin/databases", { name }), 201);
      const headers = { "x-svc-database": name };
      await expectJson(await server.post("/v1/namespace/lake/create", {}, headers));
      const response = await fetch(`${server.url}/v1/table/${table}/create`, {
        method: "POST",
        headers: { "content-type": "application/vnd.apache.arrow.stream", ...headers },
        body: arrowStream({ id: Int32Array.from([1, 2, 3]), score: Float64Array.from([1, 2, 3], (id) => id * factor) }),
      });
      await expectJson(response);
    }
    for (let round = 0; round < 2; round += 1) {
      assert.deepEqual(await scoresOf(server, [1, 2, 3], table, { "x-svc-database": "north" }), [2, 4, 6]);
      assert.deepEqual(await scoresOf(server, [1, 2, 3], table, { "x-svc-database": "south" }), [3, 6, 9]);
    }
  });

  describe("reads through the cache's proxy", () => {
    /** The data location's container, and a folder of this suite's own inside the location. */
    let container: string;
    let folder: string;
    let direct: BlobServiceClient;
    let cached: BlobServiceClient;

    before(async () => {
      const credential = new StorageSharedKeyCredential(azuriteAccount, azuriteKey);
      direct = new BlobServiceClient(azurite.endpoint, credential);
      const [, bucket = "", prefix = ""] = /^az:\/\/([^/]+)\/(.*)$/.exec(config?.data as string) ?? [];
      container = bucket;
      folder = `${prefix}/p${randomUUID().slice(0, 8)}`;
      // The endpoint the server's engine reads through, with the same account and key.
      const endpoint = server.runtime.storages.optionsFor(config?.data as string).azure_endpoint as string;
      assert.ok(endpoint.startsWith("http://127.0.0.1:") && !endpoint.startsWith(store.origin), "the engine is pointed at the cache's proxy");
      cached = new BlobServiceClient(endpoint, credential, { retryOptions: { maxTries: 1 } });
    });

    async function readThroughCache(name: string, offset: number, count: number, inContainer = container): Promise<Buffer> {
      return cached.getContainerClient(inContainer).getBlobClient(name).downloadToBuffer(offset, count);
    }

    test("a data file outside the data location → every read goes to the store, none is answered from the cache", async () => {
      const outside = `o${randomUUID().replaceAll("-", "").slice(0, 20)}`;
      await direct.getContainerClient(outside).create();
      const name = "db/t.lance/data/0123-abcd.lance";
      await direct.getContainerClient(outside).getBlockBlobClient(name).upload(Buffer.from("outside bytes"), 13);
      store.reset();
      for (let read = 0; read < 3; read += 1) assert.equal((await readThroughCache(name, 0, 13, outside)).toString(), "outside bytes");
      assert.equal(store.requests.filter((request) => request.path.endsWith(`/${outside}/${name}`)).length, 3);
    });

    test("a read of a block the cache holds without the root's credential → sent to the store, which refuses it; the cached bytes are not handed out", async () => {
      const name = `${folder}/db/t.lance/data/4567-ef01.lance`;
      await direct.getContainerClient(container).getBlockBlobClient(name).upload(Buffer.from("kept bytes"), 10);
      assert.equal((await readThroughCache(name, 0, 10)).toString(), "kept bytes");
      assert.equal((await readThroughCache(name, 0, 10)).toString(), "kept bytes");
      const endpoint = server.runtime.storages.optionsFor(config?.data as string).azure_endpoint as string;
      store.reset();
      const response = await fetch(`${endpoint}/${container}/${name}`, { headers: { range: "bytes=0-9", "x-ms-version": "2021-08-06" } });
      assert.ok(response.status === 403 || response.status === 404, `the store's refusal, not the bytes: HTTP ${response.status}`);
      assert.notEqual(await response.text(), "kept bytes");
      assert.equal(store.requests.filter((request) => request.path.endsWith(`/${name}`)).length, 1, "the store judged the request");
    });

    test("a version manifest rewritten behind the cache → the next read answers the new bytes", async () => {
      const name = `${folder}/db/t.lance/_versions/1.manifest`;
      const blob = direct.getContainerClient(container).getBlockBlobClient(name);
      await blob.upload(Buffer.from("first manifest"), 14);
      assert.equal((await readThroughCache(name, 0, 14)).toString(), "first manifest");
      assert.equal((await readThroughCache(name, 0, 14)).toString(), "first manifest");
      await blob.upload(Buffer.from("second manifest!"), 16);
      assert.equal((await readThroughCache(name, 0, 16)).toString(), "second manifest!");
      await blob.upload(Buffer.from("third manifest"), 14);
      assert.equal((await readThroughCache(name, 0, 14)).toString(), "third manifest", "same size, new etag");
    });

    test("_latest.manifest rewritten behind the cache → never cached: every read reaches the store", async () => {
      const name = `${folder}/db/t.lance/_latest.manifest`;
      const blob = direct.getContainerClient(container).getBlockBlobClient(name);
      await blob.upload(Buffer.from("v1"), 2);
      assert.equal((await readThroughCache(name, 0, 2)).toString(), "v1");
      await blob.upload(Buffer.from("v2"), 2);
      store.reset();
      assert.equal((await readThroughCache(name, 0, 2)).toString(), "v2");
      assert.equal(store.requests.filter((request) => request.path.endsWith("/_latest.manifest")).length, 1);
    });

    test("concurrent reads of one uncached block of a data file → one store request; each gets the right bytes", async () => {
      const name = `${folder}/db/t.lance/data/0123-abcd.lance`;
      const bytes = Buffer.from(Array.from({ length: 3 * blockSize }, (_, i) => (i * 7) % 251));
      await direct.getContainerClient(container).getBlockBlobClient(name).upload(bytes, bytes.length);
      store.reset();
      store.delayMs = 100;
      try {
        const reads = await Promise.all(Array.from({ length: 6 }, (_, i) => readThroughCache(name, blockSize + i * 100, 1000)));
        reads.forEach((read, i) => assert.deepEqual(read, bytes.subarray(blockSize + i * 100, blockSize + i * 100 + 1000)));
      } finally {
        store.delayMs = 0;
      }
      const fetched = store.requests.filter((request) => request.path.endsWith(`/${name}`));
      assert.equal(fetched.length, 1, `one request, not ${fetched.length}`);
      assert.equal(fetched[0]?.range, `bytes=${blockSize}-${2 * blockSize - 1}`, "the aligned block");
    });
  });
});

test("a cache bounded below its blocks' bytes → the least recently used blocks are evicted, the bound holds across a restart", async () => {
  const dir = tempRoot("quiver-blocks-");
  const evicted: number[] = [];
  const observer = { evicted: (blocks: number) => evicted.push(blocks) };
  const identity = { store: "az:test", path: "c/t.lance/data/a.lance", etag: '"1"', size: 10 * 1024, headers: {} };
  const block = (index: number) => Buffer.alloc(1024, index);
  const bound = 4 * 1300;
  const cache = await BlockCache.open(dir, bound, 1024, observer);
  for (let index = 0; index < 4; index += 1) await cache.write(identity, index, block(index));
  assert.deepEqual(await cache.read(identity, 0), block(0), "block 0, read now, becomes the most recently used");
  for (let index = 4; index < 8; index += 1) await cache.write(identity, index, block(index));
  assert.ok(cache.bytes <= bound, `${cache.bytes} bytes held under a bound of ${bound}`);
  assert.ok(evicted.reduce((a, b) => a + b, 0) >= 4, "blocks were evicted");
  assert.equal(await cache.read(identity, 1), undefined, "the least recently used block is gone");
  assert.deepEqual(await cache.read(identity, 7), block(7), "the newest block stays");
  const files = readdirSync(path.join(dir, "blocks")).flatMap((folder) => readdirSync(path.join(dir, "blocks", folder)));
  assert.equal(files.length, cache.blocks, "evicted blocks are removed from disk");
  const reopened = await BlockCache.open(dir, bound, 1024, observer);
  assert.equal(reopened.bytes, cache.bytes, "the index is rebuilt from disk");
  assert.deepEqual(reopened.identityOf(identity.store, identity.path), identity);
  assert.deepEqual(await reopened.read(identity, 7), block(7));
  assert.ok(statSync(dir).isDirectory());
});
