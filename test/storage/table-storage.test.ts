// The storage layer's contract, run against every backend of the tests' one list (a local folder,
// Azurite, s3rver, the GCS emulator), each through the `Storages` a server builds, so the
// backend's descriptor picks and configures it. Above all, a conditional create has exactly one
// winner, which the catalog's commits rely on. QUIVER_TEST_STORAGES=local,gcs (any names) narrows
// the list.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { honoursConditionalCreates, probeFolderName } from "../../src/storage/conditional-create-probe.js";
import { LocalStorage } from "../../src/storage/local/local-storage.js";
import { DeletionOutsideScope, joinLocation, normalizeLocation } from "../../src/storage/locations.js";
import { Storages } from "../../src/storage/storages.js";
import type { TableStorage } from "../../src/storage/table-storage.js";
import { storageBackendsUnderTest } from "../helpers/storage-backends.js";

for (const backend of storageBackendsUnderTest()) {
  describe(`TableStorage on ${backend.endpoint}`, () => {
    const storages = new Storages();
    after(() => backend.stop());

    /** A fresh, empty root configured as a server configures its data location, and the storage serving it. */
    const open = async (): Promise<{ storage: TableStorage; root: string }> => {
      const { root, storageOptions } = await backend.freshRoot();
      await storages.configure(root, storageOptions);
      const storage = storages.for(root);
      await storage.preparePrefix(root);
      return { storage, root };
    };
    const named = (text: string) => `${backend.name}: ${text}`;
    if (backend.ignoresConditionalCreates === undefined) {
      test(named("putIfAbsent with 16 racing writers → exactly one 'created', and the object holds the winner's bytes"), async () => {
        const { storage, root } = await open();
        const target = joinLocation(root, "t.lance", "_versions", "00000000000000000001.manifest");
        const outcomes = await Promise.all(Array.from({ length: 16 }, (_, i) => storage.putIfAbsent(target, Buffer.from(`writer ${i}`))));
        const winners = outcomes.flatMap((outcome, i) => (outcome === "created" ? [i] : []));
        assert.equal(winners.length, 1, outcomes.join(","));
        assert.deepEqual(await storage.read(target), Buffer.from(`writer ${winners[0]}`));
        assert.deepEqual((await storage.list(joinLocation(root, "t.lance", "_versions"))).map(({ name, kind }) => ({ name, kind })), [{ name: "00000000000000000001.manifest", kind: "object" }], "no temporary object is left");
      });
    }

    // A store that ignores the condition cannot hold the race above; what matters there is that
    // the probe sees it, so that Quiver refuses to commit to it.
    const honours = backend.ignoresConditionalCreates === undefined;
    test(named(`the conditional-create probe → ${honours ? "the store honours conditional creates" : "finds that the store ignores them, which Quiver refuses"}, and leaves no probe object behind`), async () => {
      const { storage, root } = await open();
      assert.equal(await honoursConditionalCreates(storage, root), honours);
      assert.deepEqual(await storage.list(joinLocation(root, probeFolderName)), []);
    });

    test(named("put replaces an object whole; head reports its size and a new ETag; read, readTail, readRange and delete"), async () => {
      const { storage, root } = await open();
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
      assert.deepEqual(await storage.readRange(file, 8, 4), Buffer.from("long"));
      assert.deepEqual(await storage.readRange(file, 8, 100), Buffer.from("longer"), "a range past the end is cut at the end");
      await storage.delete(file);
      assert.equal(await storage.readRange(file, 0, 4), undefined);
      await storage.delete(file);
      assert.equal(await storage.head(file), undefined);
    });

    test(named(`list names the objects and prefixes directly under a prefix${backend.name === "local" ? "" : ", with each object's size"}; a missing prefix lists nothing`), async () => {
      const { storage, root } = await open();
      await storage.put(joinLocation(root, "a.json"), Buffer.from("{}"));
      await storage.put(joinLocation(root, "sub", "b.json"), Buffer.from("{}"));
      await storage.put(joinLocation(root, "sub", "deeper", "c.json"), Buffer.from("{}"));
      const sorted = (entries: { name: string }[]) => [...entries].sort((a, b) => a.name.localeCompare(b.name));
      // Object stores' listings say each object's size (what copying a table counts); a folder's does not.
      const sized = backend.name === "local" ? {} : { size: 2 };
      assert.deepEqual(sorted(await storage.list(root)), [
        { name: "a.json", kind: "object", ...sized },
        { name: "sub", kind: "prefix" },
      ]);
      assert.deepEqual(sorted(await storage.list(joinLocation(root, "sub"))), [
        { name: "b.json", kind: "object", ...sized },
        { name: "deeper", kind: "prefix" },
      ]);
      assert.deepEqual(await storage.list(joinLocation(root, "missing")), []);
    });

    test(named("newestChange sees the newest object anywhere below a prefix; deletePrefix removes everything below it and nothing beside it"), async () => {
      const { storage, root } = await open();
      const table = joinLocation(root, "t.lance");
      await storage.put(joinLocation(table, "data", "fresh.lance"), Buffer.from("x"));
      await storage.put(joinLocation(root, "t.lance-other", "keep.json"), Buffer.from("{}"));
      const newest = await storage.newestChange(table);
      assert.ok(newest !== undefined && Math.abs(Date.now() - newest) < 60_000, `newest change ${newest}`);
      await storage.deletePrefix(table, root);
      assert.equal(await storage.newestChange(table), undefined);
      assert.deepEqual(await storage.list(table), []);
      assert.ok(await storage.head(joinLocation(root, "t.lance-other", "keep.json")), "a sibling sharing the name's beginning is kept");
    });

    test(named("deletePrefix outside its scope, or spelled with '..' or doubled '/' → DeletionOutsideScope, and nothing is deleted"), async () => {
      const { storage, root } = await open();
      const table = joinLocation(root, "t.lance");
      const neighbour = joinLocation(root, "u.lance");
      await storage.put(joinLocation(table, "data", "a.lance"), Buffer.from("a"));
      await storage.put(joinLocation(neighbour, "data", "b.lance"), Buffer.from("b"));
      const escapes = [neighbour, root, table, `${table}/_uploads/../../u.lance`, `${table}/_uploads/../..`, `${table}//data`];
      for (const target of escapes) {
        await assert.rejects(storage.deletePrefix(target, table), DeletionOutsideScope, `deleting '${target}' within '${table}'`);
      }
      assert.ok(await storage.head(joinLocation(table, "data", "a.lance")), "the table's own file is kept");
      assert.ok(await storage.head(joinLocation(neighbour, "data", "b.lance")), "the neighbouring table's file is kept");
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
