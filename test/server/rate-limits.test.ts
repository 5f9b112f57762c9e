// Request rate limits over real sockets: per caller and per database, one budget across the
// replicas of a PostgreSQL store, and the real LanceDB Cloud client riding out its 429s.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import * as lancedb from "@lancedb/lancedb";
import { type ServeProcess, spawnServe } from "../helpers/cli-process.js";
import { type Postgres, createPostgresDatabase, startPostgres } from "../helpers/postgres.js";
import { parsePrometheusText, sumOf } from "../helpers/prometheus-text.js";
import { expectError, expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";
import { addDatabase, apiKey, startAuthServer } from "../auth/auth-helpers.js";
import { parseServeOptions } from "../../src/cli/serve-options.js";
import { openPostgresStore } from "../../src/store/postgres/postgres-store.js";
import pg from "pg";

const listNamespaces = (url: string, headers: Record<string, string> = {}) => fetch(`${url}/v1/namespace/list`, { headers });

async function throttled(url: string, labels: Record<string, string>): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return sumOf(parsePrometheusText(text).samples, "quiver_throttled_requests_total", labels);
}

test("ListNamespaces past --rate-limit's burst → 429 code 21 with Retry-After; after waiting it answers 200; health and metrics are never limited", async (t) => {
  const server = await startTestServer({ rateLimits: { principal: { perSecond: 1, burst: 3 } } });
  t.after(() => server.close());
  const statuses: number[] = [];
  let refused: Response | undefined;
  for (let i = 0; i < 5; i += 1) {
    const response = await listNamespaces(server.url);
    statuses.push(response.status);
    if (response.status === 429) refused ??= response;
    else await response.body?.cancel();
  }
  assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
  const retryAfter = Number(refused?.headers.get("retry-after"));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After: ${refused?.headers.get("retry-after")}`);
  const body = await expectError(refused as Response, 429, 21);
  assert.match(body.error, /rate limit/);
  assert.equal((await server.get("/health")).status, 200);
  assert.equal((await server.get("/metrics")).status, 200);
  assert.ok((await throttled(server.url, { database: "default", limit: "caller" })) >= 2);

  await sleep(retryAfter * 1000);
  await expectJson(await listNamespaces(server.url));
});

test("--database-rate-limit is shared by every key of a database and apart from --rate-limit: a key over its own limit → 429 code 21 for it alone; a database over its limit → 429 code 21 for all its keys; another database answers 200", async (t) => {
  const server = await startAuthServer({ rateLimits: { principal: { perSecond: 0.2, burst: 2 }, database: { perSecond: 0.2, burst: 3 } } });
  t.after(() => server.close());
  await addDatabase(server, "sales");
  const first = { "x-api-key": await apiKey(server, "default", "read") };
  const second = { "x-api-key": await apiKey(server, "default", "read") };
  const sales = { "x-api-key": await apiKey(server, "sales", "read") };

  await expectJson(await listNamespaces(server.url, first));
  await expectJson(await listNamespaces(server.url, first));
  const overKey = await expectError(await listNamespaces(server.url, first), 429, 21);
  assert.match(overKey.error, /caller/);
  // The key's refused request spent none of the database's budget: a third request fits.
  await expectJson(await listNamespaces(server.url, second));
  const overDatabase = await expectError(await listNamespaces(server.url, second), 429, 21);
  assert.match(overDatabase.error, /database 'default'/);

  await expectJson(await listNamespaces(server.url, sales));
  await expectJson(await listNamespaces(server.url, sales));
  assert.ok((await throttled(server.url, { database: "default", limit: "database" })) >= 1);
});

/** Two replicas with `--rate-limit 5/s` on a PostgreSQL of this file's own, which a test stops. */
interface Pair {
  postgres: Postgres;
  replicas: ServeProcess[];
}
let pair: Pair | undefined;
const pairCleanUps: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanUp of pairCleanUps.reverse()) await cleanUp();
});

async function startPair(): Promise<Pair> {
  const postgres = await startPostgres();
  pairCleanUps.push(() => postgres.stop());
  const storeUrl = await createPostgresDatabase(postgres.url);
  const data = tempRoot("quiver-shared-data-");
  const roots = [tempRoot(), tempRoot()];
  const replicas: ServeProcess[] = [];
  pairCleanUps.push(async () => {
    await Promise.all(replicas.map((replica) => replica.stop("SIGKILL")));
    for (const dir of [data, ...roots]) rmSync(dir, { recursive: true, force: true });
  });
  replicas.push(...(await Promise.all(roots.map((root) => spawnServe(["--port", "0", "--root", root, "--store", storeUrl, "--data", data, "--rate-limit", "5/s", "--rate-limit-burst", "5"])))));
  return { postgres, replicas };
}

test("two replicas on one PostgreSQL share --rate-limit: a client alternating between them is admitted at about the deployment-wide rate, not twice it", async (t) => {
  pair = await startPair();
  const urls = pair.replicas.map((replica) => replica.url);
  const rate = 5;
  const burst = 5;
  let accepted = 0;
  const refusedBy = new Set<string>();
  const start = performance.now();
  let i = 0;
  for (; performance.now() - start < 1500; i += 1) {
    const url = urls[i % 2] as string;
    const response = await listNamespaces(url);
    if (response.status === 200) accepted += 1;
    else {
      await expectError(response, 429, 21);
      assert.ok(Number(response.headers.get("retry-after")) >= 1);
      refusedBy.add(url);
      continue;
    }
    await response.body?.cancel();
  }
  const elapsed = (performance.now() - start) / 1000;
  const allowed = burst + rate * elapsed;
  t.diagnostic(`accepted ${accepted} of ${i} requests in ${elapsed.toFixed(2)} s across two replicas`);
  assert.ok(accepted >= burst, `accepted ${accepted}`);
  assert.ok(accepted <= allowed + 2, `accepted ${accepted} in ${elapsed.toFixed(2)} s; one shared budget allows about ${allowed.toFixed(1)}`);
  assert.equal(refusedBy.size, 2, "both replicas refuse once the shared budget is spent");
});

test("rate-limited replicas while their PostgreSQL is down → 503 code 17, never 429 or 500; each logs once that it limits alone; once PostgreSQL is back → 200", async (t) => {
  if (!pair) return t.skip("the replicas did not start");
  const { postgres, replicas } = pair;
  // A full budget again before the outage, so that no answer below is a 429 owed to the test above.
  await sleep(1200);
  await postgres.halt("fast");
  try {
    for (let i = 0; i < 6; i += 1) {
      const response = await listNamespaces((replicas[i % 2] as ServeProcess).url);
      await expectError(response, 503, 17);
      assert.ok(Number(response.headers.get("retry-after")) >= 1);
    }
  } finally {
    await postgres.resume();
  }
  for (const replica of replicas) {
    const warnings = replica.output().split("\n").filter((line) => line.includes("shared request budgets cannot be reached"));
    assert.equal(warnings.length, 1, `one warning per outage: ${replica.output()}`);
  }
  for (const replica of replicas) {
    let status = 0;
    for (let attempt = 0; attempt < 40 && status !== 200; attempt += 1) {
      const response = await listNamespaces(replica.url);
      status = response.status;
      await response.body?.cancel();
      if (status !== 200) await sleep(250);
    }
    assert.equal(status, 200);
  }
});

test("PostgreSQL's shared budgets: a spent budget refuses with the wait until its next request, and only budgets that are whole again are forgotten", async (t) => {
  if (!pair) return t.skip("the replicas did not start");
  const storeUrl = await createPostgresDatabase(pair.postgres.url);
  const store = await openPostgresStore(storeUrl);
  t.after(() => store.close());
  const cell = (key: string) => ({ key, intervalSeconds: 0.5, toleranceSeconds: 1 });
  assert.deepEqual(await store.rows.takeRateLimitCells([cell("caller:spent"), cell("database:spent")]), { admitted: true });
  assert.deepEqual(await store.rows.takeRateLimitCells([cell("caller:spent")]), { admitted: true });
  const refused = await store.rows.takeRateLimitCells([cell("caller:spent")]);
  assert.equal(refused.admitted, false);
  assert.ok(!refused.admitted && refused.refusedKey === "caller:spent" && refused.waitSeconds > 0 && refused.waitSeconds <= 0.5, JSON.stringify(refused));
  // Refused by the database's budget, the caller's request is given back.
  await store.rows.takeRateLimitCells([cell("database:full")]);
  await store.rows.takeRateLimitCells([cell("database:full")]);
  const byDatabase = await store.rows.takeRateLimitCells([cell("caller:other"), cell("database:full")]);
  assert.ok(!byDatabase.admitted && byDatabase.refusedKey === "database:full");
  await store.rows.takeRateLimitCells([cell("caller:whole")]);
  await sleep(600);
  await store.rows.forgetWholeRateLimitCells();
  const client = new pg.Client({ connectionString: storeUrl });
  await client.connect();
  const { rows } = await client.query<{ key: string }>("select key from rate_limit_cells order by key");
  await client.end();
  assert.deepEqual(rows.map((row) => row.key), ["caller:spent", "database:full"]);
});

test("the LanceDB Cloud client (db://, hostOverride) under --rate-limit retries its 429s and every call succeeds", async (t) => {
  const server = await startTestServer({ rateLimits: { principal: { perSecond: 8, burst: 2 } } });
  t.after(() => server.close());
  const before = await throttled(server.url, { database: "default" });
  const db = await lancedb.connect("db://default", { apiKey: "any", hostOverride: server.url });
  const table = await db.createTable("events", [{ id: 1 }, { id: 2 }]);
  for (let i = 0; i < 6; i += 1) {
    await table.add([{ id: 10 + i }]);
    assert.equal(await table.countRows(), 3 + i);
  }
  assert.ok((await throttled(server.url, { database: "default" })) > before, "some calls were refused with 429 and retried");
});

test("serve --rate-limit 600/m → 10 requests per second with a burst of 10; --rate-limit fast or a burst without its rate → refused naming the flag", () => {
  const options = parseServeOptions(["--rate-limit", "600/m", "--database-rate-limit", "50/s", "--database-rate-limit-burst", "200"], {});
  assert.ok(options !== "help");
  assert.deepEqual(options.rateLimits, { principal: { perSecond: 10, burst: 10 }, database: { perSecond: 50, burst: 200 } });
  assert.throws(() => parseServeOptions(["--rate-limit", "fast"], {}), /--rate-limit must be a rate such as 100\/s/);
  assert.throws(() => parseServeOptions(["--rate-limit-burst", "5"], {}), /--rate-limit-burst needs --rate-limit/);
});
