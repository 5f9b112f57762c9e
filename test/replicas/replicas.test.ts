// Several `quiver serve` processes on one PostgreSQL catalog and one data location, over HTTP and
// the real LanceDB client: what one replica writes the other sees at once; concurrent writers
// through both lose nothing, duplicate nothing, and every contested create has exactly one winner.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import * as lancedb from "@lancedb/lancedb";
import { type ServeProcess, spawnServe } from "../helpers/cli-process.js";
import { arrowStream } from "../helpers/arrow.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";
import { stageManifest } from "../../bench/version-commits.js";

interface Replicas {
  storeUrl: string;
  data: string;
  urls: string[];
  servers: ServeProcess[];
}

/** Starts `count` replicas on a fresh PostgreSQL database and a fresh shared data folder. */
async function startReplicas(count: number, args: string[] = [], env: Record<string, string> = {}): Promise<Replicas & { stop(): Promise<void> }> {
  const storeUrl = await freshPostgresDatabase();
  const data = tempRoot("quiver-shared-data-");
  const roots = Array.from({ length: count }, () => tempRoot());
  // Started together: replicas meeting an empty database at once is what deployments do.
  const servers: ServeProcess[] = await Promise.all(roots.map((root) => spawnServe(["--port", "0", "--root", root, "--store", storeUrl, "--data", data, ...args], env)));
  return {
    storeUrl,
    data,
    urls: servers.map((server) => server.url),
    servers,
    async stop() {
      await Promise.all(servers.map((server) => server.stop("SIGKILL")));
      for (const dir of [data, ...roots]) rmSync(dir, { recursive: true, force: true });
    },
  };
}

