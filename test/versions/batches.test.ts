/**
 * Atomic multi-table commits (spec/endpoints.md §4.5–4.6) and transaction records (§11).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";
import { declaredTable, stageManifest, versionNumbers } from "./fixtures.js";

test("BatchCreateTableVersions", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const a = await declaredTable(server, "a");
  await expectJson(await server.post("/v1/namespace/ns/create", {}));
  const b = await declaredTable(server, "ns$b");
  const list = async (id: string) => versionNumbers(await expectJson(await server.post(`/v1/table/${id}/version/list`)));

  await t.test("entries for two tables → 200; both versions exist, in entry order, one transaction", async () => {
    const body = await expectJson(
      await server.post("/v1/table/version/batch-create", {
        entries: [
          { id: ["a"], version: 1, manifest_path: stageManifest(a, 1), naming_scheme: "V2" },
          { id: ["ns", "b"], version: 1, manifest_path: stageManifest(b, 1) },
          { id: ["a"], version: 2, manifest_path: stageManifest(a, 2), metadata: { k: "v" } },
        ],
      }),
    );
    assert.deepEqual(versionNumbers(body), [1, 1, 2]);
    assert.equal(body.versions[1].manifest_path, path.join(b, "_versions", "18446744073709551614.manifest"));
    assert.deepEqual(await list("a"), [1, 2]);
    assert.deepEqual(await list("ns$b"), [1]);
    const transaction = await expectJson(await server.post(`/v1/transaction/${body.transaction_id}/describe`, {}));
    assert.equal(transaction.status, "Succeeded");
    assert.equal(transaction.properties.operation, "BatchCreateTableVersions");
  });

  await t.test("a batch with one conflicting entry → 409, code 14; nothing of it exists for any table", async () => {
    const stagedA = stageManifest(a, 3);
    const stagedB = stageManifest(b, 2);
    await expectError(
      await server.post("/v1/table/version/batch-create", {
        entries: [
          { id: ["a"], version: 3, manifest_path: stagedA },
          { id: ["ns", "b"], version: 2, manifest_path: stagedB },
          { id: ["a"], version: 1, manifest_path: stageManifest(a, 1) },
        ],
      }),
      409,
      14,
    );
    assert.deepEqual(await list("a"), [1, 2]);
    assert.deepEqual(await list("ns$b"), [1]);
    assert.ok(!existsSync(path.join(a, "_versions", "18446744073709551612.manifest")), "no manifest of the failed batch was put in place");
    assert.ok(existsSync(`/${stagedA}`) && existsSync(`/${stagedB}`), "staged manifests stay with their writer");
  });

  await t.test("a batch naming a missing table → 404 code 4; with a missing staged manifest → 400 code 13; nothing created", async () => {
    await expectError(
      await server.post("/v1/table/version/batch-create", {
        entries: [
          { id: ["a"], version: 3, manifest_path: stageManifest(a, 3) },
          { id: ["ghost"], version: 1, manifest_path: stageManifest(a, 1) },
        ],
      }),
      404,
      4,
    );
    await expectError(
      await server.post("/v1/table/version/batch-create", {
        entries: [
          { id: ["a"], version: 3, manifest_path: stageManifest(a, 3) },
          { id: ["ns", "b"], version: 2, manifest_path: `${b.slice(1)}/_versions/2.manifest-gone` },
        ],
      }),
      400,
      13,
    );
    await expectError(
      await server.post("/v1/table/version/batch-create", {
        entries: [
          { id: ["a"], version: 3, manifest_path: stageManifest(a, 3) },
          { id: ["a"], version: 3, manifest_path: stageManifest(a, 3) },
        ],
      }),
      400,
      13,
    );
    assert.deepEqual(await list("a"), [1, 2]);
    assert.deepEqual(await list("ns$b"), [1]);
  });
});

test("BatchCommitTables", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const old = await declaredTable(server, "old");
  await expectJson(await server.post("/v1/table/version/batch-create", { entries: [1, 2, 3].map((v) => ({ id: ["old"], version: v, manifest_path: stageManifest(old, v) })) }));

  await t.test("declare + create-version + delete-versions + deregister in one call → results in request order", async () => {
    await declaredTable(server, "doomed");
    const database = (await server.runtime.registry.catalogFor("default"))!.database;
    const newLocation = path.join(database.storageRoot, "tables", "fresh.lance");
    const body = await expectJson(
      await server.post("/v1/table/batch-commit", {
        operations: [
          { declare_table: { id: ["fresh"], location: newLocation } },
          { create_table_version: { id: ["fresh"], version: 1, manifest_path: stageManifest(newLocation, 1) } },
          { delete_table_versions: { id: ["old"], ranges: [{ start_version: 0, end_version: -1 }] } },
          { deregister_table: { id: ["doomed"] } },
        ],
      }),
    );
    assert.equal(body.results.length, 4);
    assert.equal(body.results[0].declare_table.location, newLocation);
    assert.equal(body.results[1].create_table_version.version.version, 1);
    assert.equal(body.results[2].delete_table_versions.deleted_count, 2);
    assert.deepEqual(body.results[3].deregister_table.id, ["doomed"]);
    await expectError(await server.post("/v1/table/doomed/describe", {}), 404, 4);
    assert.ok(body.results.every((result: Record<string, { transaction_id: string }>) => Object.values(result)[0]!.transaction_id === body.transaction_id));
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/fresh/version/list"))), [1]);
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/old/version/list"))), [3]);
  });

  await t.test("a failing operation undoes the earlier ones: nothing declared, deleted or deregistered", async () => {
    await declaredTable(server, "keep");
    await expectError(
      await server.post("/v1/table/batch-commit", {
        operations: [
          { declare_table: { id: ["new2"] } },
          { deregister_table: { id: ["keep"] } },
          { create_table_version: { id: ["old"], version: 3, manifest_path: stageManifest(old, 3) } },
        ],
      }),
      409,
      14,
    );
    await expectError(await server.post("/v1/table/new2/describe", {}), 404, 4);
    await expectJson(await server.post("/v1/table/keep/describe", {}));
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/old/version/list"))), [3]);
  });

  await t.test("deregister inside a batch → the table is gone, its files stay", async () => {
    const body = await expectJson(await server.post("/v1/table/batch-commit", { operations: [{ deregister_table: { id: ["old"] } }] }));
    assert.equal(body.results[0].deregister_table.location, old);
    await expectError(await server.post("/v1/table/old/describe", {}), 404, 4);
    assert.ok(existsSync(path.join(old, "_versions")));
  });

  await t.test("two versions naming one staged manifest → 400, code 13; the declare beside them does not stay", async () => {
    const shared = await declaredTable(server, "shared");
    const staged = stageManifest(shared, 1);
    await expectError(
      await server.post("/v1/table/batch-commit", {
        operations: [
          { declare_table: { id: ["newcomer"] } },
          { create_table_version: { id: ["shared"], version: 1, manifest_path: staged } },
          { create_table_version: { id: ["shared"], version: 2, manifest_path: staged } },
        ],
      }),
      400,
      13,
    );
    await expectError(await server.post("/v1/table/newcomer/exists", {}), 404, 4);
    assert.ok(existsSync(`/${staged}`), "the staged manifest is left to its writer");
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/shared/version/list"))), []);
  });

  await t.test("a version and a deregister of the same table in one batch → both applied, the version finalized", async () => {
    const leaving = await declaredTable(server, "leaving");
    const body = await expectJson(
      await server.post("/v1/table/batch-commit", {
        operations: [{ create_table_version: { id: ["leaving"], version: 1, manifest_path: stageManifest(leaving, 1) } }, { deregister_table: { id: ["leaving"] } }],
      }),
    );
    assert.equal(body.results[0].create_table_version.version.version, 1);
    assert.ok(existsSync(path.join(leaving, "_versions", "18446744073709551614.manifest")));
    await expectError(await server.post("/v1/table/leaving/exists", {}), 404, 4);
  });

  await t.test("an operation with zero or two kinds set → 400, code 13", async () => {
    await expectError(await server.post("/v1/table/batch-commit", { operations: [{}] }), 400, 13);
    await expectError(
      await server.post("/v1/table/batch-commit", { operations: [{ declare_table: { id: ["x"] }, deregister_table: { id: ["keep"] } }] }),
      400,
      13,
    );
    await expectError(await server.post("/v1/table/x/describe", {}), 404, 4);
  });
});

test("transactions", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const location = await declaredTable(server, "t");
  const created = await expectJson(await server.post("/v1/table/t/version/create", { version: 1, manifest_path: stageManifest(location, 1) }));
  const id = created.transaction_id as string;

  await t.test("DescribeTransaction of a write's transaction_id → Succeeded with its properties", async () => {
    const body = await expectJson(await server.post(`/v1/transaction/${id}/describe`, { id: ["t"] }));
    assert.equal(body.status, "Succeeded");
    assert.deepEqual(body.properties, { operation: "CreateTableVersion", table: "t", version: "1" });
  });

  await t.test("AlterTransaction applies property actions in order", async () => {
    const body = await expectJson(
      await server.post(`/v1/transaction/${id}/alter`, {
        actions: [
          { setPropertyAction: { key: "owner", value: "ana" } },
          { setPropertyAction: { key: "owner", value: "bo", mode: "Skip" } },
          { setPropertyAction: { key: "note", value: "x" } },
          { unsetPropertyAction: { key: "note" } },
          { unsetPropertyAction: { key: "never-set" } },
        ],
      }),
    );
    assert.equal(body.status, "Succeeded");
    assert.equal(body.properties.owner, "ana");
    assert.equal(body.properties.note, undefined);
  });

  await t.test("AlterTransaction with one failing action applies none: Fail on an existing key → 409 code 14", async () => {
    await expectError(
      await server.post(`/v1/transaction/${id}/alter`, {
        actions: [{ setPropertyAction: { key: "later", value: "1" } }, { setPropertyAction: { key: "owner", value: "zed", mode: "Fail" } }],
      }),
      409,
      14,
    );
    await expectError(await server.post(`/v1/transaction/${id}/alter`, { actions: [{ unsetPropertyAction: { key: "nope", mode: "Fail" } }] }), 400, 13);
    const body = await expectJson(await server.post(`/v1/transaction/${id}/describe`, {}));
    assert.equal(body.properties.owner, "ana");
    assert.equal(body.properties.later, undefined);
  });

  await t.test("AlterTransaction cannot change a finished transaction's outcome → 409 code 14; bad status → 400 code 13", async () => {
    await expectError(await server.post(`/v1/transaction/${id}/alter`, { actions: [{ setStatusAction: { status: "Failed" } }] }), 409, 14);
    await expectError(await server.post(`/v1/transaction/${id}/alter`, { actions: [{ setStatusAction: { status: "Done" } }] }), 400, 13);
    await expectError(await server.post(`/v1/transaction/${id}/alter`, { actions: [] }), 400, 13);
    assert.equal((await expectJson(await server.post(`/v1/transaction/${id}/describe`, {}))).status, "Succeeded");
  });

  await t.test("an unknown transaction → 404, code 10", async () => {
    await expectError(await server.post("/v1/transaction/00000000-0000-0000-0000-000000000000/describe", {}), 404, 10);
    await expectError(await server.post("/v1/transaction/nope/alter", { actions: [{ setStatusAction: { status: "Canceled" } }] }), 404, 10);
  });
});
