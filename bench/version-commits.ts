/**
 * @module What the commit benchmarks share: a staged stand-in manifest and a timer for commits
 * made by one writer per table.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import path from "node:path";

// A 1 KiB stand-in for a manifest; it ends with Lance's "LANC" magic, as the catalog requires.
const payload = Buffer.alloc(1024, 7);
payload.write("LANC", payload.length - 4, "latin1");

/**
 * Writes a manifest for `version` into the `_versions` folder of the table at `location`, under a
 * staged name; answers its path without the leading "/", as `manifest_path` takes it.
 */
export function stageManifest(location: string, version: number): string {
  const directory = path.join(location, "_versions");
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `${version}.manifest-${randomUUID()}`);
  writeFileSync(file, payload);
  return file.slice(1);
}

export type Commit = (table: number, version: number) => Promise<void>;

/**
 * Runs about `commits` commits over `tableCount` tables, one writer per table, each writing
 * versions `firstVersion`, `firstVersion + 1`, …; answers commits/s.
 */
export async function measureCommits(commits: number, tableCount: number, commit: Commit, firstVersion = 1): Promise<number> {
  const perTable = Math.ceil(commits / tableCount);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: tableCount }, async (_, table) => {
      for (let version = firstVersion; version < firstVersion + perTable; version += 1) await commit(table, version);
    }),
  );
  return (perTable * tableCount) / ((performance.now() - started) / 1000);
}
