/**
 * Version operations over HTTP (spec/endpoints.md §3.6, §4.1–4.4).
 */
import assert from "node:assert/strict";
import { closeSync, openSync, rmSync, truncateSync, writeSync } from "node:fs";
import { test } from "node:test";
import { maxManifestBytes } from "../../src/catalog/versions/version-commit.js";
import { joinLocation, objectPathOf } from "../../src/storage/locations.js";
import { namesUnder, testBackend, testStorages } from "../helpers/test-backend.js";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";
import {
  declaredTable,
  filesUnder,
  objectExists,
  readWithLance,
  stageGarbage,
  stageVersion,
  stagedLocation,
  tableWithVersions,
  versionNumbers,
  wirePath,
} from "./fixtures.js";

test("table versions", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const location = await tableWithVersions(server, "t", 5);

  await t.test("ListTableVersions → every version ascending, with manifest path, size and time", async () => {
    const body = await expectJson(await server.post("/v1/table/t/version/list"));
    assert.deepEqual(versionNumbers(body), [1, 2, 3, 4, 5]);
    const [first] = body.versions;
    assert.equal(first.manifest_path, objectPathOf(joinLocation(location, "_versions", "18446744073709551614.manifest")));
    assert.ok(first.manifest_size > 0);
    assert.ok(first.timestamp_millis > Date.now() - 60_000 && first.timestamp_millis <= Date.now());
  });

  await t.test("ListTableVersions descending with limit 1 and body null (mode A probe) → only the latest", async () => {
    const response = await fetch(`${server.url}/v1/table/t/version/list?delimiter=%24&limit=1&descending=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "null",
    });
    const body = await expectJson(response);
    assert.deepEqual(versionNumbers(body), [5]);
    assert.equal(body.page_token, "5");
  });

  await t.test("ListTableVersions pages with limit and page_token, GET and trailing slash too", async () => {
    const page1 = await expectJson(await server.get("/v1/table/t/version/list?limit=2"));
    assert.deepEqual(versionNumbers(page1), [1, 2]);
    const page2 = await expectJson(await server.post(`/v1/table/t/version/list/?limit=2&page_token=${page1.page_token}`));
    assert.deepEqual(versionNumbers(page2), [3, 4]);
    const page3 = await expectJson(await server.post(`/v1/table/t/version/list?limit=2&page_token=${page2.page_token}`));
    assert.deepEqual(versionNumbers(page3), [5]);
    assert.equal(page3.page_token, undefined);
  });

  await t.test("ListTableVersions of a missing table, namespace or branch → 404 with codes 4, 1, 22", async () => {
    await expectError(await server.post("/v1/table/nope/version/list"), 404, 4);
    await expectError(await server.post("/v1/table/ns$nope/version/list"), 404, 1);
    await expectError(await server.post("/v1/table/t/version/list?branch=ghost"), 404, 22);
  });

  await t.test("DescribeTableVersion → the latest by default, a given one on request; a missing one → 404, code 11", async () => {
    const latest = await expectJson(await server.post("/v1/table/t/version/describe", {}));
    assert.equal(latest.version.version, 5);
    const third = await expectJson(await server.post("/v1/table/t/version/describe", { id: ["t"], version: 3 }));
    assert.equal(third.version.version, 3);
    assert.match(third.version.manifest_path, /18446744073709551612\.manifest$/);
    await expectError(await server.post("/v1/table/t/version/describe", { version: 42 }), 404, 11);
  });

  await t.test("DescribeTable at a version and at a tag opens that version", async () => {
    await expectJson(await server.post("/v1/table/t/tags/create", { tag: "second", version: 2 }));
    const atVersion = await expectJson(await server.post("/v1/table/t/describe", { version: 3, load_detailed_metadata: true }));
    assert.equal(atVersion.version, 3);
    assert.equal(atVersion.stats.num_fragments, 3);
    const atTag = await expectJson(await server.post("/v1/table/t/describe", { tag: "second", load_detailed_metadata: true }));
    assert.equal(atTag.version, 2);
    assert.equal(atTag.stats.num_fragments, 2);
    const latest = await expectJson(await server.post("/v1/table/t/describe", { load_detailed_metadata: true }));
    assert.equal(latest.version, 5, "describing older versions changed nothing");
  });

  await t.test("RestoreTable to version 2 → a new version 6 with version 2's content; history kept", async () => {
    const restored = await expectJson(await server.post("/v1/table/t/restore", { version: 2 }));
    assert.equal(restored.version, 6);
    const latest = await expectJson(await server.post("/v1/table/t/describe", { load_detailed_metadata: true }));
    assert.equal(latest.version, 6);
    assert.equal(latest.stats.num_fragments, 2);
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/t/version/list"))), [1, 2, 3, 4, 5, 6]);
    await expectError(await server.post("/v1/table/t/restore", { version: 99 }), 404, 11);
  });

  await t.test("BatchDeleteTableVersions [2, 4) with version 2 tagged → deleted_count 1; only version 3 gone", async () => {
    // version 2 is tagged ("second"), so only version 3 of [2, 4) may go.
    const body = await expectJson(await server.post("/v1/table/t/version/delete", { ranges: [{ start_version: 2, end_version: 4 }] }));
    assert.equal(body.deleted_count, 1);
    assert.equal(typeof body.transaction_id, "string");
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/t/version/list"))), [1, 2, 4, 5, 6]);
    await expectError(await server.post("/v1/table/t/version/describe", { version: 3 }), 404, 11);
  });

  await t.test("BatchDeleteTableVersions {0, -1} deletes every version record but the latest and tagged; data files all stay", async () => {
    const dataBefore = await filesUnder(location, "data");
    assert.equal(dataBefore.size, 5);
    const body = await expectJson(await server.post("/v1/table/t/version/delete", { ranges: [{ start_version: 0, end_version: -1 }] }));
    assert.equal(body.deleted_count, 3, "versions 1, 4 and 5 went; 2 is tagged, 6 is the table's current state");
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/t/version/list"))), [2, 6]);
    assert.deepEqual(await filesUnder(location, "data"), dataBefore, "no data file was deleted or changed");
    const manifests = (await namesUnder(joinLocation(location, "_versions"))).filter((name) => name.endsWith(".manifest"));
    assert.equal(manifests.length, 2);
    const latest = await expectJson(await server.post("/v1/table/t/describe", { load_detailed_metadata: true }));
    assert.equal(latest.version, 6, "the table is still readable at its latest version");
    const atTag = await expectJson(await server.post("/v1/table/t/describe", { tag: "second", load_detailed_metadata: true }));
    assert.equal(atTag.version, 2);
  });

  await t.test("BatchDeleteTableVersions with end below start → 400, code 13, nothing deleted", async () => {
    await expectError(await server.post("/v1/table/t/version/delete", { ranges: [{ start_version: 5, end_version: 2 }] }), 400, 13);
    await expectError(await server.post("/v1/table/t/version/delete", {}), 400, 13);
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/t/version/list"))), [2, 6]);
  });
});

test("CreateTableVersion", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const location = await declaredTable(server, "m");
  // Two writers staged version 1 from the same (empty) table; only one may commit it.
  const first = await stageVersion(location, [1, 2]);
  const rival = await stageVersion(location, [99]);

  await t.test("a staged Lance manifest for version 1 → 200; put at the V2 name, staging file removed; Lance opens version 1 with its rows", async () => {
    const body = await expectJson(
      await server.post("/v1/table/m/version/create", {
        id: ["m"],
        version: first.version,
        manifest_path: first.manifest_path,
        manifest_size: 10,
        naming_scheme: "V2",
        metadata: { who: "test" },
      }),
    );
    const final = joinLocation(location, "_versions", "18446744073709551614.manifest");
    assert.equal(body.version.version, 1);
    assert.equal(body.version.manifest_path, objectPathOf(final));
    assert.deepEqual(body.version.metadata, { who: "test" });
    assert.equal(typeof body.transaction_id, "string");
    assert.ok(await objectExists(final));
    assert.ok(!(await objectExists(stagedLocation(location, first.manifest_path))));
    const listed = await expectJson(await server.post("/v1/table/m/version/list"));
    assert.deepEqual(listed.versions.map((v: { version: number; metadata: unknown }) => [v.version, v.metadata]), [[1, { who: "test" }]]);
    assert.deepEqual(await readWithLance(server.url, ["m"]), { version: 1, ids: [1, 2] });
  });

  await t.test("the same version again → 409, code 14; the first commit's manifest is untouched and Lance still reads its rows", async () => {
    const before = await filesUnder(location, "_versions");
    await expectError(await server.post("/v1/table/m/version/create", { version: rival.version, manifest_path: rival.manifest_path }), 409, 14);
    assert.ok(await objectExists(stagedLocation(location, rival.manifest_path)), "a refused commit leaves the staged manifest to its writer");
    assert.deepEqual(await filesUnder(location, "_versions"), before);
    assert.deepEqual(await readWithLance(server.url, ["m"]), { version: 1, ids: [1, 2] });
  });

  await t.test("naming scheme V1 puts the manifest at _versions/{n}.manifest, where Lance finds it", async () => {
    // Lance refuses a directory holding both naming schemes, so this table keeps to V1.
    const v1Location = await declaredTable(server, "v1");
    const staged = await stageVersion(v1Location, [7]);
    const body = await expectJson(await server.post("/v1/table/v1/version/create", { version: 1, manifest_path: staged.manifest_path, naming_scheme: "v1" }));
    assert.equal(body.version.manifest_path, objectPathOf(joinLocation(v1Location, "_versions", "1.manifest")));
    assert.deepEqual(await readWithLance(server.url, ["v1"]), { version: 1, ids: [7] });
  });

  await t.test("a staged manifest that is missing or outside the table, or a bad field → 400, code 13", async () => {
    const staged = await stageVersion(location, [3]);
    await expectError(await server.post("/v1/table/m/version/create", { version: 3, manifest_path: wirePath(joinLocation(location, "_versions", "3.manifest-missing")) }), 400, 13);
    await expectError(await server.post("/v1/table/m/version/create", { version: 3, manifest_path: "etc/passwd" }), 400, 13);
    await expectError(await server.post("/v1/table/m/version/create", { version: 3, manifest_path: `${wirePath(location)}/../other.lance/x` }), 400, 13);
    await expectError(await server.post("/v1/table/m/version/create", { version: 3, manifest_path: staged.manifest_path, naming_scheme: "V9" }), 400, 13);
    await expectError(await server.post("/v1/table/m/version/create", { version: -1, manifest_path: staged.manifest_path }), 400, 13);
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/m/version/list"))), [1]);
    assert.deepEqual(await readWithLance(server.url, ["m"]), { version: 1, ids: [1, 2] });
  });

  await t.test("a staged file that is not a Lance manifest → 400, code 13; nothing committed, the file left to its writer", async () => {
    const garbage = await stageGarbage(location, 2);
    const refused = await expectError(await server.post("/v1/table/m/version/create", { version: 2, manifest_path: garbage }), 400, 13);
    assert.match(refused.error, /not a Lance manifest/);
    assert.ok(await objectExists(stagedLocation(location, garbage)));
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/m/version/list"))), [1]);
    assert.deepEqual(await readWithLance(server.url, ["m"]), { version: 1, ids: [1, 2] });
  });

  // A file larger than any manifest is only cheap to make as a sparse local file.
  if (testBackend === "local") await t.test("a staged file larger than any manifest (sparse, ending like one) → 400, code 13; nothing committed, later reads still answer", async () => {
    const huge = stagedLocation(location, await stageGarbage(location, 2));
    truncateSync(huge, maxManifestBytes + 1024);
    const handle = openSync(huge, "r+");
    writeSync(handle, Buffer.from("LANC"), 0, 4, maxManifestBytes + 1020);
    closeSync(handle);
    const refused = await expectError(await server.post("/v1/table/m/version/create", { version: 2, manifest_path: wirePath(huge) }), 400, 13);
    assert.match(refused.error, /more than a manifest's/);
    rmSync(huge);
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/m/version/list"))), [1]);
  });

  await t.test("a file of the table that is not a staged manifest → 400, code 13; the file is untouched", async () => {
    const dataFile = joinLocation(location, "data", "part.lance");
    await testStorages.for(dataFile).put(dataFile, Buffer.from("rows"));
    await expectError(await server.post("/v1/table/m/version/create", { version: 3, manifest_path: wirePath(dataFile) }), 400, 13);
    assert.equal((await testStorages.for(dataFile).read(dataFile))?.toString("utf8"), "rows");
    assert.deepEqual(versionNumbers(await expectJson(await server.post("/v1/table/m/version/list"))), [1]);
  });

  await t.test("on a missing table or branch → 404 with codes 4 and 22", async () => {
    await expectError(await server.post("/v1/table/ghost/version/create", { version: 1, manifest_path: rival.manifest_path }), 404, 4);
    await expectError(await server.post("/v1/table/m/version/create", { version: 3, branch: "dev", manifest_path: rival.manifest_path }), 404, 22);
  });
});
