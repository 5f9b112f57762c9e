/** Timing helpers the benchmarks share: percentiles of repeated calls and Markdown ratio rows. */
import { performance } from "node:perf_hooks";

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** Runs `fn` `n` times one after the other; median and 99th percentile in milliseconds. */
export async function timeEach(n: number, fn: (i: number) => Promise<void>): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const start = performance.now();
    await fn(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** One Markdown row: a figure, its baseline and their ratio. */
export function ratioRow(figure: string, measured: number, baseline: number, goal: string): string {
  const f = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));
  return `| ${figure} | ${f(measured)} | ${f(baseline)} | ${(measured / baseline).toFixed(2)} | ${goal} |`;
}
