// A table's life on the object stores `npm test` runs no table suite on: S3 (s3rver) and Cloud
// Storage (the GCS emulator), from the tests' one list of backends (local folders and Azurite run
// every table suite in the first two passes). One server per backend, its data location on the
// store, handing clients the store's options; the real LanceDB clients create, insert, query, list
// versions and drop, the namespace client writing table data to the store itself and the
// managed-deployment client through Quiver's engine. s3rver ignores conditional creates, so its
// server runs with the conditional-create probe off, as an operator accepting the risk would.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { joinLocation } from "../../src/storage/locations.js";
import { Storages } from "../../src/storage/storages.js";
import { storageBackendsUnderTest } from "../helpers/storage-backends.js";
import { expectError, expectJson, startTestServer, type TestServer } from "../helpers/test-server.js";

const rowsFrom = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: from + i, label: `row ${from + i}` }));

async function idsOf(table: lancedb.Table, filter: string): Promise<number[]> {
  return (await table.query().where(filter).toArray()).map((row) => Number(row.id)).sort((a, b) => a - b);
}

for (const backend of storageBackendsUnderTest(["s3", "gcs"])) {
  describe(`tables on ${backend.endpoint}`, () => {
    let server: TestServer;
    /** The tests' own view of the store, to see the objects the clients and the server wrote. */
    const storages = new Storages();

    before(async () => {
      const { root, storageOptions } = await backend.freshRoot();
      const data = joinLocation(root, "data");
      await storages.configure(data, storageOptions);
      server = await startTestServer({
        data,
        storageOptions,
        // Clients get the store's options as they are: neither endpoint can mint scoped credentials.
        vending: { mode: "static", ttlSeconds: 3600 },
        allowUnsafeObjectStore: backend.ignoresConditionalCreates !== undefined,
      });
    });

    after(async () => {
      await server?.close();
      await backend.stop();
    });

    test(`${backend.name}: create, insert, query, list versions and drop with the LanceDB clients → each answers as on a local folder, and the table's files are on the store`, async () => {
      const direct = await lancedb.connectNamespace("rest", { uri: server.url });
      const managed = await lancedb.connect("db://smoke", { apiKey: "any", hostOverride: server.url });

      // Create: the namespace client writes the first version to the store itself.
      await direct.createTable("smoke", rowsFrom(0, 3));
      const described = await expectJson<{ location: string; version: number }>(await server.post("/v1/table/smoke/describe", {}));
      assert.ok(described.location.startsWith(server.dataLocation), `${described.location} is under ${server.dataLocation}`);
      assert.equal(described.version, 1);

      // Insert through Quiver, whose engine writes the second version.
      const throughQuiver = await managed.openTable("smoke");
      await throughQuiver.add(rowsFrom(3, 2));
      assert.equal(await throughQuiver.countRows(), 5);

      // Query: both clients read both versions' rows, the namespace client from the store directly.
      const fromStore = await direct.openTable("smoke");
      assert.deepEqual(await idsOf(fromStore, "id >= 2"), [2, 3, 4]);
      assert.deepEqual(await idsOf(throughQuiver, "id < 2"), [0, 1]);

      // Version list: the two commits, and their manifests are objects on the store.
      const listed = await expectJson<{ versions: { version: number }[] }>(await server.post("/v1/table/smoke/version/list", {}));
      assert.deepEqual(listed.versions.map((entry) => entry.version).sort(), [1, 2]);
      const manifests = (await storages.for(described.location).list(joinLocation(described.location, "_versions"))).filter((entry) => entry.name.endsWith(".manifest"));
      assert.equal(manifests.length, 2, JSON.stringify(manifests));

      // Drop: the table is gone for every client.
      await direct.dropTable("smoke");
      assert.deepEqual(await direct.tableNames(), []);
      await expectError(await server.post("/v1/table/smoke/describe", {}), 404, 4);
    });
  });
}
