// The console's browser modules checked outside a browser: each parses, each import names a
// served file, the error names match the server's code table, and fragments round-trip.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { formatObject } from "../../src/model/authz/objects.js";
import { grantableOn } from "../../src/model/authz/privileges.js";
import { ErrorCode } from "../../src/model/error-codes.js";
import { importUiModule, uiFolder } from "./console-assets.js";

const modules = readdirSync(uiFolder).filter((name) => name.endsWith(".js"));

test("Every console module parses as JavaScript and imports only sibling modules that exist", () => {
  for (const name of modules) {
    const file = path.join(uiFolder, name);
    execFileSync(process.execPath, ["--check", file]);
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(/^import\s[^;]*?from\s+"([^"]+)";/gms)) {
      const target = match[1] as string;
      assert.match(target, /^\.\/[a-z-]+\.js$/, `${name} imports ${target}`);
      assert.ok(modules.includes(target.slice(2)), `${name} imports missing ${target}`);
    }
  }
});

test("The console's error names → the same code → name table the server uses (spec/errors.md §2)", async () => {
  const { ERROR_NAMES } = await importUiModule("api.js");
  assert.deepEqual(
    Object.fromEntries((ERROR_NAMES as string[]).map((name, code) => [name, code])),
    { ...ErrorCode },
  );
});

test("Console fragments: table and namespace hrefs parse back to their ids; unknown fragments are not routes", async () => {
  const { namespaceHref, parseRoute, tableHref } = await importUiModule("routes.js");
  assert.deepEqual(parseRoute(namespaceHref(["a", "b.c"])), { view: "namespace", parts: ["a", "b.c"] });
  assert.deepEqual(parseRoute(namespaceHref([])), { view: "namespace", parts: [] });
  assert.deepEqual(parseRoute(tableHref(["ns", "t-1"])), { view: "table", parts: ["ns", "t-1"], tab: null });
  assert.deepEqual(parseRoute(tableHref(["t"], "rows")), { view: "table", parts: ["t"], tab: "rows" });
  assert.deepEqual(parseRoute("#/jobs"), { view: "jobs" });
  assert.deepEqual(parseRoute(""), { view: "namespace", parts: [] });
  assert.equal(parseRoute("#main"), null);
  assert.deepEqual(parseRoute("#/ns/%E0%A4%A"), { view: "namespace", parts: [] });
});

test("Console Access fragments: a database's and a namespace's Access pages parse back to them; the root namespace's too", async () => {
  const { databaseAccessHref, namespaceAccessHref, parseRoute } = await importUiModule("routes.js");
  assert.deepEqual(parseRoute(databaseAccessHref("sales")), { view: "access", kind: "database", database: "sales" });
  assert.deepEqual(parseRoute(namespaceAccessHref(["a", "b.c"])), { view: "access", kind: "namespace", parts: ["a", "b.c"] });
  assert.deepEqual(parseRoute(namespaceAccessHref([])), { view: "access", kind: "namespace", parts: [] });
  assert.deepEqual(parseRoute("#/access/elsewhere"), { view: "namespace", parts: [] });
});

test("The Access page's objects and privileges → the server's object texts (formatObject) and the privileges grantable on each kind", async () => {
  const { PRIVILEGES, PRIVILEGE_MEANINGS, objectText } = await importUiModule("access-objects.js");
  for (const kind of ["database", "namespace", "table"] as const) {
    assert.deepEqual([...PRIVILEGES[kind]].sort(), [...grantableOn[kind]].sort(), kind);
    for (const privilege of PRIVILEGES[kind]) assert.ok(PRIVILEGE_MEANINGS[privilege], privilege);
  }
  assert.equal(objectText("database", "sales", []), formatObject({ kind: "database", database: "sales" }));
  assert.equal(objectText("namespace", "sales", []), formatObject({ kind: "namespace", database: "sales", namespace: [] }));
  assert.equal(objectText("namespace", "sales", ["a", "b"]), formatObject({ kind: "namespace", database: "sales", namespace: ["a", "b"] }));
  assert.equal(objectText("table", "sales", ["orders"]), formatObject({ kind: "table", database: "sales", namespace: [], name: "orders" }));
  assert.equal(objectText("table", "sales", ["a", "b", "t"]), formatObject({ kind: "table", database: "sales", namespace: ["a", "b"], name: "t" }));
  // A top-level namespace named public has no object: the API would read it as the root.
  assert.equal(objectText("namespace", "sales", ["public"]), null);
  assert.equal(objectText("table", "sales", ["public", "t"]), null);
});

test("pathId of the console → the spec's path form: parts joined by $, percent-encoded; the root is %24", async () => {
  const { pathId } = await importUiModule("api.js");
  assert.equal(pathId([]), "%24");
  assert.equal(pathId(["a", "b"]), "a%24b");
});

test("No console module writes markup or compiles code: data reaches the page as text, and apache-arrow's builders (which use new Function, refused by the CSP) are not called", () => {
  for (const name of modules) {
    // Comments may name what the code avoids.
    const source = readFileSync(path.join(uiFolder, name), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    assert.doesNotMatch(source, /\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write|\beval\(|new Function/, name);
    assert.doesNotMatch(source, /\b(vectorFromArray|tableFromJSON|tableFromArrays|makeBuilder|builderThrough\w*)\b/, name);
  }
});
