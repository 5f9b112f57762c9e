// Keeps the error-code registry and its documentation in step, in both directions.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { ErrorCode, errorCodeName, errorStatus } from "../../src/model/error-codes.js";

const doc = readFileSync(new URL("../../../docs/errors.md", import.meta.url), "utf8");
const documented = [...doc.matchAll(/^\| (\d+) \| (\w+) \| (\d+) \|$/gm)].map((m) => ({ code: Number(m[1]), name: m[2], status: Number(m[3]) }));

test("the registry has the 24 codes 0–23, each with a status", () => {
  const codes = Object.values(ErrorCode).sort((a, b) => a - b);
  assert.deepEqual(codes, Array.from({ length: 24 }, (_, i) => i));
  for (const code of codes) assert.ok(errorStatus[code] >= 400, `status of ${code}`);
});

test("docs/errors.md lists exactly the registry's codes, names and statuses", () => {
  assert.equal(documented.length, Object.keys(ErrorCode).length);
  for (const row of documented) {
    assert.equal(errorCodeName(row.code), row.name, `name of ${row.code}`);
    assert.equal(errorStatus[row.code as keyof typeof errorStatus], row.status, `status of ${row.code}`);
  }
});

test("an unknown code is named Internal, as clients treat it", () => {
  assert.equal(errorCodeName(99), "Internal");
});
