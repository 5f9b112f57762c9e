/**
 * Start-up of `quiver serve` on the default configuration (SQLite catalog, local folder, nothing
 * else configured): from spawning the command to its "Quiver listening" line, median of several
 * starts on one root (the first start creates the root and is not counted). Measures the built
 * CLI and `npm start` (which first checks that the build is fresh).
 * Run `npm run build && node dist/bench/start-up.js [starts=10]`.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { tempRoot } from "../test/helpers/test-server.js";

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Milliseconds from spawn to the ready line; the command runs in a process group of its own, ended whole. */
function timeOneStart(command: string, args: string[]): Promise<number> {
  const begin = performance.now();
  const child = spawn(command, args, { cwd: projectDir, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, QUIVER_LOG_LEVEL: "warn" } });
  let output = "";
  let ready: number | undefined;
  return new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (!output.includes("Quiver listening on ")) return;
      ready = performance.now() - begin;
      child.stdout.off("data", onData);
      process.kill(-(child.pid as number), "SIGTERM");
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("close", () => (ready === undefined ? reject(new Error(`exited before it was ready: ${output}`)) : resolve(ready)));
  });
}

/** Median milliseconds to "listening" over `starts` restarts of `command args... --port 0 --root <root>`. */
export async function measureStartUp(command: string, args: string[], starts: number): Promise<number> {
  const root = tempRoot("quiver-start-");
  const times: number[] = [];
  try {
    for (let i = 0; i <= starts; i += 1) {
      const elapsed = await timeOneStart(command, [...args, "--port", "0", "--root", root]);
      if (i > 0) times.push(elapsed);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const starts = Number(process.argv[2] ?? 10);
  const cli = await measureStartUp(process.execPath, ["dist/src/bin/main.js", "serve"], starts);
  console.log(`node dist/src/bin/main.js serve: ${cli.toFixed(0)} ms (median of ${starts})`);
  const npm = await measureStartUp("npm", ["start", "--"], starts);
  console.log(`npm start: ${npm.toFixed(0)} ms (median of ${starts})`);
}
