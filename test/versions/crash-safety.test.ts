/**
 * Crash safety of BatchCreateTableVersions: a server process SIGKILLed while a batch of real
 * Lance versions is in flight leaves, after restart, every table of that batch readable by Lance
 * at the same version: all of the batch or none of it. A test-only delay between a batch's commit
 * and its finalize (QUIVER_TEST_BATCH_FINALIZE_DELAY_MS) holds the batch in the window where a
 * crash is hardest to survive, so the test can kill the server there on purpose. The server keeps
 * its table data on the backend under test, like the in-process test servers.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { metadataFileName } from "../../src/catalog/runtime/local-root.js";
import { testDataLocation } from "../helpers/test-backend.js";
import { tempRoot } from "../helpers/test-server.js";
import { type LanceView, readWithLance, stageVersion } from "./fixtures.js";

const mainScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/bin/main.js");
const tables = ["a", "b", "c"];
const finalizeDelayMs = 400;

async function startChild(root: string, dataEnv: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [mainScript, "serve", "--root", root, "--port", "0", "--log-level", "silent"], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...dataEnv, QUIVER_TEST_BATCH_FINALIZE_DELAY_MS: String(finalizeDelayMs) },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match) resolve(match[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`server exited early with ${code}`)));
  });
  return { child, url };
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/**
 * Version records committed but not yet finalized, read straight from the store file (read-only,
 * so no reader of Quiver's settles them): more than zero only inside a batch's commit window.
 */
function pendingVersions(root: string): number {
  const db = new Database(path.join(root, metadataFileName), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM table_versions WHERE staged_path IS NOT NULL").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function untilPending(root: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (pendingVersions(root) === 0) {
    if (Date.now() > deadline) throw new Error(`no batch was seen between commit and finalize within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Stages version `version` (one row, id = version) of every table; returns the batch's entries. */
async function stageBatch(locations: Map<string, string>, version: number) {
  return Promise.all(
    tables.map(async (name) => {
      const staged = await stageVersion(locations.get(name)!, [version]);
      assert.equal(staged.version, version, `${name}: Lance wrote the next version`);
      return { id: [name], ...staged };
    }),
  );
}

const idsThrough = (version: number) => Array.from({ length: version }, (_, i) => i + 1);

test("SIGKILL inside a batch-create → after restart Lance reads every table of the batch at the same version", async (t) => {
  const root = tempRoot("quiver-crash-");
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const { data, storageOptions = {} } = await testDataLocation();
  const dataEnv: Record<string, string> = data ? { QUIVER_DATA: data, QUIVER_STORAGE_OPTIONS: JSON.stringify(storageOptions) } : {};
  let server = await startChild(root, dataEnv);
  t.after(() => server.child.kill("SIGKILL"));
  const locations = new Map<string, string>();
  for (const name of tables) locations.set(name, ((await (await post(`${server.url}/v1/table/${name}/declare`, {})).json()) as { location: string }).location);
  let acknowledged = 0;
  let killedInsideBatch = 0;

  // Round 0 kills as soon as the batch is committed and not yet finalized; round 1 at a random moment.
  for (let round = 0; round < 2; round += 1) {
    const entries = await stageBatch(locations, acknowledged + 1);
    const response = await post(`${server.url}/v1/table/version/batch-create`, { entries });
    assert.equal(response.status, 200, await response.text());
    acknowledged += 1;
    for (const name of tables) assert.equal((await readWithLance(server.url, [name])).version, acknowledged, `${name}: Lance reads the acknowledged batch`);

    const inFlight = acknowledged + 1;
    const sent = post(`${server.url}/v1/table/version/batch-create`, { entries: await stageBatch(locations, inFlight) }).then(
      (answer) => answer.status,
      () => "connection lost",
    );
    if (round === 0) await untilPending(root, 10_000);
    else await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * finalizeDelayMs * 1.5)));
    await kill(server.child);
    const answered = await sent;
    const pendingAtKill = pendingVersions(root);
    if (pendingAtKill > 0) killedInsideBatch += 1;
    if (round === 0) assert.equal(pendingAtKill, tables.length, "round 0: the kill came between the batch's commit and its finalize");

    server = await startChild(root, dataEnv);
    const views = new Map<string, LanceView>();
    for (const name of tables) views.set(name, await readWithLance(server.url, [name]));
    const first = views.get(tables[0]!);
    for (const [name, view] of views) assert.deepEqual(view, first, `round ${round}: ${name} reads like ${tables[0]}: all of the batch or none`);
    const expected = pendingAtKill > 0 || answered === 200 ? inFlight : first!.version;
    assert.ok(first!.version === acknowledged || first!.version === inFlight, `round ${round}: version ${first!.version} is the acknowledged one or the batch in flight`);
    assert.equal(first!.version, expected, `round ${round}: a batch committed before the kill is kept`);
    assert.deepEqual(first!.ids, idsThrough(first!.version), `round ${round}: Lance reads every row through version ${first!.version}`);
    assert.equal(pendingVersions(root), 0, `round ${round}: the restart finalized every committed version`);
    acknowledged = first!.version;
    t.diagnostic(`round ${round}: in-flight batch answered ${answered}; ${pendingAtKill} versions pending at the kill; tables at version ${acknowledged}`);
  }
  assert.ok(killedInsideBatch >= 1, "at least one kill landed inside a batch");
  await kill(server.child);
});
