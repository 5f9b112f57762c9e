// The local folder backend of the storage layer: the object-store semantics the catalog's
// commits rely on, above all that a conditional create has exactly one winner.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync, readdirSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { LocalStorage } from "../../src/storage/local-storage.js";
import { joinLocation, normalizeLocation } from "../../src/storage/storage-for.js";

function tempFolder(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), "quiver-storage-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const storage = new LocalStorage();

test("putIfAbsent with 16 racing writers → exactly one 'created', the object holds the winner's bytes, no temporary file is left", async (t) => {
  const dir = tempFolder(t);
  const target = path.join(dir, "_versions", "00000000000000000001.manifest");
  const outcomes = await Promise.all(Array.from({ length: 16 }, (_, i) => storage.putIfAbsent(target, Buffer.from(`writer ${i}`))));
  const winners = outcomes.flatMap((outcome, i) => (outcome === "created" ? [i] : []));
  assert.equal(winners.length, 1);
  assert.deepEqual(await storage.read(target), Buffer.from(`writer ${winners[0]}`));
  assert.deepEqual(readdirSync(path.dirname(target)), [path.basename(target)]);
});

test("put replaces an object whole; head reports its size and a new ETag; read, readTail and delete", async (t) => {
  const dir = tempFolder(t);
  const file = path.join(dir, "hint.json");
  assert.equal(await storage.head(file), undefined);
  assert.equal(await storage.read(file), undefined);
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

test("list names objects and prefixes under a prefix, never links; a missing prefix lists nothing", async (t) => {
  const dir = tempFolder(t);
  mkdirSync(path.join(dir, "sub"));
  writeFileSync(path.join(dir, "a.json"), "{}");
  symlinkSync(path.join(dir, "a.json"), path.join(dir, "link.json"));
  const entries = (await storage.list(dir)).sort((a, b) => a.name.localeCompare(b.name));
  assert.deepEqual(entries, [
    { name: "a.json", kind: "object" },
    { name: "sub", kind: "prefix" },
  ]);
  assert.equal(await storage.head(path.join(dir, "link.json")), undefined, "a link is not an object");
  assert.deepEqual(await storage.list(path.join(dir, "missing")), []);
});

test("newestChange sees the newest file anywhere below a prefix; deletePrefix removes everything", async (t) => {
  const dir = tempFolder(t);
  const nested = path.join(dir, "t.lance", "data");
  mkdirSync(nested, { recursive: true });
  const old = new Date(Date.now() - 3 * 3600_000);
  for (const folder of [path.join(dir, "t.lance"), nested]) utimesSync(folder, old, old);
  writeFileSync(path.join(nested, "fresh.lance"), "x");
  const newest = await storage.newestChange(path.join(dir, "t.lance"));
  assert.ok(newest !== undefined && Date.now() - newest < 60_000, `newest change ${newest}`);
  await storage.deletePrefix(path.join(dir, "t.lance"));
  assert.equal(await storage.newestChange(path.join(dir, "t.lance")), undefined);
});

test("canonical resolves links through the nearest existing ancestor", async (t) => {
  const dir = tempFolder(t);
  mkdirSync(path.join(dir, "real"));
  symlinkSync(path.join(dir, "real"), path.join(dir, "alias"));
  const realDir = await storage.canonical(dir);
  assert.equal(await storage.canonical(path.join(dir, "alias", "not-yet", "t.lance")), path.join(realDir, "real", "not-yet", "t.lance"));
});

test("joinLocation and normalizeLocation keep URIs in their own syntax and resolve local paths", () => {
  assert.equal(joinLocation("s3://bucket/prefix/", "t.lance", "_versions"), "s3://bucket/prefix/t.lance/_versions");
  assert.equal(joinLocation("/data/db", "tables"), path.join("/data/db", "tables"));
  assert.equal(normalizeLocation("az://container/db/"), "az://container/db");
  assert.equal(normalizeLocation("relative/t.lance"), path.resolve("relative/t.lance"));
});
