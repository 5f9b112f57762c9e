// Table folders left by a create or drop that crashed half-way are reclaimed at start-up; every
// folder a catalog row refers to, a deregistered table's and one still being written stay.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { createRowsTable, range, rowsTable, streamOf } from "../data/fixtures.js";
import { type TestServer, expectJson, startTestServer, tempRoot } from "../helpers/test-server.js";

const hourMs = 60 * 60 * 1000;

/** Sets the modification time of `target` and everything below it `ms` into the past. */
function age(target: string, ms: number): void {
  const when = new Date(Date.now() - ms);
  if (statSync(target).isDirectory()) for (const name of readdirSync(target)) age(path.join(target, name), ms);
  utimesSync(target, when, when);
}

async function countRows(server: TestServer, table: string): Promise<number> {
  return expectJson<number>(await server.post(`/v1/table/${table}/count_rows`, {}));
}

test("Start-up removes table folders no catalog row refers to, and keeps live, declared, registered, deregistered and fresh ones", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const before = await startTestServer({ root });
  await createRowsTable(before, "live", 5);
  await createRowsTable(before, "source", 3);
  await createRowsTable(before, "kept", 4);
  const live = (await expectJson(await before.post("/v1/table/live/describe", {}))).location as string;
  const source = (await expectJson(await before.post("/v1/table/source/describe", {}))).location as string;
  const deregistered = (await expectJson(await before.post("/v1/table/kept/deregister", {}))).location as string;
  const declared = (await expectJson(await before.post("/v1/table/declared/declare", {}))).location as string;
  const tablesDir = path.dirname(live);
  const storageRoot = path.dirname(tablesDir);
  const inLayout = () => path.join(tablesDir, `${randomUUID()}.lance`);

  // A client writing into a declared table's folder before its first commit.
  mkdirSync(declared, { recursive: true });
  writeFileSync(path.join(declared, "staged.bin"), "x");
  // A create that crashed after writing its data, before its row.
  const crashedCreate = inLayout();
  cpSync(source, crashedCreate, { recursive: true });
  // A drop that crashed after deleting its row, part-way through deleting the files.
  const crashedDrop = inLayout();
  cpSync(source, crashedDrop, { recursive: true });
  rmSync(path.join(crashedDrop, "_versions"), { recursive: true });
  // Registered tables, in the layout and elsewhere under the storage root.
  const registeredInLayout = inLayout();
  cpSync(source, registeredInLayout, { recursive: true });
  await expectJson(await before.post("/v1/table/reg_layout/register", { location: registeredInLayout }));
  const registeredElsewhere = path.join(storageRoot, "external", "ext.lance");
  cpSync(source, registeredElsewhere, { recursive: true });
  await expectJson(await before.post("/v1/table/reg_elsewhere/register", { location: registeredElsewhere }));
  // Not a name Quiver gives: someone else's folder.
  const foreign = path.join(tablesDir, "notes.lance");
  mkdirSync(foreign);
  await before.close();

  age(storageRoot, 2 * hourMs);
  // A create still writing (perhaps in another process): no row yet, but changed just now.
  const inFlight = inLayout();
  cpSync(source, inFlight, { recursive: true });
  age(inFlight, 0);

  const after = await startTestServer({ root, orphanGraceMs: hourMs });
  t.after(() => after.close());
  assert.equal(existsSync(crashedCreate), false, "the crashed create's folder is removed");
  assert.equal(existsSync(crashedDrop), false, "the crashed drop's folder is removed");
  for (const kept of [live, source, deregistered, declared, registeredInLayout, registeredElsewhere, foreign, inFlight]) {
    assert.equal(existsSync(kept), true, `${kept} is kept`);
  }
  assert.equal(existsSync(path.join(declared, "staged.bin")), true, "the declared table's files are kept");
  assert.equal(await countRows(after, "live"), 5);
  assert.equal(await countRows(after, "reg_layout"), 3);
  assert.equal(await countRows(after, "reg_elsewhere"), 3);
  await expectJson(await after.post("/v1/table/kept/register", { location: deregistered }));
  assert.equal(await countRows(after, "kept"), 4);
  // Uploads still land in the layout after the sweep.
  await expectJson(await after.upload("/v1/table/live/insert", streamOf(rowsTable(range(5, 7)))));
  assert.equal(await countRows(after, "live"), 7);
});

test("With the default grace period, a folder without a row that changed recently is kept", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const before = await startTestServer({ root });
  await createRowsTable(before, "source", 2);
  const source = (await expectJson(await before.post("/v1/table/source/describe", {}))).location as string;
  await before.close();
  const recent = path.join(path.dirname(source), `${randomUUID()}.lance`);
  cpSync(source, recent, { recursive: true });
  age(recent, 10 * 60 * 1000);
  const after = await startTestServer({ root });
  t.after(() => after.close());
  assert.equal(existsSync(recent), true);
});
