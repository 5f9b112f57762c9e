/**
 * Crash safety of BatchCreateTableVersions: a server process SIGKILLed while batches are in
 * flight leaves, after restart, every batch either wholly visible or not at all.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { metadataFileName } from "../../src/catalog/local-root.js";
import { openRuntime } from "../../src/cli/runtime.js";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { tempRoot } from "../helpers/test-server.js";
import { stageManifest } from "./fixtures.js";

const mainScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/cli/main.js");
const tables = ["a", "b", "c"];

async function startChild(root: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [mainScript, "serve", "--root", root, "--port", "0", "--log-level", "silent"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`server exited early with ${code}`)));
  });
  return { child, url };
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** Versions of each table as the catalog lists them, after a restart of the runtime (which recovers). */
async function versionsAfterRestart(root: string): Promise<{ pendingBefore: number; versions: Map<string, number[]> }> {
  const store = await openSqliteStore(path.join(root, metadataFileName));
  const pendingBefore = (await store.rows.listPendingTableVersions()).length;
  await store.close();
  const runtime = await openRuntime({ root });
  try {
    const catalog = (await runtime.registry.catalogFor("default"))!;
    const versions = new Map<string, number[]>();
    for (const name of tables) {
      const listed = await catalog.listTableVersions({ id: [name] });
      versions.set(name, listed.versions.map((v) => v.version));
    }
    assert.equal((await runtime.store.rows.listPendingTableVersions()).length, 0, "recovery finalized every committed version");
    return { pendingBefore, versions };
  } finally {
    await runtime.close();
  }
}

test("SIGKILL during batch-creates → after restart each batch is all or nothing", async (t) => {
  const root = tempRoot("quiver-crash-");
  t.after(() => rmSync(root, { recursive: true, force: true }));
  let nextVersion = 1;
  let pendingSeen = 0;

  for (let round = 0; round < 3; round += 1) {
    const { child, url } = await startChild(root);
    const locations = new Map<string, string>();
    for (const name of tables) {
      // The staged "manifests" are opaque bytes, so describe must not open the table.
      const route = round === 0 ? "declare" : "describe?load_detailed_metadata=false";
      const response = await post(`${url}/v1/table/${name}/${route}`, {});
      locations.set(name, ((await response.json()) as { location: string }).location);
    }
    // Four writers send batches (one version on every table each) until the process dies.
    let stop = false;
    const writer = async () => {
      while (!stop) {
        const version = nextVersion++;
        const entries = tables.map((name) => ({ id: [name], version, manifest_path: stageManifest(locations.get(name)!, version) }));
        try {
          await post(`${url}/v1/table/version/batch-create`, { entries });
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const writers = [writer(), writer(), writer(), writer()];
    await new Promise((resolve) => setTimeout(resolve, 150 + Math.floor(Math.random() * 250)));
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    stop = true;
    await Promise.all(writers);

    const { pendingBefore, versions } = await versionsAfterRestart(root);
    pendingSeen += pendingBefore;
    const [first, ...others] = tables.map((name) => versions.get(name)!);
    for (const other of others) assert.deepEqual(other, first, `round ${round}: every table holds the same batches`);
    assert.ok(first!.length > 0, `round ${round}: some batches committed before the kill`);
  }
  t.diagnostic(`versions committed over the rounds: ${nextVersion - 1} attempted; records found pending at restart: ${pendingSeen}`);
});
