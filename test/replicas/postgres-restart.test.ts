// Two `quiver serve` replicas on a PostgreSQL of their own that is shut down (fast, then
// immediate) and started again under write load: both replicas live and serve afterwards, every
// acknowledged write is kept, the outage answers only 503 code 17 with Retry-After and in bounded
// time, and same-key upserts through both replicas never commit one key twice. With
// `--auth required`, the credential lookup, the token endpoint and the admin routes answer the
// outage the same way.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, test } from "node:test";
import { type ServeProcess, runCli, spawnServe } from "../helpers/cli-process.js";
import { arrowStream, readArrow } from "../helpers/arrow.js";
import { type Postgres, createPostgresDatabase, startPostgres } from "../helpers/postgres.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";

/** No request may take longer than this, outage or not: the store's connect timeout is 5 s. */
const requestBoundMs = 12_000;

let postgres: Postgres;
const cleanUps: (() => Promise<void>)[] = [];

before(async () => {
  // A server of this file's own: stopping it must not disturb the one the other tests share.
  postgres = await startPostgres();
});
after(async () => {
  for (const cleanUp of cleanUps.reverse()) await cleanUp();
  await postgres.stop();
});

/** `count` replicas on a fresh database of this file's server and one shared data folder. */
async function startReplicas(count: number, args: string[] = []): Promise<{ storeUrl: string; servers: ServeProcess[] }> {
  const storeUrl = await createPostgresDatabase(postgres.url);
  const data = tempRoot("quiver-shared-data-");
  const roots: string[] = [];
  const servers: ServeProcess[] = [];
  cleanUps.push(async () => {
    await Promise.all(servers.map((server) => server.stop("SIGKILL")));
    for (const dir of [data, ...roots]) rmSync(dir, { recursive: true, force: true });
  });
  for (let i = 0; i < count; i += 1) roots.push(tempRoot());
  servers.push(...(await Promise.all(roots.map((root) => spawnServe(["--port", "0", "--root", root, "--store", storeUrl, "--data", data, ...args])))));
  return { storeUrl, servers };
}

/** Every answer that was not a success, and the slowest answer, for the assertions at the end. */
class Outcomes {
  readonly refused = new Map<string, number>();
  slowestMs = 0;
  unavailable = 0;

  /** Sends a request; answers whether it succeeded. A refusal must be 503 code 17 with Retry-After. */
  async send(label: string, url: string, init: RequestInit = {}): Promise<Response | undefined> {
    const started = Date.now();
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(requestBoundMs * 2) });
    } catch (error) {
      this.note(`${label}: no answer (${(error as Error).cause ?? (error as Error).message})`);
      return undefined;
    } finally {
      this.slowestMs = Math.max(this.slowestMs, Date.now() - started);
    }
    if (response.ok) return response;
    const text = await response.text();
    let code: unknown;
    try {
      code = JSON.parse(text).code;
    } catch {
      code = undefined;
    }
    if (response.status === 503 && code === 17 && response.headers.get("retry-after") !== null) {
      this.unavailable += 1;
      // The outage lasts a second or two: no need to hammer it.
      await sleep(50);
    } else {
      this.note(`${label}: ${response.status} retry-after=${response.headers.get("retry-after")} ${text.slice(0, 200)}`);
    }
    return undefined;
  }

  private note(what: string): void {
    this.refused.set(what, (this.refused.get(what) ?? 0) + 1);
  }
}

const arrowHeaders = { "content-type": "application/vnd.apache.arrow.stream" };
const jsonHeaders = { "content-type": "application/json" };
const mergeRoute = "/v1/table/kv/merge_insert?on=id&when_matched_update_all=true&when_not_matched_insert_all=true";

