/**
 * Cold start of the built server: from spawning `node dist/src/cli/main.js serve` to its
 * "listening" line, on an existing root (a restart), median of several starts.
 * Run `npm run build && node dist/bench/cold-start.js [starts=7]`.
 */
import { rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { spawnServe } from "../test/helpers/cli-process.js";
import { tempRoot } from "../test/helpers/test-server.js";

/** Milliseconds from spawn to "listening", median of `starts` restarts on one root (the first start creates it and is not counted). */
export async function measureColdStart(starts: number): Promise<number> {
  const root = tempRoot("quiver-cold-");
  const times: number[] = [];
  try {
    for (let i = 0; i <= starts; i += 1) {
      const begin = performance.now();
      const server = await spawnServe(["--port", "0", "--root", root]);
      const elapsed = performance.now() - begin;
      await server.stop("SIGTERM");
      if (i > 0) times.push(elapsed);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`cold start to "listening": ${(await measureColdStart(Number(process.argv[2] ?? 7))).toFixed(0)} ms (median)`);
}
