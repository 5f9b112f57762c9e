/**
 * Shared set-up for the version tests: tables with several real Lance versions, and staged
 * manifests for version/create. The catalog copies staged manifests without reading them, so
 * tests that only exercise the catalog may stage any bytes.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
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

/** Writes a staged manifest for `version` under the table (and branch) and returns its wire path. */
export function stageManifest(location: string, version: number, branch = ""): string {
  const directory = branch === "" ? path.join(location, "_versions") : path.join(location, "tree", branch, "_versions");
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `${version}.manifest-${randomUUID()}`);
  writeFileSync(file, `staged manifest of version ${version} at ${location}`);
  return file.slice(1);
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
