/**
 * Cold start of `quiver serve` on the default configuration, for `npm run bench`: the built CLI's
 * time from spawn to "listening", measured as `start-up.ts` measures it.
 * Run `npm run build && node dist/bench/cold-start.js [starts=7]`.
 */
import { measureStartUp } from "./start-up.js";

/** Milliseconds from spawn to "listening", median of `starts` restarts on one root (the first start creates it and is not counted). */
export function measureColdStart(starts: number): Promise<number> {
  return measureStartUp(process.execPath, ["dist/src/bin/main.js", "serve"], starts);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`cold start to "listening": ${(await measureColdStart(Number(process.argv[2] ?? 7))).toFixed(0)} ms (median)`);
}
