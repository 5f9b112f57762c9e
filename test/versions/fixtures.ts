/**
 * Shared set-up for the version tests: tables with several real Lance versions, versions staged
 * the way a writer in managed-versioning mode stages them, and reading a table back with the
 * LanceDB client through Quiver's namespace endpoint. Table files are reached through the storage
 * layer and Lance is opened with the location's storage options, so the same fixtures serve a
 * local folder and an object store.
 */
import { testStorages } from "../helpers/test-backend.js";
import { randomUUID } from "node:crypto";
import * as lancedb from "@lancedb/lancedb";
import { ipcStreamToFile } from "../../src/engine/arrow-ipc.js";
import { joinLocation, locationName, objectPathOf, parentLocation, resolveLocation, storeRootOf } from "../../src/storage/locations.js";
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

/** `location` as a namespace client names a staged manifest: its object path, no leading slash. */
export function wirePath(location: string): string {
  return objectPathOf(location).replace(/^\/+/, "");
}

/** Where the staged manifest `manifestPath` (wire form) of the table at `location` is stored. */
export function stagedLocation(location: string, manifestPath: string): string {
  return resolveLocation(storeRootOf(location), manifestPath);
}

/** Whether an object (a file) is stored at `location`. */
export async function objectExists(location: string): Promise<boolean> {
  return (await testStorages.for(location).head(location)) !== undefined;
}

/** Opens the Lance database holding the table at `location`, with the storage options it needs. */
function connectBeside(location: string): Promise<lancedb.Connection> {
  return lancedb.connect(parentLocation(location), { storageOptions: testStorages.optionsFor(location) });
}

function tableNameOf(location: string): string {
  return locationName(location).replace(/\.lance$/, "");
}

/**
 * Writes one new Lance version per entry of `rowsPerVersion` (rows `{ id }`) with the LanceDB
 * client directly on the table's location, then takes every manifest it wrote back out of the
 * history to Lance's staged name, `<final name>-<uuid>`, and puts Lance's latest-version hint
 * back: the table reads as before, and each version waits for its commit through the catalog,
 * as a client in managed-versioning mode leaves it. Write versions of one table one call at a
 * time: each builds on the versions committed so far.
 */
export async function stageVersions(location: string, rowsPerVersion: number[][]): Promise<StagedVersion[]> {
  const versionsDir = joinLocation(location, "_versions");
  const storage = testStorages.for(versionsDir);
  const finalNames = async () =>
    new Set((await storage.list(versionsDir)).filter((entry) => entry.kind === "object" && /^\d{20}\.manifest$/.test(entry.name)).map((entry) => entry.name));
  const before = await finalNames();
  const hint = joinLocation(versionsDir, hintName);
  const hintBefore = await storage.read(hint);
  const db = await connectBeside(location);
  const name = tableNameOf(location);
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
  const written = [...(await finalNames())].filter((file) => !before.has(file));
  if (written.length !== rowsPerVersion.length) throw new Error(`Lance wrote ${written.length} manifests for ${rowsPerVersion.length} versions`);
  const staged: StagedVersion[] = [];
  for (const file of written) {
    const final = joinLocation(versionsDir, file);
    const stagedFile = joinLocation(versionsDir, `${file}-${randomUUID()}`);
    await storage.put(stagedFile, (await storage.read(final))!);
    await storage.delete(final);
    staged.push({ version: Number(u64Max - BigInt(file.slice(0, 20))), manifest_path: wirePath(stagedFile) });
  }
  if (hintBefore === undefined) await storage.delete(hint);
  else await storage.put(hint, hintBefore);
  return staged.sort((a, b) => a.version - b.version);
}

/** Stages one new version of `ids`; see stageVersions. */
export async function stageVersion(location: string, ids: number[]): Promise<StagedVersion> {
  return (await stageVersions(location, [ids]))[0]!;
}

/** Stages bytes that are not a Lance manifest under a staged manifest name of `version`; returns its wire path. */
export async function stageGarbage(location: string, version: number): Promise<string> {
  const file = joinLocation(location, "_versions", `${(u64Max - BigInt(version)).toString().padStart(20, "0")}.manifest-${randomUUID()}`);
  await testStorages.for(file).put(file, Buffer.from(`not a manifest of version ${version} at ${location}`));
  return wirePath(file);
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
  const db = await connectBeside(location);
  try {
    return await viewOf(await db.openTable(tableNameOf(location)));
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

/** Every object under `root`'s `subdirectory` (relative path → size), for "nothing else changed" assertions. */
export async function filesUnder(root: string, subdirectory: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const walk = async (prefix: string, relative: string[]): Promise<void> => {
    for (const entry of await testStorages.for(prefix).list(prefix)) {
      const location = joinLocation(prefix, entry.name);
      if (entry.kind === "prefix") await walk(location, [...relative, entry.name]);
      else found.set([...relative, entry.name].join("/"), (await testStorages.for(location).head(location))!.size);
    }
  };
  await walk(joinLocation(root, subdirectory), []);
  return found;
}

export function versionNumbers(body: { versions: { version: number }[] }): number[] {
  return body.versions.map((version) => version.version);
}
