// A Quiver whose tables live on an object store (Azurite) that stops answering: every request
// that needs the store, several at once, answers 503 code 17 within the store timeout, never 500
// and never after minutes of the SDKs' retries; once the store is back on the same port and data,
// the same server serves the same table again, without a restart, with nothing lost.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { arrowStream, readArrow } from "../helpers/arrow.js";
import { type Azurite, startAzurite } from "../helpers/azurite.js";
import { type TestServer, expectError, expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";

/** The store timeout the server runs with: short, so the tests wait little for each deadline. */
const storeTimeoutMs = 3000;
/** What an answer may take beyond the store timeout: the request's own work and a loaded machine. */
const slackMs = 2500;
/** Azurite saves its index of blobs at most this long after a change (see the helper). */
const azuriteSaveMs = 5500;

const table = "lake$points";
const rows = Int32Array.from({ length: 100 }, (_, i) => i);

interface Timed {
  response: Response;
  elapsedMs: number;
}

async function timed(request: Promise<Response>): Promise<Timed> {
  const started = Date.now();
  const response = await request;
  // The body is part of the answer's time.
  const bytes = await response.arrayBuffer();
  return { response: new Response(bytes, { status: response.status, headers: response.headers }), elapsedMs: Date.now() - started };
}

/** The requests that reach the table's data: reads through the engine, the server's own listing, a write. */
function tableRequests(server: TestServer): Record<string, () => Promise<Response>> {
  return {
    query: () => server.post(`/v1/table/${table}/query`, { k: 10, vector: null, filter: "id >= 0" }),
    "count rows": () => server.post(`/v1/table/${table}/count_rows`, {}),
    "describe (credentials vended)": () => server.post(`/v1/table/${table}/describe`, { vend_credentials: true }),
    "list versions": () => server.post(`/v1/table/${table}/version/list`, {}),
    insert: () => server.upload(`/v1/table/${table}/insert`, arrowStream({ id: Int32Array.from([1000]) })),
  };
}

/** Asserts 503 code 17 (with `Retry-After` when the server sends one) within the store timeout. */
async function expectOutage(name: string, answer: Timed): Promise<void> {
  const { response, elapsedMs } = answer;
  await expectError(response.clone(), 503, 17).catch((error: Error) => assert.fail(`${name}: ${error.message}`));
  const retryAfter = response.headers.get("retry-after");
  if (retryAfter !== null) assert.match(retryAfter, /^\d+$/, `${name}: Retry-After is a number of seconds`);
  assert.ok(elapsedMs <= storeTimeoutMs + slackMs, `${name} answered after ${elapsedMs} ms, beyond the ${storeTimeoutMs} ms store timeout`);
}

/** Sends every table request at once, as a loaded server meets them, and expects each to answer an outage. */
async function expectOutages(server: TestServer): Promise<void> {
  const requests = Object.entries(tableRequests(server));
  const answers = await Promise.all(requests.map(([, request]) => timed(request())));
  for (const [index, [name]] of requests.entries()) await expectOutage(name, answers[index] as Timed);
}

async function countRows(server: TestServer): Promise<number> {
  return expectJson<number>(await server.post(`/v1/table/${table}/count_rows`, {}));
}

describe("an object store that stops answering", () => {
  let azurite: Azurite;
  let server: TestServer;
  let folder: string;

  before(async () => {
    folder = tempRoot("quiver-azurite-");
    azurite = await startAzurite({ location: path.join(folder, "blobs") });
    server = await startTestServer({
      data: `az://o${randomUUID().replaceAll("-", "").slice(0, 24)}/data`,
      storageOptions: azurite.storageOptions,
      storeTimeoutMs,
    });
    await expectJson(await server.post("/v1/namespace/lake/create", {}));
    await expectJson(await server.upload(`/v1/table/${table}/create`, arrowStream({ id: rows })));
    assert.equal(await countRows(server), rows.length);
    // What was written must survive the stops below.
    await new Promise((resolve) => setTimeout(resolve, azuriteSaveMs));
  });

  after(async () => {
    await server.close();
    await azurite.stop();
  });

  test("that hangs (accepts connections, answers nothing): query, count, describe, list versions and insert answer 503 code 17 within the store timeout; once it answers again, the same server serves", async () => {
    azurite.pause();
    try {
      await expectOutages(server);
    } finally {
      azurite.resume();
    }
    assert.equal(await countRows(server), rows.length, "the hung insert committed nothing");
  });

  test("stopped during requests and before them: 503 code 17 within the store timeout, never 500; started again on the same port and data, the same server serves the same rows, and writes again", async () => {
    // Requests in flight on a store that hangs, then dies under them.
    azurite.pause();
    const inFlight = [timed(tableRequests(server).query()), timed(tableRequests(server)["count rows"]())];
    await new Promise((resolve) => setTimeout(resolve, 300));
    await azurite.stop();
    for (const [index, answer] of (await Promise.all(inFlight)).entries()) await expectOutage(`in-flight request ${index}`, answer);

    // Requests that start while it is down.
    await expectOutages(server);

    azurite = await startAzurite({ location: path.join(folder, "blobs"), port: azurite.port });
    assert.equal(await countRows(server), rows.length, "every row written before the outage is there");
    const queried = await readArrow(await server.post(`/v1/table/${table}/query`, { k: 1000, vector: null, filter: "id >= 50" }));
    assert.equal(queried.numRows, 50);
    await expectJson(await server.upload(`/v1/table/${table}/insert`, arrowStream({ id: Int32Array.from([1000, 1001]) })));
    assert.equal(await countRows(server), rows.length + 2);
  });
});
