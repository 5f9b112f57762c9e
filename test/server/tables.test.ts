import assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { joinLocation } from "../../src/storage/locations.js";
import { arrowStream } from "../helpers/arrow.js";
import { holdsObjects, namesUnder, testBackend, testStorages } from "../helpers/test-backend.js";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";

const rows = () => arrowStream({ id: Int32Array.from([1, 2, 3]), score: Float64Array.from([0.5, 1.5, 2.5]) });

test("table lifecycle", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/shop/create", {}));
  await expectJson(await server.post("/v1/namespace/archive/create", {}));

  await t.test("CreateTable from an Arrow stream → 200 with location and version 1", async () => {
    const body = await expectJson(await server.upload("/v1/table/shop$orders/create?properties=%7B%22team%22%3A%22eng%22%7D", rows()));
    assert.equal(body.version, 1);
    assert.deepEqual(body.properties, { team: "eng" });
    assert.ok(await holdsObjects(joinLocation(body.location, "_versions")), "the Lance table is stored");
    assert.ok(body.location.startsWith(server.dataLocation), "the table lives under the data location");
  });

  await t.test("CreateTable with LZ4-compressed buffers and no content type → 200", async () => {
    const body = await expectJson(await server.upload("/v1/table/shop$lz4/create", rowsLz4(), null));
    assert.equal(body.version, 1);
  });

  await t.test("CreateTable of an existing table in mode Create → 409, code 5", async () => {
    await expectError(await server.upload("/v1/table/shop$orders/create", rows()), 409, 5);
  });

  await t.test("CreateTable in mode ExistOk → 200, keeps the table", async () => {
    const body = await expectJson(await server.upload("/v1/table/shop$orders/create?mode=exist_ok", arrowStream({ other: Int32Array.from([9]) })));
    assert.equal(body.version, 1);
  });

  await t.test("CreateTable in mode Overwrite → a new version with the new rows", async () => {
    const body = await expectJson(await server.upload("/v1/table/shop$scratch/create", rows()));
    const again = await expectJson(await server.upload("/v1/table/shop$scratch/create?mode=overwrite", arrowStream({ x: Int32Array.from([7]) })));
    assert.equal(again.location, body.location);
    assert.equal(again.version, 2);
    const described = await expectJson(await server.post("/v1/table/shop$scratch/describe", {}));
    assert.deepEqual(described.schema.fields.map((f: { name: string }) => f.name), ["x"]);
  });

  await t.test("CreateTable with a bad body or bad query → 400, code 13, nothing created", async () => {
    await expectError(await server.upload("/v1/table/shop$bad/create", new TextEncoder().encode("not arrow")), 400, 13);
    await expectError(await server.upload("/v1/table/shop$bad/create", new Uint8Array()), 400, 13);
    await expectError(await server.upload("/v1/table/shop$bad/create?properties=%7Bnope", rows()), 400, 13);
    await expectError(await server.upload("/v1/table/shop$bad/create?mode=sideways", rows()), 400, 13);
    await expectError(await server.post("/v1/table/shop$bad/exists", {}), 404, 4);
  });

  await t.test("CreateTable in a missing namespace → 404, code 1", async () => {
    await expectError(await server.upload("/v1/table/ghost$t/create", rows()), 404, 1);
  });

  await t.test("DescribeTable → location, version, schema with Lance type names, stats, properties", async () => {
    const body = await expectJson(await server.post("/v1/table/shop$orders/describe", {}));
    assert.equal(body.version, 1);
    assert.deepEqual(body.schema.fields, [
      { name: "id", type: { type: "int32" }, nullable: false },
      { name: "score", type: { type: "double" }, nullable: false },
    ]);
    assert.deepEqual(body.properties, { team: "eng" });
    assert.equal(body.stats.num_fragments, 1);
    assert.equal(body.managed_versioning, false);
    assert.deepEqual(body.namespace, ["shop"]);
    assert.equal(body.table, "orders");
  });

  await t.test("DescribeTable with query switches: table_uri, is_only_declared, no details", async () => {
    const body = await expectJson(await server.post("/v1/table/shop$orders/describe?with_table_uri=true&check_declared=true&load_detailed_metadata=false", {}));
    assert.equal(body.table_uri, testBackend === "local" ? pathToFileURL(body.location).href : body.location);
    assert.equal(body.is_only_declared, false);
    assert.equal(body.schema, undefined);
  });

  await t.test("DescribeTable at a missing version → 404, code 11; of a missing table → 404, code 4", async () => {
    await expectError(await server.post("/v1/table/shop$orders/describe", { version: 42 }), 404, 11);
    await expectError(await server.post("/v1/table/shop$nope/describe", {}), 404, 4);
    await expectError(await server.post("/v1/table/nons$nope/describe", {}), 404, 1);
  });

  await t.test("DescribeTable with tag and version together → 400, code 13", async () => {
    await expectError(await server.post("/v1/table/shop$orders/describe", { tag: "t", version: 1 }), 400, 13);
  });

  await t.test("DeclareTable reserves a name and a location; describe reports it declared-only", async () => {
    const declared = await expectJson(await server.post("/v1/table/shop$planned/declare", { properties: { p: "1" } }));
    assert.ok(declared.location.endsWith(".lance"));
    assert.equal(declared.managed_versioning, false);
    assert.equal(await holdsObjects(declared.location), false, "declare writes no storage");
    const described = await expectJson(await server.post("/v1/table/shop$planned/describe?check_declared=true", {}));
    assert.equal(described.is_only_declared, true);
    assert.equal(described.version, undefined);
    await expectError(await server.post("/v1/table/shop$planned/describe?load_detailed_metadata=true", {}), 409, 19);
    assert.equal((await server.post("/v1/table/shop$planned/exists", {})).status, 200);
    await expectError(await server.post("/v1/table/shop$planned/declare", {}), 409, 5);
  });

  await t.test("ListTables includes declared tables unless include_declared=false", async () => {
    const all = await expectJson(await server.get("/v1/namespace/shop/table/list"));
    assert.deepEqual(all.tables, ["lz4", "orders", "planned", "scratch"]);
    const stored = await expectJson(await server.get("/v1/namespace/shop/table/list?include_declared=false"));
    assert.deepEqual(stored.tables, ["lz4", "orders", "scratch"]);
    const paged = await expectJson(await server.get("/v1/namespace/shop/table/list?limit=3"));
    assert.deepEqual(paged.tables, ["lz4", "orders", "planned"]);
    const rest = await expectJson(await server.get(`/v1/namespace/shop/table/list?limit=3&page_token=${paged.page_token}`));
    assert.deepEqual(rest.tables, ["scratch"]);
  });

  await t.test("CreateTable on a declared-only table fills it at the declared location", async () => {
    const declared = await expectJson(await server.post("/v1/table/shop$planned/describe", {}));
    const created = await expectJson(await server.upload("/v1/table/shop$planned/create", rows()));
    assert.equal(created.location, declared.location);
    assert.deepEqual(created.properties, { p: "1" });
  });

  await t.test("ListAllTables → every table by full id, with a custom delimiter too", async () => {
    await expectJson(await server.upload("/v1/table/top/create", rows()));
    const body = await expectJson(await server.get("/v1/table"));
    assert.deepEqual(body.tables, ["shop$lz4", "shop$orders", "shop$planned", "shop$scratch", "top"]);
    const dotted = await expectJson(await server.get("/v1/table/?delimiter=.&limit=2"));
    assert.deepEqual(dotted.tables, ["shop.lz4", "shop.orders"]);
    assert.equal(dotted.page_token, "shop.orders");
  });

  await t.test("RenameTable into another namespace is metadata-only: the data does not move", async () => {
    const before = await expectJson(await server.post("/v1/table/shop$scratch/describe", {}));
    await expectJson(await server.post("/v1/table/shop$scratch/rename", { new_table_name: "kept", new_namespace_id: ["archive"] }));
    const after = await expectJson(await server.post("/v1/table/archive$kept/describe", {}));
    assert.equal(after.location, before.location);
    assert.equal(after.version, before.version);
    await expectError(await server.post("/v1/table/shop$scratch/describe", {}), 404, 4);
  });

  await t.test("RenameTable onto a taken name → 409 code 5; into a missing namespace → 404 code 1", async () => {
    await expectError(await server.post("/v1/table/shop$lz4/rename", { new_table_name: "orders" }), 409, 5);
    await expectError(await server.post("/v1/table/shop$lz4/rename", { new_table_name: "x", new_namespace_id: ["ghost"] }), 404, 1);
    await expectError(await server.post("/v1/table/shop$lz4/rename", { new_table_name: "bad/name" }), 400, 13);
  });

  await t.test("a table and a namespace cannot share a name under one parent", async () => {
    await expectError(await server.post("/v1/namespace/top/create", {}), 409, 2);
    await expectError(await server.upload("/v1/table/shop/create", rows()), 409, 5);
  });

  await t.test("RestoreTable makes an old version the newest", async () => {
    await expectJson(await server.upload("/v1/table/shop$lz4/create?mode=overwrite", arrowStream({ y: Int32Array.from([1]) })));
    const restored = await expectJson(await server.post("/v1/table/shop$lz4/restore", { version: 1 }));
    assert.equal(restored.version, 3);
    const described = await expectJson(await server.post("/v1/table/shop$lz4/describe", {}));
    assert.deepEqual(described.schema.fields.map((f: { name: string }) => f.name), ["id", "score"]);
    await expectError(await server.post("/v1/table/shop$lz4/restore", { version: 99 }), 404, 11);
    await expectError(await server.post("/v1/table/shop$lz4/restore", {}), 400, 13);
  });

  await t.test("DeregisterTable keeps the files; RegisterTable brings the table back", async () => {
    const dropped = await expectJson(await server.post("/v1/table/shop$orders/deregister", {}));
    assert.deepEqual(dropped.id, ["shop", "orders"]);
    assert.ok(await holdsObjects(dropped.location));
    await expectError(await server.post("/v1/table/shop$orders/describe", {}), 404, 4);
    await expectError(await server.post("/v1/table/shop$orders/deregister", {}), 404, 4);
    const registered = await expectJson(await server.post("/v1/table/archive$orders/register", { location: dropped.location }));
    assert.equal(registered.location, dropped.location);
    const described = await expectJson(await server.post("/v1/table/archive$orders/describe", {}));
    assert.equal(described.version, 1);
  });

  await t.test("DeregisterTable then RegisterTable keeps the table's properties; properties given to register win", async () => {
    const properties = encodeURIComponent(JSON.stringify({ owner: "ana", tier: "gold" }));
    await expectJson(await server.upload(`/v1/table/shop$kept/create?properties=${properties}`, arrowStream({ id: Int32Array.from([1]) })));
    const left = await expectJson(await server.post("/v1/table/shop$kept/deregister", {}));
    assert.deepEqual(left.properties, { owner: "ana", tier: "gold" });
    const back = await expectJson(await server.post("/v1/table/shop$kept/register", { location: left.location }));
    assert.deepEqual(back.properties, { owner: "ana", tier: "gold" });
    const described = await expectJson(await server.post("/v1/table/shop$kept/describe", {}));
    assert.deepEqual(described.properties, { owner: "ana", tier: "gold" });

    const again = await expectJson(await server.post("/v1/table/shop$kept/deregister", {}));
    const renamed = await expectJson(await server.post("/v1/table/shop$kept2/register", { location: again.location, properties: { owner: "bo" } }));
    assert.deepEqual(renamed.properties, { owner: "bo" });
    assert.deepEqual((await expectJson(await server.post("/v1/table/shop$kept2/describe", {}))).properties, { owner: "bo" });
  });

  await t.test("RegisterTable refuses locations outside the root, without data, or already taken", async () => {
    await expectError(await server.post("/v1/table/shop$evil/register", { location: "/etc/passwd.lance" }), 400, 13);
    await expectError(await server.post("/v1/table/shop$evil/register", { location: "../../../outside.lance" }), 400, 13);
    await expectError(await server.post("/v1/table/shop$evil/register", { location: "s3://bucket/t.lance" }), 400, 13);
    await expectError(await server.post("/v1/table/shop$evil/register", { location: "tables/none.lance" }), 400, 13);
    const owned = await expectJson(await server.post("/v1/table/archive$orders/describe", {}));
    await expectError(await server.post("/v1/table/shop$twin/register", { location: owned.location }), 400, 13);
    await expectError(await server.post("/v1/table/shop$evil/register", {}), 400, 13);
    await expectError(await server.post("/v1/table/shop$evil/exists", {}), 404, 4);
  });

  // Links and name limits are a file system's: object stores have neither.
  if (testBackend === "local") await t.test("RegisterTable and DeclareTable at a location the file system cannot resolve (a link loop, a name too long) → 400, code 13", async () => {
    const storageRoot = path.join(server.root, "databases", "default");
    symlinkSync(path.join(storageRoot, "loop"), path.join(storageRoot, "loop"));
    for (const operation of ["register", "declare"]) {
      await expectError(await server.post(`/v1/table/shop$looped/${operation}`, { location: "loop/t.lance" }), 400, 13);
      await expectError(await server.post(`/v1/table/shop$long/${operation}`, { location: `${"a".repeat(300)}.lance` }), 400, 13);
    }
  });

  await t.test("RegisterTable where the kept-properties file cannot be read → 200 with no kept properties", async () => {
    await expectJson(await server.upload("/v1/table/shop$odd/create", arrowStream({ id: Int32Array.from([1]) })));
    const left = await expectJson(await server.post("/v1/table/shop$odd/deregister", {}));
    const kept = joinLocation(left.location, ".quiver-properties.json");
    if (testBackend === "local") {
      rmSync(kept, { force: true });
      mkdirSync(kept);
    } else {
      await testStorages.for(kept).put(kept, Buffer.from("{ not json"));
    }
    const back = await expectJson(await server.post("/v1/table/shop$odd/register", { location: left.location }));
    assert.deepEqual(back.properties, {});
  });

  await t.test("DeclareTable refuses a location outside the root → 400, code 13", async () => {
    await expectError(await server.post("/v1/table/shop$x/declare", { location: "/tmp/elsewhere.lance" }), 400, 13);
  });

  await t.test("DeclareTable refuses another table's location, or one inside it → 400 code 13; its data survives", async () => {
    const owner = await expectJson(await server.post("/v1/table/shop$lz4/describe", {}));
    await expectError(await server.post("/v1/table/shop$thief/declare", { location: owner.location }), 400, 13);
    await expectError(await server.post("/v1/table/shop$thief/declare", { location: `${owner.location}/nested.lance` }), 400, 13);
    await expectError(await server.post("/v1/table/shop$thief/exists", {}), 404, 4);
    assert.equal((await expectJson(await server.post("/v1/table/shop$lz4/describe", {}))).version, owner.version);
  });

  await t.test("DropTable removes the table and deletes its data", async () => {
    const described = await expectJson(await server.post("/v1/table/archive$kept/describe", {}));
    const dropped = await expectJson(await server.post("/v1/table/archive$kept/drop"));
    assert.deepEqual(dropped.id, ["archive", "kept"]);
    assert.equal(await holdsObjects(described.location), false);
    await expectError(await server.post("/v1/table/archive$kept/drop"), 404, 4);
    await expectError(await server.post("/v1/table/archive$kept/exists", {}), 404, 4);
  });

  await t.test("DropNamespace with Cascade deletes the data of the tables inside", async () => {
    const placed = joinLocation(server.dataLocation, "default", "tables");
    const before = (await namesUnder(placed)).length;
    const described = await expectJson(await server.post("/v1/table/archive$orders/describe", {}));
    await expectJson(await server.post("/v1/namespace/archive/drop", { behavior: "Cascade" }));
    assert.equal(await holdsObjects(described.location), false);
    assert.equal((await namesUnder(placed)).length, before - 1);
    await expectError(await server.post("/v1/table/archive$orders/describe", {}), 404, 1);
  });
});

function rowsLz4(): Uint8Array {
  return arrowStream({ id: Int32Array.from([1, 2, 3]), score: Float64Array.from([0.5, 1.5, 2.5]) }, { lz4: true });
}

test("DescribeTable and RestoreTable on a missing branch → 404, code 22; a missing version → 11", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.upload("/v1/table/t/create", rows()));
  await expectError(await server.post("/v1/table/t/describe", { branch: "nosuch" }), 404, 22);
  await expectError(await server.post("/v1/table/t/restore", { version: 1, branch: "nosuch" }), 404, 22);
  await expectError(await server.post("/v1/table/t/restore", { version: 7 }), 404, 11);
  await expectError(await server.get("/v1/namespace/%24/list?limit=99999999999999999999"), 400, 13);
  await expectError(await server.get("/v1/namespace/%24/table/list?limit=2147483648"), 400, 13);
});