/** The `id` column of every row of `table`, through the query endpoint. */
async function idsOf(url: string, table: string): Promise<number[]> {
  const response = await fetch(`${url}/v1/table/${table}/query`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify({ k: 1_000_000, vector: null, columns: { column_names: ["id"] } }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return (await readArrow(response)).toArray().map((row) => Number(row.id));
}

/** Every namespace name at the top level, page by page. */
async function namespacesOf(url: string): Promise<Set<string>> {
  const names = new Set<string>();
  let token: string | undefined;
  do {
    const query = token ? `?page_token=${encodeURIComponent(token)}` : "";
    const page = await expectJson<{ namespaces: string[]; page_token?: string | null }>(await fetch(`${url}/v1/namespace/list${query}`));
    for (const name of page.namespaces) names.add(name);
    token = page.page_token ?? undefined;
  } while (token);
  return names;
}

/** Waits until `GET /ready` answers 200; answers how long that took. */
async function readyWithin(url: string, limitMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const response = await fetch(`${url}/ready`).catch(() => undefined);
    const body = await response?.text();
    if (response?.status === 200) return Date.now() - started;
    assert.ok(Date.now() - started < limitMs, `not ready ${limitMs} ms after PostgreSQL came back: ${response?.status} ${body}`);
    await sleep(100);
  }
}

test("PostgreSQL shut down fast and then immediately under write load through two replicas → both keep serving, only 503 code 17 with Retry-After meanwhile, every acknowledged write kept, no upsert key twice", async (t) => {
  const { servers } = await startReplicas(2);
  const urls = servers.map((server) => server.url) as [string, string];
  await expectJson(await fetch(`${urls[0]}/v1/table/log/create`, { method: "POST", headers: arrowHeaders, body: arrowStream({ id: Int32Array.from([-1]), v: ["seed"] }) }));
  await expectJson(await fetch(`${urls[1]}/v1/table/kv/create`, { method: "POST", headers: arrowHeaders, body: arrowStream({ id: Int32Array.from([-1]), v: ["seed"] }) }));

  const outcomes = new Outcomes();
  const namespaces = new Set<string>();
  const rows = new Set<number>();
  const keys = new Set<number>();
  let running = true;

  const namespaceWriter = async (worker: number) => {
    for (let n = 0; running; n += 1) {
      const name = `w${worker}_${n}`;
      const url = urls[n % 2] as string;
      if (await outcomes.send("CreateNamespace", `${url}/v1/namespace/${name}/create`, { method: "POST", headers: jsonHeaders, body: "{}" })) namespaces.add(name);
    }
  };
  const rowWriter = async (worker: number) => {
    for (let n = 0; running; n += 1) {
      const id = worker * 1_000_000 + n;
      const body = arrowStream({ id: Int32Array.from([id]), v: [`row ${id}`] });
      if (await outcomes.send("InsertIntoTable", `${urls[n % 2]}/v1/table/log/insert`, { method: "POST", headers: arrowHeaders, body })) rows.add(id);
    }
  };
  // Each round upserts one new key through both replicas at once: were the merge-insert lock
  // not held across replicas (or kept after its connection was lost), the key would land twice.
  const upserter = async () => {
    for (let key = 0; running; key += 1) {
      const answers = await Promise.all(
        urls.map((url, i) => outcomes.send("MergeInsertIntoTable", url + mergeRoute, { method: "POST", headers: arrowHeaders, body: arrowStream({ id: Int32Array.from([key]), v: [`from ${i}`] }) })),
      );
      if (answers.some((answer) => answer !== undefined)) keys.add(key);
    }
  };
  // Reads and an admin route (open without --auth) answer the outage the same way.
  const reader = async () => {
    for (let n = 0; running; n += 1) {
      const url = urls[n % 2] as string;
      await outcomes.send("DescribeTable", `${url}/v1/table/kv/describe`, { method: "POST", headers: jsonHeaders, body: "{}" });
      await outcomes.send("ListDatabases", `${url}/v1/admin/databases`);
    }
  };
  const load = Promise.all([namespaceWriter(0), namespaceWriter(1), rowWriter(0), rowWriter(1), upserter(), reader()]);

  const outages: { mode: "fast" | "immediate"; readyMs: number[] }[] = [];
  // A second of load before each outage and after the last: every writer has had many answers by then.
  for (const mode of ["fast", "immediate"] as const) {
    await sleep(1_000);
    await postgres.halt(mode);
    await sleep(1_500);
    await postgres.resume();
    outages.push({ mode, readyMs: await Promise.all(urls.map((url) => readyWithin(url, 10_000))) });
  }
  await sleep(1_000);
  running = false;
  await load;

  for (const server of servers) {
    assert.equal(server.child.exitCode, null, `a replica exited: ${server.output().slice(-2000)}`);
    assert.doesNotMatch(server.output(), /Unhandled 'error' event/);
  }
  assert.deepEqual([...outcomes.refused], [], "every refusal is 503 code 17 with Retry-After");
  assert.ok(outcomes.unavailable > 0, "the outages were met by requests");
  assert.ok(outcomes.slowestMs < requestBoundMs, `the slowest answer took ${outcomes.slowestMs} ms`);
  assert.ok(namespaces.size > 0 && rows.size > 0 && keys.size > 0, "writes were acknowledged");

  // Both replicas serve, and every acknowledged write is there, seen through either of them.
  const listed = await namespacesOf(urls[1]);
  assert.deepEqual([...namespaces].filter((name) => !listed.has(name)), [], "acknowledged namespaces are kept");
  const logged = new Set(await idsOf(urls[0], "log"));
  assert.deepEqual([...rows].filter((id) => !logged.has(id)), [], "acknowledged rows are kept");
  const upserted = await idsOf(urls[1], "kv");
  assert.deepEqual(upserted.filter((id, i) => upserted.indexOf(id) !== i), [], "no upserted key was committed twice");
  assert.deepEqual([...keys].filter((key) => !upserted.includes(key)), [], "acknowledged upserts are kept");
  await expectJson(await fetch(`${urls[0]}/v1/namespace/after_restart/create`, { method: "POST", headers: jsonHeaders, body: "{}" }));
  await expectJson(await fetch(`${urls[1]}/v1/namespace/after_restart/describe`, { method: "POST", headers: jsonHeaders, body: "{}" }));

  // The change listener reconnected: databases made on one replica are known to the other at
  // once, sooner than its cache of database names expires (5 s). Once there are two, a request
  // naming neither is refused; once the named one exists, it is served.
  const laterOnSecond = async () => (await fetch(`${urls[1]}/v1/namespace/list`, { headers: { "x-svc-database": "later" } })).status;
  const within = async (what: string, holds: () => Promise<boolean>) => {
    const started = Date.now();
    while (!(await holds())) {
      assert.ok(Date.now() - started < 2_000, `the other replica heard within 2 s that ${what}`);
      await sleep(20);
    }
  };
  await expectJson(await fetch(`${urls[0]}/v1/admin/databases`, { method: "POST", headers: jsonHeaders, body: JSON.stringify({ name: "second" }) }), 201);
  await within("a second database exists", async () => (await laterOnSecond()) !== 200);
  await expectJson(await fetch(`${urls[0]}/v1/admin/databases`, { method: "POST", headers: jsonHeaders, body: JSON.stringify({ name: "later" }) }), 201);
  await within("database 'later' exists", async () => (await laterOnSecond()) === 200);
  t.diagnostic(
    `${namespaces.size} namespaces, ${rows.size} rows, ${keys.size} upserted keys acknowledged; ${outcomes.unavailable} answers 503; slowest ${outcomes.slowestMs} ms; ready again after ${outages.map((o) => `${o.mode}: ${o.readyMs.join("/")} ms`).join(", ")}`,
  );
});

test("With --auth required and PostgreSQL down, a key lookup, the token endpoint and the admin routes → 503 code 17 with Retry-After, and 200 once it is back", async () => {
  const { storeUrl, servers } = await startReplicas(1, ["--auth", "required"]);
  const url = (servers[0] as ServeProcess).url;
  const createKey = async (args: string[]) => {
    const created = await runCli(["keys", "create", "--store", storeUrl, ...args]);
    assert.equal(created.code, 0, created.stderr);
    return created.stdout.trim();
  };
  const [admin, unseen, client] = await Promise.all([
    createKey(["--all-databases", "--role", "admin"]),
    createKey(["--database", "default", "--role", "read"]),
    runCli(["clients", "create", "--store", storeUrl, "--database", "default", "--role", "read"]),
  ]);
  assert.equal(client.code, 0, client.stderr);
  const field = (name: string) => new RegExp(`^${name}=(\\S+)$`, "m").exec(client.stdout)?.[1] as string;
  const [clientId, clientSecret] = [field("client_id"), field("client_secret")];
  const tokenRequest = (): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}` },
    body: "grant_type=client_credentials",
  });
  // The admin key has been seen, so its route runs its own store reads during the outage.
  await expectJson(await fetch(`${url}/v1/admin/api-keys`, { headers: { "x-api-key": admin } }));

  await postgres.halt("fast");
  try {
    const requests: [string, string, RequestInit][] = [
      ["a key never seen before", "/v1/namespace/list", { headers: { "x-api-key": unseen } }],
      ["an admin route", "/v1/admin/api-keys", { headers: { "x-api-key": admin } }],
      ["an admin route of a database", "/v1/admin/databases/default/audit", { headers: { "x-api-key": admin } }],
      ["the token endpoint", "/oauth/token", tokenRequest()],
    ];
    for (const [what, route, init] of requests) {
      const started = Date.now();
      const response = await fetch(url + route, init);
      const body = (await response.json()) as { code?: number };
      assert.equal(response.status, 503, `${what}: ${JSON.stringify(body)}`);
      assert.equal(body.code, 17, what);
      assert.ok(response.headers.get("retry-after"), `${what}: Retry-After`);
      assert.ok(Date.now() - started < requestBoundMs, `${what} answered in ${Date.now() - started} ms`);
    }
    const ready = await fetch(`${url}/ready`);
    assert.equal(ready.status, 503);
    assert.equal(((await ready.json()) as { code: number }).code, 17);
    assert.ok(ready.headers.get("retry-after"), "readiness: Retry-After");
  } finally {
    await postgres.resume();
  }
  await readyWithin(url, 10_000);
  await expectJson(await fetch(`${url}/v1/namespace/list`, { headers: { "x-api-key": unseen } }));
  await expectJson(await fetch(`${url}/v1/admin/api-keys`, { headers: { "x-api-key": admin } }));
  await expectJson(await fetch(url + "/oauth/token", tokenRequest()));
  assert.equal((servers[0] as ServeProcess).child.exitCode, null);
});
