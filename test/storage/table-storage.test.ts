// The storage layer's contract, run against every backend: a local folder, Azure Blob Storage
// (Azurite) and S3 (s3rver). Above all, a conditional create has exactly one winner, which the
// catalog's commits rely on. QUIVER_TEST_STORAGES=local (or azure, or s3) narrows the list.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { AzureStorage } from "../../src/storage/azure/azure-storage.js";
import { LocalStorage } from "../../src/storage/local/local-storage.js";
import { joinLocation, normalizeLocation } from "../../src/storage/locations.js";
import { S3Storage } from "../../src/storage/s3/s3-storage.js";
import type { TableStorage } from "../../src/storage/table-storage.js";
import { type Azurite, startAzurite } from "../helpers/azurite.js";
import { type S3rver, startS3rver } from "../helpers/s3rver.js";

interface Backend {
  name: string;
  /** A fresh, empty prefix to work under, and the storage serving it. */
  open(): Promise<{ storage: TableStorage; root: string }>;
  close?(): Promise<void>;
  /** False when the emulator accepts a conditional create and ignores its condition. */
  honoursConditionalCreates: boolean;
}

function localBackend(): Backend {
  const folders: string[] = [];
  return {
    name: "local",
    open: async () => {
      const root = mkdtempSync(path.join(tmpdir(), "quiver-storage-"));
      folders.push(root);
      return { storage: new LocalStorage(), root };
    },
    close: async () => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })),
    honoursConditionalCreates: true,
  };
}

function azureBackend(): Backend {
  let azurite: Azurite | undefined;
  return {
    name: "azure",
    open: async () => {
      azurite ??= await startAzurite();
      const storage = new AzureStorage(azurite.storageOptions);
      const root = `az://c${randomUUID().replaceAll("-", "").slice(0, 20)}/db`;
      await storage.preparePrefix(root);
      return { storage, root };
    },
    close: async () => azurite?.stop(),
    honoursConditionalCreates: true,
  };
}

function s3Backend(): Backend {
  let s3rver: S3rver | undefined;
  return {
    name: "s3",
    open: async () => {
      s3rver ??= await startS3rver();
      const storage = new S3Storage(s3rver.storageOptions);
      const bucket = `b${randomUUID().replaceAll("-", "").slice(0, 20)}`;
      await s3rver.createBucket(bucket);
      return { storage, root: `s3://${bucket}/db` };
    },
    close: async () => s3rver?.stop(),
    // s3rver stores every PutObject and ignores If-None-Match; the server's probe refuses such stores.
    honoursConditionalCreates: false,
  };
}

const wanted = (process.env.QUIVER_TEST_STORAGES ?? "local,azure,s3").split(",");
const backends = [localBackend(), azureBackend(), s3Backend()].filter((backend) => wanted.includes(backend.name));