const post = (url: string, route: string, body?: unknown) =>
  fetch(url + route, { method: "POST", headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

const upload = (url: string, route: string, bytes: Uint8Array) =>
  fetch(url + route, { method: "POST", headers: { "content-type": "application/vnd.apache.arrow.stream" }, body: bytes });

/** Status and error code of each answer, winners first; drains every body. */
async function outcomes(responses: Response[]): Promise<{ ok: number; codes: number[] }> {
  let ok = 0;
  const codes: number[] = [];
  for (const response of responses) {
    const body = (await response.json()) as { code?: number };
    if (response.ok) ok += 1;
    else codes.push(body.code ?? -1);
  }
  return { ok, codes };
}

let pair: Replicas & { stop(): Promise<void> };

before(async () => {
  pair = await startReplicas(2, ["--managed-versioning"]);
});
after(() => pair.stop());

test("a namespace and a table made on one replica are visible on the other at once", async () => {
  const [a, b] = pair.urls as [string, string];
  await expectJson(await post(a, "/v1/namespace/shared/create", { properties: { team: "ml" } }));
  const described = await expectJson<{ properties: Record<string, string> }>(await post(b, "/v1/namespace/shared/describe", {}));
  assert.equal(described.properties.team, "ml");
  await expectJson(await upload(b, "/v1/table/shared$events/create", arrowStream({ id: Int32Array.from([1, 2, 3]) })));
  const listed = await expectJson<{ tables: string[] }>(await fetch(`${a}/v1/namespace/shared/table/list`));
  assert.deepEqual(listed.tables, ["events"]);
  assert.equal(await (await post(a, "/v1/table/shared$events/count_rows", {})).json(), 3);
});

test("concurrent appends through both replicas with the LanceDB client keep every row", async () => {
  const [a, b] = pair.urls as [string, string];
  await expectJson(await upload(a, "/v1/table/appends/create", arrowStream({ id: Int32Array.from([0]), writer: ["seed"] })));
  const clients = await Promise.all([a, b].map((url) => lancedb.connect("db://demo", { apiKey: "any", hostOverride: url })));
  const tables = await Promise.all(clients.map((db) => db.openTable("appends")));
  const writes: Promise<unknown>[] = [];
  for (let round = 0; round < 6; round += 1) {
    tables.forEach((table, replica) => {
      const rows = Array.from({ length: 5 }, (_, i) => ({ id: 1000 * (replica + 1) + round * 10 + i, writer: `r${replica}` }));
      writes.push(table.add(rows));
    });
  }
  await Promise.all(writes);
  for (const table of tables) assert.equal(await table.countRows(), 1 + 2 * 6 * 5, "every acknowledged row, seen from both replicas");
  const ids = (await tables[1]!.query().select(["id"]).toArray()).map((row) => Number(row.id));
  assert.equal(new Set(ids).size, ids.length, "no row twice");
});

test("concurrent creates of one namespace, one table, one tag and one version number across both replicas have exactly one winner", async () => {
  const [a, b] = pair.urls as [string, string];
  const both = <T>(make: (url: string) => Promise<T>) => Promise.all([a, b, a, b, a, b].map(make));

  const namespaces = await outcomes(await both((url) => post(url, "/v1/namespace/contested/create", {})));
  assert.deepEqual(namespaces, { ok: 1, codes: [2, 2, 2, 2, 2] }, "one namespace; the others NamespaceAlreadyExists");

  const tables = await outcomes(await both((url) => upload(url, "/v1/table/contested$t/create", arrowStream({ id: Int32Array.from([1]) }))));
  assert.deepEqual(tables, { ok: 1, codes: [5, 5, 5, 5, 5] }, "one table; the others TableAlreadyExists");
  assert.equal(await (await post(b, "/v1/table/contested$t/count_rows", {})).json(), 1, "the winner's data alone");

  const tags = await outcomes(await both((url) => post(url, "/v1/table/contested$t/tags/create", { tag: "release", version: 1 })));
  assert.deepEqual(tags, { ok: 1, codes: [9, 9, 9, 9, 9] }, "one tag; the others TableTagAlreadyExists");

  // Managed versioning: each contender stages its own manifest for version 2 of a declared table.
  const declared = await expectJson<{ location: string }>(await post(a, "/v1/table/contested$managed/declare", {}));
  await expectJson(await post(a, "/v1/table/contested$managed/version/create", { version: 1, manifest_path: stageManifest(declared.location, 1), naming_scheme: "V2" }));
  const versions = await outcomes(
    await both((url) => post(url, "/v1/table/contested$managed/version/create", { version: 2, manifest_path: stageManifest(declared.location, 2), naming_scheme: "V2" })),
  );
  assert.deepEqual(versions, { ok: 1, codes: [14, 14, 14, 14, 14] }, "one version 2; the others ConcurrentModification");
  const listed = await expectJson<{ versions: { version: number }[] }>(await post(b, "/v1/table/contested$managed/version/list", {}));
  assert.deepEqual(listed.versions.map((v) => v.version).sort(), [1, 2]);
});

test("concurrent upserts of the same keys through both replicas leave no duplicate key", async () => {
  const [a, b] = pair.urls as [string, string];
  await expectJson(await upload(a, "/v1/table/upserts/create", arrowStream({ id: Int32Array.from([0]), value: ["seed"] })));
  const tables = await Promise.all([a, b].map(async (url) => (await lancedb.connect("db://demo", { apiKey: "any", hostOverride: url })).openTable("upserts")));
  const keys = Array.from({ length: 20 }, (_, i) => i + 1);
  await Promise.all(
    Array.from({ length: 8 }, (_, round) => {
      const table = tables[round % 2]!;
      return table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(keys.map((id) => ({ id, value: `round ${round}` })));
    }),
  );
  const ids = (await tables[0]!.query().select(["id"]).toArray()).map((row) => Number(row.id));
  assert.equal(ids.length, keys.length + 1, `each key once: ${ids.sort((x, y) => x - y).join(",")}`);
  assert.equal(new Set(ids).size, ids.length);
});

test("GET /ready on each replica checks the store and the data location", async () => {
  for (const url of pair.urls) {
    const ready = await expectJson<{ status: string; checks: Record<string, string> }>(await fetch(`${url}/ready`));
    assert.deepEqual(ready, { status: "ready", checks: { store: "ok", data: "ok" } });
  }
});

test("a clone made on one replica keeps reading when the other drops its source, even when the drop races the clone", async () => {
  const [a, b] = pair.urls as [string, string];
  const locationOf = async (url: string, table: string) => (await expectJson<{ location: string }>(await post(url, `/v1/table/${table}/describe`, {}))).location;
  await expectJson(await upload(a, "/v1/table/origin/create", arrowStream({ id: Int32Array.from([1, 2, 3]) })));
  await expectJson(await post(a, "/v1/table/origin_copy/clone", { source_location: await locationOf(a, "origin") }));
  await expectJson(await post(b, "/v1/table/origin/drop"));
  for (const url of [a, b]) assert.equal(await (await post(url, "/v1/table/origin_copy/count_rows", {})).json(), 3);

  // The drop starts later each round, so that it lands before, during and after the clone's commit.
  for (let round = 0; round < 6; round += 1) {
    await expectJson(await upload(b, `/v1/table/raced${round}/create`, arrowStream({ id: Int32Array.from([round]) })));
    const location = await locationOf(b, `raced${round}`);
    const [cloned, dropped] = await Promise.all([
      post(a, `/v1/table/raced${round}_copy/clone`, { source_location: location }),
      sleep(round * 15).then(() => post(b, `/v1/table/raced${round}/drop`)),
    ]);
    assert.equal(dropped.status, 200, await dropped.text());
    if (cloned.ok) {
      assert.equal(await (await post(b, `/v1/table/raced${round}_copy/count_rows`, {})).json(), 1, "a clone that won reads its rows");
    } else {
      assert.equal(((await cloned.json()) as { code: number }).code, 4, "a clone that lost finds no source");
    }
  }
});
