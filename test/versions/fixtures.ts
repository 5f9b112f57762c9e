/**
 * Shared set-up for the version tests: tables with several real Lance versions, versions staged
 * the way a writer in managed-versioning mode stages them, and reading a table back with the
 * LanceDB client through Quiver's namespace endpoint.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import * as lancedb from "@lancedb/lancedb";
import { ipcStreamToFile } from "../../src/engine/arrow-ipc.js";
import { arrowStream } from "../helpers/arrow.js";
import { type TestServer, expectJson } from "../helpers/test-server.js";

/** Creates table `name` (main branch) with `versions` Lance versions of one row each; returns its location. */
export async function tableWithVersions(server: TestServer, name: string, versions: number): Promise<string> {
  const created = await expectJson(await server.upload(`/v1/table/${name}/create`, arrowStream({ id: Int32Array.from([1]) })));
  const location = created.location as string;
  if (versions > 1) {
    const table = await server.runtime.engine.openTable(location);
    for (let i = 2; i <= versions; i += 1) {
      const upload = await ipcStreamToFile(arrowStream({ id: Int32Array.from([i]) }));
      await table.add(upload.file, "append");
    }
  }
  return location;
}

/** Declares table `name` (no data) and returns its location. */
export async function declaredTable(server: TestServer, name: string): Promise<string> {
  return (await expectJson(await server.post(`/v1/table/${name}/declare`, {}))).location as string;
}

/** A version written by Lance but not yet committed: its manifest waits under Lance's staged name. */
export interface StagedVersion {
  version: number;
  /** The staged manifest as the client sends it: relative to the object-store root, no leading slash. */
  manifest_path: string;
}

const u64Max = 18446744073709551615n;
const hintName = "latest_version_hint.json";

/**
 * Writes one new Lance version per entry of `rowsPerVersion` (rows `{ id }`) with the LanceDB
 * client directly on the table's location, then takes every manifest it wrote back out of the
 * history to Lance's staged name, `<final name>-<uuid>`, and puts Lance's latest-version hint
 * back: the table reads as before, and each version waits for its commit through the catalog,
 * as a client in managed-versioning mode leaves it. Write versions of one table one call at a
 * time: each builds on the versions committed so far.
 */
export async function stageVersions(location: string, rowsPerVersion: number[][]): Promise<StagedVersion[]> {
  const versionsDir = path.join(location, "_versions");
  const finalNames = () => new Set(existsSync(versionsDir) ? readdirSync(versionsDir).filter((name) => /^\d{20}\.manifest$/.test(name)) : []);
  const before = finalNames();
  const hint = path.join(versionsDir, hintName);
  const hintBefore = existsSync(hint) ? readFileSync(hint) : undefined;
  const db = await lancedb.connect(path.dirname(location));
  const name = path.basename(location, ".lance");
  try {
    let table = before.size > 0 ? await db.openTable(name) : undefined;
    for (const ids of rowsPerVersion) {
      const rows = ids.map((id) => ({ id }));
      if (table) await table.add(rows);
      else table = await db.createTable(name, rows);
    }
    table?.close();
  } finally {
    db.close();
  }
  const written = [...finalNames()].filter((file) => !before.has(file));
  if (written.length !== rowsPerVersion.length) throw new Error(`Lance wrote ${written.length} manifests for ${rowsPerVersion.length} versions`);
  const staged = written.map((file) => {
    const stagedFile = path.join(versionsDir, `${file}-${randomUUID()}`);
    renameSync(path.join(versionsDir, file), stagedFile);
    return { version: Number(u64Max - BigInt(file.slice(0, 20))), manifest_path: stagedFile.slice(1) };
  });
  if (hintBefore === undefined) rmSync(hint, { force: true });
  else writeFileSync(hint, hintBefore);
  return staged.sort((a, b) => a.version - b.version);
}

/** Stages one new version of `ids`; see stageVersions. */
export async function stageVersion(location: string, ids: number[]): Promise<StagedVersion> {
  return (await stageVersions(location, [ids]))[0]!;
}

/** Stages bytes that are not a Lance manifest under a staged manifest name of `version`. */
export function stageGarbage(location: string, version: number): string {
  const directory = path.join(location, "_versions");
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `${(u64Max - BigInt(version)).toString().padStart(20, "0")}.manifest-${randomUUID()}`);
  writeFileSync(file, `not a manifest of version ${version} at ${location}`);
  return file.slice(1);
}

/**
 * Opens table `id` with the LanceDB client through Quiver's namespace endpoint (it reads the
 * location from Quiver and the data from storage) and returns the version Lance opens and the
 * ids of its rows, sorted.
 */
export async function readWithLance(url: string, id: string[]): Promise<LanceView> {
  const db = await lancedb.connectNamespace("rest", { uri: url });
  try {
    return await viewOf(await db.openTable(id[id.length - 1]!, id.slice(0, -1)));
  } finally {
    db.close();
  }
}

/** Opens the Lance table at `location` with the LanceDB client directly; as readWithLance. */
export async function readLanceAt(location: string): Promise<LanceView> {
  const db = await lancedb.connect(path.dirname(location));
  try {
    return await viewOf(await db.openTable(path.basename(location, ".lance")));
  } finally {
    db.close();
  }
}

export interface LanceView {
  version: number;
  ids: number[];
}

async function viewOf(table: lancedb.Table): Promise<LanceView> {
  try {
    const rows = await table.query().select(["id"]).toArray();
    return { version: await table.version(), ids: rows.map((row) => Number(row.id)).sort((a, b) => a - b) };
  } finally {
    table.close();
  }
}

/** Every file under `root` (relative path → size), for "nothing else changed" assertions. */
export function filesUnder(root: string, subdirectory: string): Map<string, number> {
  const base = path.join(root, subdirectory);
  const found = new Map<string, number>();
  let names: string[] = [];
  try {
    names = readdirSync(base, { recursive: true }) as string[];
  } catch {
    return found;
  }
  for (const name of names) {
    const full = path.join(base, name);
    if (statSync(full).isFile()) found.set(name, statSync(full).size);
  }
  return found;
}

export function versionNumbers(body: { versions: { version: number }[] }): number[] {
  return body.versions.map((version) => version.version);
}