for (const backend of backends) {
  describe(`TableStorage on ${backend.name}`, () => {
    after(() => backend.close?.());

    // s3rver ignores conditional creates, so racing writers all "win" there; unsafe-object-store.test.ts proves Quiver refuses such a store.
    if (backend.honoursConditionalCreates) test("putIfAbsent with 16 racing writers → exactly one 'created', and the object holds the winner's bytes", async () => {
      const { storage, root } = await backend.open();
      const target = joinLocation(root, "t.lance", "_versions", "00000000000000000001.manifest");
      const outcomes = await Promise.all(Array.from({ length: 16 }, (_, i) => storage.putIfAbsent(target, Buffer.from(`writer ${i}`))));
      const winners = outcomes.flatMap((outcome, i) => (outcome === "created" ? [i] : []));
      assert.equal(winners.length, 1, outcomes.join(","));
      assert.deepEqual(await storage.read(target), Buffer.from(`writer ${winners[0]}`));
      assert.deepEqual(await storage.list(joinLocation(root, "t.lance", "_versions")), [{ name: "00000000000000000001.manifest", kind: "object" }], "no temporary object is left");
    });

    test("put replaces an object whole; head reports its size and a new ETag; read, readTail and delete", async () => {
      const { storage, root } = await backend.open();
      const file = joinLocation(root, "hint.json");
      assert.equal(await storage.head(file), undefined);
      assert.equal(await storage.read(file), undefined);
      assert.equal(await storage.readTail(file, 4), undefined);
      await storage.put(file, Buffer.from("first"));
      const first = await storage.head(file);
      await storage.put(file, Buffer.from("second, longer"));
      const second = await storage.head(file);
      assert.equal(second?.size, "second, longer".length);
      assert.notEqual(second?.eTag, first?.eTag);
      assert.deepEqual(await storage.readTail(file, 6), Buffer.from("longer"));
      assert.deepEqual(await storage.readTail(file, 100), Buffer.from("second, longer"));
      await storage.delete(file);
      await storage.delete(file);
      assert.equal(await storage.head(file), undefined);
    });

    test("list names the objects and prefixes directly under a prefix; a missing prefix lists nothing", async () => {
      const { storage, root } = await backend.open();
      await storage.put(joinLocation(root, "a.json"), Buffer.from("{}"));
      await storage.put(joinLocation(root, "sub", "b.json"), Buffer.from("{}"));
      await storage.put(joinLocation(root, "sub", "deeper", "c.json"), Buffer.from("{}"));
      const sorted = (entries: { name: string }[]) => [...entries].sort((a, b) => a.name.localeCompare(b.name));
      assert.deepEqual(sorted(await storage.list(root)), [
        { name: "a.json", kind: "object" },
        { name: "sub", kind: "prefix" },
      ]);
      assert.deepEqual(sorted(await storage.list(joinLocation(root, "sub"))), [
        { name: "b.json", kind: "object" },
        { name: "deeper", kind: "prefix" },
      ]);
      assert.deepEqual(await storage.list(joinLocation(root, "missing")), []);
    });

    test("newestChange sees the newest object anywhere below a prefix; deletePrefix removes everything below it and nothing beside it", async () => {
      const { storage, root } = await backend.open();
      const table = joinLocation(root, "t.lance");
      await storage.put(joinLocation(table, "data", "fresh.lance"), Buffer.from("x"));
      await storage.put(joinLocation(root, "t.lance-other", "keep.json"), Buffer.from("{}"));
      const newest = await storage.newestChange(table);
      assert.ok(newest !== undefined && Math.abs(Date.now() - newest) < 60_000, `newest change ${newest}`);
      await storage.deletePrefix(table);
      assert.equal(await storage.newestChange(table), undefined);
      assert.deepEqual(await storage.list(table), []);
      assert.ok(await storage.head(joinLocation(root, "t.lance-other", "keep.json")), "a sibling sharing the name's beginning is kept");
    });
  });
}

test("LocalStorage: links are neither listed nor objects, and canonical resolves them through the nearest existing ancestor", async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "quiver-storage-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const storage = new LocalStorage();
  mkdirSync(path.join(dir, "real"));
  writeFileSync(path.join(dir, "a.json"), "{}");
  symlinkSync(path.join(dir, "a.json"), path.join(dir, "link.json"));
  symlinkSync(path.join(dir, "real"), path.join(dir, "alias"));
  assert.deepEqual((await storage.list(dir)).map((entry) => entry.name).sort(), ["a.json", "real"]);
  assert.equal(await storage.head(path.join(dir, "link.json")), undefined);
  const realDir = await storage.canonical(dir);
  assert.equal(await storage.canonical(path.join(dir, "alias", "not-yet", "t.lance")), path.join(realDir, "real", "not-yet", "t.lance"));
});

test("LocalStorage: newestChange looks below folders whose own times are old", async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "quiver-storage-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const nested = path.join(dir, "t.lance", "data");
  mkdirSync(nested, { recursive: true });
  writeFileSync(path.join(nested, "fresh.lance"), "x");
  const old = new Date(Date.now() - 3 * 3600_000);
  for (const folder of [path.join(dir, "t.lance"), nested]) utimesSync(folder, old, old);
  const newest = await new LocalStorage().newestChange(path.join(dir, "t.lance"));
  assert.ok(newest !== undefined && Date.now() - newest < 60_000, `newest change ${newest}`);
});

test("joinLocation and normalizeLocation keep URIs in their own syntax and resolve local paths", () => {
  assert.equal(joinLocation("s3://bucket/prefix/", "t.lance", "_versions"), "s3://bucket/prefix/t.lance/_versions");
  assert.equal(joinLocation("/data/db", "tables"), path.join("/data/db", "tables"));
  assert.equal(normalizeLocation("az://container/db/"), "az://container/db");
  assert.equal(normalizeLocation("relative/t.lance"), path.resolve("relative/t.lance"));
});
