/**
 * `connect`: implementation names and required properties, the package export `quiver/client`,
 * and `dir` sharing its folder with a Quiver server.
 */
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { connect } from "../../src/client/index.js";
import { startTestServer, tempRoot } from "../helpers/test-server.js";
import { rejectsWith, sampleTable } from "./client-fixtures.js";

test("connect with an unknown implementation name → code 13 naming the known ones", async () => {
  await rejectsWith(connect("glue", { root: "/tmp" }), "InvalidInput", /unknown namespace implementation "glue"; known: dir, rest/);
});

test("connect dir without root, or rest without uri → code 13 naming the missing property", async () => {
  await rejectsWith(connect("dir", {}), "InvalidInput", /connect\("dir"\): missing required property "root"/);
  await rejectsWith(connect("dir", { root: "  " }), "InvalidInput", /"root" must be a non-empty string/);
  await rejectsWith(connect("rest", { root: "/tmp" }), "InvalidInput", /connect\("rest"\): missing required property "uri"/);
});

test("connect rest with a uri that is not http(s), a bad header property or an empty delimiter → code 13", async () => {
  await rejectsWith(connect("rest", { uri: "not a url" }), "InvalidInput", /not a valid address/);
  await rejectsWith(connect("rest", { uri: "ftp://example.com" }), "InvalidInput", /http or https/);
  await rejectsWith(connect("rest", { uri: "http://localhost:1", "headers.bad name": "x" }), "InvalidInput", /valid header/);
  await rejectsWith(connect("rest", { uri: "http://localhost:1", "headers.x-ok": "a\nb" }), "InvalidInput", /single-line/);
  await rejectsWith(connect("rest", { uri: "http://localhost:1", delimiter: "" }), "InvalidInput", /delimiter/);
});

test("connect dir creates a missing root folder, accepts a file:// root, and answers with the dir implementation", async (t) => {
  const parent = tempRoot("quiver-client-connect-");
  t.after(() => rmSync(parent, { recursive: true, force: true }));
  const root = path.join(parent, "nested", "root");

  const ns = await connect("dir", { root: pathToFileURL(root).href });
  t.after(() => ns.close());
  assert.equal(ns.implName, "dir");
  assert.equal(ns.delimiter, "$");
  assert.equal(existsSync(path.join(root, "quiver.sqlite")), true);
  assert.deepEqual(await ns.listNamespaces(), { namespaces: [] });
});

test("dir ListAllTables joins identifiers with the delimiter property", async (t) => {
  const root = tempRoot("quiver-client-delim-");
  const ns = await connect("dir", { root, delimiter: "." });
  t.after(async () => {
    await ns.close();
    rmSync(root, { recursive: true, force: true });
  });
  await ns.createNamespace({ id: ["a"] });
  await ns.createTable({ namespace: ["a"], name: "t" }, sampleTable());
  assert.deepEqual(await ns.listAllTables(), { tables: ["a.t"] });
});

test("the package export quiver/client resolves from plain Node ESM to connect and NamespaceError", async () => {
  const specifier = "quiver/client";
  const exported = (await import(specifier)) as Record<string, unknown>;
  assert.equal(typeof exported.connect, "function");
  assert.equal(typeof exported.NamespaceError, "function");
  assert.equal(typeof exported.operations, "object");
});

test("a dir client and a Quiver over the same folder see the same namespaces and tables", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const rest = await connect("rest", { uri: server.url });
  await rest.createNamespace({ id: ["shared"], properties: { by: "rest" } });
  const created = await rest.createTable({ namespace: ["shared"], name: "t" }, sampleTable());

  const dir = await connect("dir", { root: server.root });
  t.after(() => dir.close());
  assert.deepEqual(await dir.describeNamespace({ id: ["shared"] }), { properties: { by: "rest" } });
  const described = await dir.describeTable({ id: ["shared", "t"] });
  assert.equal(described.location, created.location);
  assert.equal(described.version, 1);

  await dir.renameTable({ namespace: ["shared"], name: "t", new_table_name: "renamed" });
  assert.deepEqual(await rest.listTables({ id: ["shared"] }), { tables: ["renamed"] });
});
