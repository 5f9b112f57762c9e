/**
 * Client conformance, namespaces: the same cases and expectations for `dir` and `rest`.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { implementations, openClient, rejectsWith, sampleTable } from "./client-fixtures.js";

for (const impl of implementations) {
  describe(`namespace client (${impl}): namespaces`, () => {
    test("CreateNamespace nested with properties → DescribeNamespace returns them, ListNamespaces lists direct children only", async (t) => {
      const { ns } = await openClient(t, impl);
      const created = await ns.createNamespace({ id: ["sales"], properties: { owner: "ana" } });
      await ns.createNamespace({ id: ["sales", "eu"] });
      await ns.createNamespace({ id: ["ops"] });

      assert.deepEqual(created.properties, { owner: "ana" });
      assert.deepEqual(await ns.describeNamespace({ id: ["sales"] }), { properties: { owner: "ana" } });
      assert.deepEqual((await ns.listNamespaces()).namespaces.sort(), ["ops", "sales"]);
      assert.deepEqual(await ns.listNamespaces({ id: ["sales"] }), { namespaces: ["eu"] });
      assert.deepEqual(await ns.listNamespaces({ id: ["sales", "eu"] }), { namespaces: [] });
    });

    test("CreateNamespace on an existing name → code 2; ExistOk (also quoted) keeps the first properties", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createNamespace({ id: ["a"], properties: { v: "1" } });

      await rejectsWith(ns.createNamespace({ id: ["a"], properties: { v: "2" } }), "NamespaceAlreadyExists", /already exists/);
      assert.deepEqual(await ns.createNamespace({ id: ["a"], mode: "ExistOk", properties: { v: "3" } }), { properties: { v: "1" } });
      assert.deepEqual(await ns.createNamespace({ id: ["a"], mode: '"exist_ok"' }), { properties: { v: "1" } });
      assert.deepEqual(await ns.describeNamespace({ id: ["a"] }), { properties: { v: "1" } });
    });

    test("CreateNamespace under a missing parent → code 1, nothing created", async (t) => {
      const { ns } = await openClient(t, impl);
      await rejectsWith(ns.createNamespace({ id: ["missing", "child"] }), "NamespaceNotFound");
      assert.deepEqual(await ns.listNamespaces(), { namespaces: [] });
    });

    test("CreateNamespace with a bad name, a bad mode or a mistyped field → code 13, nothing created", async (t) => {
      const { ns } = await openClient(t, impl);
      await rejectsWith(ns.createNamespace({ id: ["a/b"] }), "InvalidInput", /may contain only/);
      await rejectsWith(ns.createNamespace({ id: [".."] }), "InvalidInput");
      await rejectsWith(ns.createNamespace({ id: ["a"], mode: "Sometimes" }), "InvalidInput", /mode must be one of/);
      await rejectsWith(ns.createNamespace({ id: ["a"], properties: { n: 1 } as unknown as Record<string, string> }), "InvalidInput", /properties/);
      assert.deepEqual(await ns.listNamespaces(), { namespaces: [] });
    });

    test("NamespaceExists → resolves for an existing namespace and the root, code 1 for a missing one", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createNamespace({ id: ["a"] });
      assert.equal(await ns.namespaceExists({ id: ["a"] }), undefined);
      assert.equal(await ns.namespaceExists(), undefined);
      await rejectsWith(ns.namespaceExists({ id: ["b"] }), "NamespaceNotFound");
    });

    test("DropNamespace Restrict on a namespace holding a table → code 3, both kept; Cascade drops both", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createNamespace({ id: ["a"] });
      await ns.createTable({ namespace: ["a"], name: "t" }, sampleTable());

      await rejectsWith(ns.dropNamespace({ id: ["a"] }), "NamespaceNotEmpty");
      assert.deepEqual(await ns.listTables({ id: ["a"] }), { tables: ["t"] });

      await ns.dropNamespace({ id: ["a"], behavior: "Cascade" });
      await rejectsWith(ns.namespaceExists({ id: ["a"] }), "NamespaceNotFound");
      assert.deepEqual(await ns.listAllTables(), { tables: [] });
    });

    test("DropNamespace of a missing namespace → code 1 with mode Fail, success with mode Skip", async (t) => {
      const { ns } = await openClient(t, impl);
      await rejectsWith(ns.dropNamespace({ id: ["gone"] }), "NamespaceNotFound");
      assert.deepEqual(await ns.dropNamespace({ id: ["gone"], mode: "Skip" }), {});
    });

    test("ListNamespaces with limit 2 → a page_token that leads to the remaining names", async (t) => {
      const { ns } = await openClient(t, impl);
      for (const name of ["n1", "n2", "n3"]) await ns.createNamespace({ id: [name] });

      const first = await ns.listNamespaces({ limit: 2 });
      assert.deepEqual(first.namespaces, ["n1", "n2"]);
      assert.ok(first.page_token, "a page token for the rest");
      const second = await ns.listNamespaces({ limit: 2, page_token: first.page_token });
      assert.deepEqual(second.namespaces, ["n3"]);
      assert.ok(!second.page_token);
    });

    test("a request with context entries succeeds; a context key that is no header name → code 13", async (t) => {
      const { ns } = await openClient(t, impl);
      await ns.createNamespace({ id: ["a"], context: { "trace-id": "abc-1" } });
      assert.deepEqual(await ns.listNamespaces({ context: { "trace-id": "abc-2" } }), { namespaces: ["a"] });
      await rejectsWith(ns.createNamespace({ id: ["b"], context: { "bad key": "x" } }), "InvalidInput", /context key/);
      await rejectsWith(ns.namespaceExists({ id: ["b"] }), "NamespaceNotFound");
    });
  });
}
