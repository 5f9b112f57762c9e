/**
 * Atomic multi-table commits (spec/endpoints.md §4.5–4.6) and transaction records (§11), on
 * versions Lance wrote and staged; after each commit Lance itself reads every table back.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { joinLocation, objectPathOf } from "../../src/storage/locations.js";
import { holdsObjects } from "../helpers/test-backend.js";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";
import { declaredTable, objectExists, readLanceAt, readWithLance, stageVersion, stageVersions, stagedLocation, versionNumbers, wirePath } from "./fixtures.js";

test("BatchCreateTableVersions", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const a = await declaredTable(server, "a");
  await expectJson(await server.post("/v1/namespace/ns/create", {}));
  const b = await declaredTable(server, "ns$b");
  const list = async (id: string) => versionNumbers(await expectJson(await server.post(`/v1/table/${id}/version/list`)));

  await t.test("entries for two tables → 200; both versions exist, in entry order, one transaction; Lance opens each table at its new version", async () => {
    const [a1, a2] = await stageVersions(a, [[1], [2]]);
    const b1 = await stageVersion(b, [10]);
    const body = await expectJson(
      await server.post("/v1/table/version/batch-create", {
        entries: [
          { id: ["a"], ...a1, naming_scheme: "V2" },
          { id: ["ns", "b"], ...b1 },
          { id: ["a"], ...a2, metadata: { k: "v" } },
        ],
      }),
    );
    assert.deepEqual(versionNumbers(body), [1, 1, 2]);
    // Lance reads first: the catalog's own readers would finalize anything the batch left pending.
    assert.deepEqual(await readWithLance(server.url, ["a"]), { version: 2, ids: [1, 2] });
    assert.deepEqual(await readWithLance(server.url, ["ns", "b"]), { version: 1, ids: [10] });
    assert.equal(body.versions[1].manifest_path, objectPathOf(joinLocation(b, "_versions", "18446744073709551614.manifest")));
    assert.deepEqual(await list("a"), [1, 2]);
    assert.deepEqual(await list("ns$b"), [1]);
    const transaction = await expectJson(await server.post(`/v1/transaction/${body.transaction_id}/describe`, {}));
    assert.equal(transaction.status, "Succeeded");
    assert.equal(transaction.properties.operation, "BatchCreateTableVersions");
  });

  await t.test("a batch with one conflicting entry → 409, code 14; nothing of it exists for any table, in the catalog or for Lance", async () => {
    // Another writer staged version 3 of `a` from the same state and committed it first.
    const rival = await stageVersion(a, [30]);
    const stagedA = await stageVersion(a, [3]);
    const stagedB = await stageVersion(b, [11]);
    await expectJson(await server.post("/v1/table/a/version/create", rival));
    await expectError(
      await server.post("/v1/table/version/batch-create", {
        entries: [
          { id: ["ns", "b"], ...stagedB },
          { id: ["a"], ...stagedA },
        ],
      }),
      409,
      14,
    );
    assert.deepEqual(await list("a"), [1, 2, 3]);
    assert.deepEqual(await list("ns$b"), [1]);
    assert.ok(!(await objectExists(joinLocation(b, "_versions", "18446744073709551613.manifest"))), "no manifest of the failed batch was put in place");
    assert.ok(
      (await objectExists(stagedLocation(a, stagedA.manifest_path))) && (await objectExists(stagedLocation(b, stagedB.manifest_path))),
      "staged manifests stay with their writer",
    );
    assert.deepEqual(await readWithLance(server.url, ["a"]), { version: 3, ids: [1, 2, 30] });
    assert.deepEqual(await readWithLance(server.url, ["ns", "b"]), { version: 1, ids: [10] });
  });

  await t.test("a batch naming a missing table → 404 code 4; with a missing staged manifest → 400 code 13; nothing created", async () => {
    const stagedA = await stageVersion(a, [4]);
    await expectError(
      await server.post("/v1/table/version/batch-create", {
        entries: [
          { id: ["a"], ...stagedA },
          { id: ["ghost"], ...stagedA, version: 1 },
        ],
      }),
      404,
      4,
    );
    await expectError(
      await server.post("/v1/table/version/batch-create", {
        entries: [
          { id: ["a"], ...stagedA },
          { id: ["ns", "b"], version: 2, manifest_path: wirePath(joinLocation(b, "_versions", "18446744073709551613.manifest-gone")) },
        ],
      }),
      400,
      13,
    );
    await expectError(
      await server.post("/v1/table/version/batch-create", {
        entries: [
          { id: ["a"], ...stagedA },
          { id: ["a"], ...stagedA },
        ],
      }),
      400,
      13,
    );
    assert.deepEqual(await list("a"), [1, 2, 3]);
    assert.deepEqual(await list("ns$b"), [1]);
    assert.deepEqual(await readWithLance(server.url, ["a"]), { version: 3, ids: [1, 2, 30] });
  });
});

test("BatchCommitTables", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const old = await declaredTable(server, "old");
  const [old1, old2] = await stageVersions(old, [[1], [2]]);
  await expectJson(await server.post("/v1/table/version/batch-create", { entries: [old1, old2].map((staged) => ({ id: ["old"], ...staged })) }));
  assert.deepEqual(await readWithLance(server.url, ["old"]), { version: 2, ids: [1, 2] });
  // Two writers staged version 3 of `old`; the second commits it, the first comes too late below.
  const lateOld3 = await stageVersion(old, [30]);
  await expectJson(await server.post("/v1/table/old/version/create", await stageVersion(old, [3])));

  await t.test("declare + create-version + delete-versions + deregister in one call → results in request order; Lance reads the new table and the trimmed one", async () => {
    await declaredTable(server, "doomed");
    const database = (await server.runtime.registry.catalogFor("default"))!.database;
    const newLocation = joinLocation(database.storageRoot, "tables", "fresh.lance");
    const body = await expectJson(
      await server.post("/v1/table/batch-commit", {
        operations: [
          { declare_table: { id: ["fresh"], location: newLocation } },
          { create_table_version: { id: ["fresh"], ...(await stageVersion(newLocation, [5, 6])) } },
          { delete_table_versions: { id: ["old"], ranges: [{ start_version: 0, end_version: -1 }] } },
          { deregister_table: { id: ["doomed"] } },
        ],
      }),
    );
    assert.deepEqual(await readWithLance(server.url, ["fresh"]), { version: 1, ids: [5, 6] });
    assert.deepEqual(await readWithLance(server.url, ["old"]), { version: 3, ids: [1, 2, 3] });
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
        operations: [{ declare_table: { id: ["new2"] } }, { deregister_table: { id: ["keep"] } }, { create_table_version: { id: ["old"], ...lateOld3 } }],
      }),
      409,
      14,
    );
    await expectError(await server.post("/v1/table/new2/describe", {}), 404, 4);
    await expectJson(await server.post("/v1/table/keep/describe", {}));
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/old/version/list"))), [3]);
    assert.deepEqual(await readWithLance(server.url, ["old"]), { version: 3, ids: [1, 2, 3] });
  });

  await t.test("deregister inside a batch → the table is gone, its files stay", async () => {
    const body = await expectJson(await server.post("/v1/table/batch-commit", { operations: [{ deregister_table: { id: ["old"] } }] }));
    assert.equal(body.results[0].deregister_table.location, old);
    await expectError(await server.post("/v1/table/old/describe", {}), 404, 4);
    assert.ok(await holdsObjects(joinLocation(old, "_versions")));
  });

  await t.test("two versions naming one staged manifest → 400, code 13; the declare beside them does not stay", async () => {
    const shared = await declaredTable(server, "shared");
    const staged = await stageVersion(shared, [1]);
    await expectError(
      await server.post("/v1/table/batch-commit", {
        operations: [
          { declare_table: { id: ["newcomer"] } },
          { create_table_version: { id: ["shared"], ...staged } },
          { create_table_version: { id: ["shared"], ...staged, version: 2 } },
        ],
      }),
      400,
      13,
    );
    await expectError(await server.post("/v1/table/newcomer/exists", {}), 404, 4);
    assert.ok(await objectExists(stagedLocation(shared, staged.manifest_path)), "the staged manifest is left to its writer");
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/shared/version/list"))), []);
  });

  await t.test("a version and a deregister of the same table in one batch → both applied, the version finalized", async () => {
    const leaving = await declaredTable(server, "leaving");
    const body = await expectJson(
      await server.post("/v1/table/batch-commit", {
        operations: [{ create_table_version: { id: ["leaving"], ...(await stageVersion(leaving, [8])) } }, { deregister_table: { id: ["leaving"] } }],
      }),
    );
    assert.equal(body.results[0].create_table_version.version.version, 1);
    assert.ok(await objectExists(joinLocation(leaving, "_versions", "18446744073709551614.manifest")));
    assert.deepEqual(await readLanceAt(leaving), { version: 1, ids: [8] }, "Lance reads the deregistered table's files at the new version");
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
  const created = await expectJson(await server.post("/v1/table/t/version/create", await stageVersion(location, [1])));
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
