// The one spelling of a location: what `checkedLocation` refuses, because Lance, a URL parser or
// an object store could read it as another place, and what it accepts and how it spells it.
import assert from "node:assert/strict";
import test from "node:test";
import { UnsafeLocation, checkedLocation, isInsideLocation, objectStoreSpelling } from "../../src/storage/locations.js";

test("checkedLocation of encoded dots, slashes, backslashes and percent signs, on every scheme and local paths → UnsafeLocation", () => {
  const tails = ["%2e%2e/b", "%2E%2E/b", "%2e./b", ".%2e/b", "%2E./b", "%252e%252e/b", "%25252e/b", "x%2fy", "x%2Fy", "x%5cy", "x%5Cy", "x%25y", "x%", "x%2", "x%zz", "x%00y", "x%0ay", "x%7fy", "x%3f/y", "x%23/y"];
  for (const base of ["az://lake/a", "s3://bucket/a", "gs://bucket/a", "/data/a", "file:///data/a"]) {
    for (const tail of tails) {
      assert.throws(() => checkedLocation(`${base}/${tail}`), UnsafeLocation, `${base}/${tail}`);
    }
  }
  for (const relative of ["%2e%2e/b.lance", ".%2e/b.lance", "tables/%2E%2E/x.lance"]) assert.throws(() => checkedLocation(relative), UnsafeLocation, relative);
});

test("checkedLocation of backslashes, control characters, '.' and '..' segments, '?' or '#' in a URI, a bucket with user or port, bad UTF-8 → UnsafeLocation", () => {
  const refused = [
    "az://lake/a\\..\\b",
    "/data/a\\b.lance",
    "az://lake/a/.\t./b",
    "az://lake/a/.\n./b",
    "az://lake/a/x\u0000y",
    "az://lake/a/x\u0085y",
    "az://lake/a/../b",
    "az://lake/a/./b.lance",
    "/data/a/../b.lance",
    "../b.lance",
    "./b.lance",
    "file:///data/a/../b.lance",
    "az://lake/a/..?/x.lance",
    "s3://bucket/a/x.lance#/../../b",
    "az://user@lake/a/x.lance",
    "s3://bucket:443/a/x.lance",
    "gs://buc%6bet/a/x.lance",
    "az://lake/a/%ff.lance",
    "az://lake/a/%c3.lance",
    "az://lake/a/x%C2%85y",
    "az://lake/a/x%C2%9By",
    "az://lake/a/\ud800.lance",
  ];
  for (const location of refused) assert.throws(() => checkedLocation(location), UnsafeLocation, JSON.stringify(location));
});

test("checkedLocation of plain locations → the same text; object-store escapes of other characters decoded, as Lance reads them", () => {
  for (const plain of ["az://lake/a/tables/x.lance", "s3://bucket/a/b", "gs://my_bucket.example/a", "/data/a/x y.lance", "tables/x.lance", "file:///data/a/x%20y.lance", "az://lake/a/café.lance", "/data/a/x%20y.lance"]) {
    assert.equal(checkedLocation(plain), plain);
  }
  assert.equal(checkedLocation("az://lake/a/x%20y.lance"), "az://lake/a/x y.lance");
  assert.equal(checkedLocation("s3://bucket/a/caf%C3%A9.lance"), "s3://bucket/a/café.lance");
  assert.equal(checkedLocation("gs://bucket/a/%C3%85%C3%A5.lance"), "gs://bucket/a/Åå.lance");
  assert.equal(objectStoreSpelling("tables/x%20y.lance"), "tables/x y.lance");
});

test("isInsideLocation of a candidate spelled with encoded dots or a backslash → false, whatever its text's prefix", () => {
  assert.equal(isInsideLocation("az://lake/a", "az://lake/a/%2e%2e/b/t.lance"), false);
  assert.equal(isInsideLocation("az://lake/a", "az://lake/a/..\\b"), false);
  assert.equal(isInsideLocation("/data/a", "/data/a/%2E%2E/b"), false);
  assert.equal(isInsideLocation("az://lake/a", "az://lake/a/tables/t.lance"), true);
});
