/**
 * Fixtures of the client conformance suite: one `Namespace` per test, over either
 * implementation (`dir` on a temporary folder, `rest` against a Quiver on port 0), and the
 * assertions every case shares. `CLIENT_IMPLS=dir` (or `rest`) narrows the loop.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import path from "node:path";
import type { TestContext } from "node:test";
import * as lancedb from "@lancedb/lancedb";
import { Field, FixedSizeList, Float32, Float64, Int32, Schema, Table, Utf8, vectorFromArray } from "apache-arrow";
import { type ImplName, type Namespace, NamespaceError, connect, type ErrorCodeName, ErrorCode } from "../../src/client/index.js";
import { errorStatus } from "../../src/model/error-codes.js";
import { startTestServer, tempRoot } from "../helpers/test-server.js";

export const implementations: ImplName[] = (process.env.CLIENT_IMPLS?.split(",") as ImplName[] | undefined) ?? ["dir", "rest"];

export interface ClientFixture {
  ns: Namespace;
  /** The folder holding every table of the default database. */
  storageRoot: string;
}

/** A fresh namespace client over `impl`, closed (and its folder removed) after the test. */
export async function openClient(t: TestContext, impl: ImplName, properties: Record<string, string> = {}): Promise<ClientFixture> {
  if (impl === "dir") {
    const root = tempRoot("quiver-client-dir-");
    const ns = await connect("dir", { ...properties, root });
    t.after(async () => {
      await ns.close();
      rmSync(root, { recursive: true, force: true });
    });
    return { ns, storageRoot: path.join(root, "databases", "default") };
  }
  const server = await startTestServer();
  const ns = await connect("rest", { ...properties, uri: server.url });
  t.after(async () => {
    await ns.close();
    await server.close();
  });
  return { ns, storageRoot: path.join(server.root, "databases", "default") };
}

/** Asserts that `promise` rejects with a NamespaceError of code `name`, its spec status and code. */
export async function rejectsWith(promise: Promise<unknown>, name: ErrorCodeName, message?: RegExp): Promise<NamespaceError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof NamespaceError, `expected a NamespaceError ${name}, got ${caught === undefined ? "success" : String(caught)}`);
  assert.equal(caught.name, name, caught.message);
  assert.equal(caught.code, ErrorCode[name]);
  assert.equal(caught.status, errorStatus[ErrorCode[name]]);
  if (message) assert.match(caught.message, message);
  return caught;
}

/** Three rows: an int, a float and a string column. */
export function sampleTable(offset = 0): Table {
  return new Table({
    id: vectorFromArray([1, 2, 3].map((n) => n + offset), new Int32()),
    score: vectorFromArray([0.5, 1.5, 2.5], new Float64()),
    label: vectorFromArray(["a", "b", "c"], new Utf8()),
  });
}

export const sampleSchema = new Schema([
  new Field("id", new Int32(), false),
  new Field("score", new Float64(), false),
  new Field("label", new Utf8(), true),
]);

/** Rows of the newest version of the Lance table at `location`, read with the LanceDB client itself. */
export async function rowCountAt(location: string): Promise<number> {
  const db = await lancedb.connect(path.dirname(location));
  try {
    const table = await db.openTable(path.basename(location, ".lance"));
    return await table.countRows();
  } finally {
    db.close();
  }
}

/** The point of row `id` in the 2-dimensional `vec` column: ids far apart are far apart. */
export function pointOf(id: number): number[] {
  return [id, id * 0.5];
}

/** Rows `ids` with an int `id`, a string `label` (default `row <id>`) and a FixedSizeList<Float32>(2) `vec`. */
export function vectorTable(ids: number[], label: (id: number) => string = (id) => `row ${id}`): Table {
  return new Table({
    id: vectorFromArray(ids, new Int32()),
    label: vectorFromArray(ids.map(label), new Utf8()),
    vec: vectorFromArray(ids.map(pointOf), new FixedSizeList(2, new Field("item", new Float32(), true))),
  });
}

/** The `id` column of a query answer, in answer order. */
export function idsOf(table: Table): number[] {
  return [...(table.getChild("id")?.toArray() ?? [])].map(Number);
}

/** The column names of a query answer. */
export function columnsOf(table: Table): string[] {
  return table.schema.fields.map((field) => field.name);
}

export { committed } from "../helpers/test-server.js";
