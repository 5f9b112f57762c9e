/**
 * A preload (`node --import`) that reports the modules a process loaded, for tests of what
 * `quiver serve` loads before it listens. With QUIVER_REPORT_LOADED_MODULES set to a folder, each
 * process writes `<folder>/<pid>.json`: the server process when it writes its ready line, any
 * other process (the relaying `serve`) when it exits.
 *
 * ES modules are seen by a loader hook (`loaded-modules-hooks.ts`), which runs on its own thread
 * and appends each URL to a file before the module is evaluated; CommonJS modules required by
 * other CommonJS modules pass no hook on Node 20 and 22, so `require.cache` adds them.
 */
import { readFileSync, writeFileSync } from "node:fs";
import module, { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

export interface LoadedModulesReport {
  pid: number;
  /** "server" for the process that listens, "relay" for the one that starts it and passes its log on. */
  role: "server" | "relay";
  /** file: URLs (and node: built-ins seen by the hook), in no particular order. */
  modules: string[];
}

const reportDir = process.env.QUIVER_REPORT_LOADED_MODULES;
if (reportDir) {
  const hookLog = path.join(reportDir, `${process.pid}.esm.log`);
  writeFileSync(hookLog, "");
  module.register(new URL("./loaded-modules-hooks.js", import.meta.url), { data: { hookLog } });
  const requireCache = createRequire(import.meta.url).cache;
  const role = process.env.QUIVER_SERVE_SUPERVISOR === undefined ? "relay" : "server";
  let reported = false;
  const report = () => {
    if (reported) return;
    reported = true;
    const esm = readFileSync(hookLog, "utf8").split("\n").filter((line) => line !== "");
    const cjs = Object.keys(requireCache).map((file) => pathToFileURL(file).href);
    const body: LoadedModulesReport = { pid: process.pid, role, modules: [...new Set([...esm, ...cjs])] };
    writeFileSync(path.join(reportDir, `${process.pid}.json`), JSON.stringify(body));
  };
  // The ready line, "Quiver listening on …", is the moment that counts: the report is written
  // before the line, so a test that has read the line finds the report complete.
  const write = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean;
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (role === "server" && String(chunk).includes("Quiver listening on ")) report();
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;
  // A server that never got to listen reports at its end all the same.
  process.on("exit", report);
}
