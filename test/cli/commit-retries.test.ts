// QUIVER_COMMIT_ATTEMPTS bounds how often a conflicting write is re-run: with one attempt, an
// append that loses its race against an overwrite answers 409 code 14, and nothing is lost or
// half-written.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { test } from "node:test";
import { arrowStream, readArrow } from "../helpers/arrow.js";
import { cliEntry, runNode, spawnServeOnFreshRoot } from "../helpers/cli-process.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";

interface Write {
  mode: "append" | "overwrite";
  ids: number[];
  status: number;
  code?: unknown;
}

test("with QUIVER_COMMIT_ATTEMPTS=1, overwrites racing appends on one table → some writers get 409 code 14, none a 5xx, and the rows are what the acknowledged writes imply", { timeout: 60_000 }, async (t) => {
  const server = await spawnServeOnFreshRoot(t, [], { QUIVER_COMMIT_ATTEMPTS: "1" });
  await expectJson(await fetch(`${server.url}/v1/table/race/create`, { method: "POST", body: arrowStream({ id: Int32Array.from([0, 1, 2]) }) }));

  const writes: Write[] = [];
  let nextId = 100;
  for (let round = 0; round < 6; round += 1) {
    const modes = ["overwrite", "append", "append", "append", "append", "overwrite"] as const;
    await Promise.all(
      modes.map(async (mode) => {
        const ids = [nextId++, nextId++];
        const response = await fetch(`${server.url}/v1/table/race/insert?mode=${mode}`, {
          method: "POST",
          headers: { "content-type": "application/vnd.apache.arrow.stream" },
          body: arrowStream({ id: Int32Array.from(ids) }),
        });
        const body = JSON.parse(await response.text());
        writes.push({ mode, ids, status: response.status, code: body.code });
      }),
    );
  }

  const refused = writes.filter((write) => write.status !== 200);
  assert.deepEqual(refused.filter((write) => write.status !== 409 || write.code !== 14), [], "every refusal is 409 with code 14");
  assert.ok(refused.length > 0, "one attempt is not enough for every writer");

  // Each version after the first holds exactly one acknowledged write, whole: an overwrite's rows
  // alone, or the previous rows plus an append's. The history is read rather than the answers'
  // version numbers, so the check holds whatever order the writers committed in.
  const idsAt = async (version: number) => {
    const answer = await fetch(`${server.url}/v1/table/race/query`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ k: 10_000, vector: null, columns: { column_names: ["id"] }, version }),
    });
    assert.equal(answer.status, 200);
    return Array.from((await readArrow(answer)).getChild("id")?.toArray() as Int32Array).sort((a, b) => a - b);
  };
  const byFirstId = new Map(writes.map((write) => [write.ids[0], write]));
  const acknowledged = writes.filter((write) => write.status === 200);
  const latest = (await expectJson(await fetch(`${server.url}/v1/table/race/describe`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }))).version;
  assert.equal(latest, 1 + acknowledged.length, "one version per acknowledged write, none for a refused one");
  const committed: Write[] = [];
  let previous = await idsAt(1);
  assert.deepEqual(previous, [0, 1, 2]);
  for (let version = 2; version <= latest; version += 1) {
    const ids = await idsAt(version);
    const write = byFirstId.get(ids.find((id) => !previous.includes(id)) as number);
    assert.ok(write && write.status === 200, `version ${version} holds an acknowledged write: ${JSON.stringify(write)}`);
    const expected = write.mode === "overwrite" ? write.ids : [...previous, ...write.ids];
    assert.deepEqual(ids, [...expected].sort((a, b) => a - b), `version ${version} is the ${write.mode} of ${write.ids}`);
    committed.push(write);
    previous = ids;
  }
  assert.equal(new Set(committed).size, acknowledged.length, "every acknowledged write is in the history once");
  assert.deepEqual(await idsAt(latest), previous);
});

test("a QUIVER_COMMIT_ATTEMPTS that is not an integer of at least 1 stops serve at start-up with exit code 1", { timeout: 60_000 }, async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  await Promise.all(
    ["0", "-2", "1.5", "six"].map(async (value) => {
      const { code, stderr } = await runNode(cliEntry, ["serve", "--port", "0", "--root", root], { QUIVER_COMMIT_ATTEMPTS: value }, 10_000);
      assert.equal(code, 1, `QUIVER_COMMIT_ATTEMPTS=${value}: ${stderr}`);
      assert.ok(stderr.includes(`QUIVER_COMMIT_ATTEMPTS must be an integer of at least 1, got '${value}'`), stderr);
    }),
  );
});
