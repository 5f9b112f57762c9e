/**
 * What the benchmarks share: percentiles of repeated calls, request rates of concurrent loops, a
 * lean keep-alive HTTP client (fetch's own overhead would dominate sub-millisecond requests), and
 * Markdown ratio rows.
 */
import http from "node:http";
import { performance } from "node:perf_hooks";

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** Median and 99th percentile of timings. */
export function percentiles(times: readonly number[]): { p50: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** One Markdown row: a figure, its baseline and their ratio. */
export function ratioRow(figure: string, measured: number, baseline: number, goal: string): string {
  const f = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));
  return `| ${figure} | ${f(measured)} | ${f(baseline)} | ${(measured / baseline).toFixed(2)} | ${goal} |`;
}

/** Sends `total` calls from `concurrency` loops; answers calls/s. */
export async function measureRequests(total: number, concurrency: number, call: (worker: number, i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let i = next++; i < total; i = next++) await call(worker, i);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

/**
 * A function that POSTs JSON (or nothing) over up to `sockets` keep-alive connections, with
 * `extraHeaders` (credentials), and answers the parsed body of a 200.
 */
export function jsonPoster(sockets: number, extraHeaders: Record<string, string> = {}): (base: string, route: string, body?: unknown) => Promise<unknown> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  return (base, route, body) => {
    const payload = Buffer.from(body === undefined ? "" : JSON.stringify(body));
    const headers: Record<string, string | number> = { ...extraHeaders, "content-length": payload.length };
    if (body !== undefined) headers["content-type"] = "application/json";
    return new Promise((resolve, reject) => {
      const request = http.request(`${base}${route}`, { method: "POST", agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (response.statusCode !== 200) reject(new Error(`${route} answered ${response.statusCode}: ${text}`));
          else resolve(text === "" ? undefined : JSON.parse(text));
        });
        response.on("error", reject);
      });
      request.on("error", reject);
      request.end(payload);
    });
  };
}

/** A GET over the same kind of connections; answers the parsed body of a 200. */
export function jsonGetter(sockets: number): (url: string) => Promise<unknown> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  return (url) =>
    new Promise((resolve, reject) => {
      http
        .get(url, { agent }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            if (response.statusCode !== 200) reject(new Error(`${url} answered ${response.statusCode}: ${text}`));
            else resolve(JSON.parse(text));
          });
          response.on("error", reject);
        })
        .on("error", reject);
    });
}
