/**
 * Benchmark: CreateTableVersion commits per second, over HTTP and in-process, on one table and
 * spread over 16 tables, against Lance committing the same number of versions itself.
 *
 *   npx tsc -p tsconfig.json && node dist/bench/version-create.js [commits]
 *
 * Every commit stages a 1 KiB manifest and asks for the next version; the catalog records it in
 * one store transaction and puts the manifest at its V2 name. "engine" is Lance appending a
 * one-row batch per commit (data file + manifest), i.e. what a commit costs without the catalog.
 */
import { rmSync } from "node:fs";
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import type { Catalog } from "../src/catalog/catalog.js";
import { startServer } from "../src/cli/runtime.js";
import { ipcStreamToFile } from "../src/engine/arrow-ipc.js";
import { arrowStream } from "../test/helpers/arrow.js";
import { type Commit, measureCommits, stageManifest as stage } from "./version-commits.js";

const commits = Number(process.argv[2] ?? 400);

/** Runs `commits` commits over `tableCount` tables, one writer per table; returns commits/s. */
function measure(tableCount: number, commit: Commit): Promise<number> {
  return measureCommits(commits, tableCount, commit);
}

async function main(): Promise<void> {
  const root = path.join(os.tmpdir(), `quiver-bench-${randomUUID()}`);
  const server = await startServer({ root, host: "127.0.0.1", port: 0, logger: false, managedVersioning: true });
  const catalog = (await server.registry.catalogFor("default")) as Catalog;
  let run = 0;
  const declare = async (count: number) => {
    run += 1;
    const locations: string[] = [];
    for (let i = 0; i < count; i += 1) locations.push((await catalog.declareTable({ id: [`r${run}_t${i}`] })).location as string);
    return locations;
  };

  const results: Record<string, number> = {};
  for (const tableCount of [1, 16]) {
    const overHttp = await declare(tableCount);
    results[`http, ${tableCount} table(s)`] = await measure(tableCount, async (table, version) => {
      const response = await fetch(`${server.url}/v1/table/r${run}_t${table}/version/create`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ version, manifest_path: stage(overHttp[table] as string, version), naming_scheme: "V2" }),
      });
      if (response.status !== 200) throw new Error(`version/create answered ${response.status}: ${await response.text()}`);
    });

    const inProcess = await declare(tableCount);
    results[`catalog in-process, ${tableCount} table(s)`] = await measure(tableCount, async (table, version) => {
      await catalog.createTableVersion({ id: [`r${run}_t${table}`], version, manifest_path: stage(inProcess[table] as string, version) });
    });

    const engineTables = await Promise.all(
      Array.from({ length: tableCount }, async (_, i) => {
        const location = path.join(root, "engine", `r${run}_e${i}.lance`);
        await server.engine.createTable(location, await ipcStreamToFile(arrowStream({ id: Int32Array.from([0]) })), "create");
        return server.engine.openTable(location);
      }),
    );
    const row = (await ipcStreamToFile(arrowStream({ id: Int32Array.from([1]) }))).file;
    results[`engine (Lance append), ${tableCount} table(s)`] = await measure(tableCount, async (table) => {
      await engineTables[table]!.add(row, "append");
    });
  }

  await server.close();
  rmSync(root, { recursive: true, force: true });
  console.log(`commits: ${commits} per measurement, node ${process.version}, ${os.cpus().length} CPU(s)`);
  for (const [name, perSecond] of Object.entries(results)) console.log(`${name.padEnd(36)} ${perSecond.toFixed(0).padStart(6)} commits/s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
