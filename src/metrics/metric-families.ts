/**
 * @module The registry every Quiver metric is declared on, and one constructor per metric type,
 * so that a declaration states only what differs between metrics: name, help, labels, buckets.
 */
import { createRequire } from "node:module";
import type * as PromClient from "prom-client";

/**
 * prom-client's parts, required one by one rather than through its index: the index loads every
 * default metric, and the CPU one requires the OpenTelemetry API (for exemplars Quiver does not
 * use), which a server without tracing should not load at start-up. The CPU counters are
 * declared below instead; the package version is pinned, so these paths hold.
 */
const require = createRequire(import.meta.url);
const Counter = require("prom-client/lib/counter") as typeof PromClient.Counter;
const Gauge = require("prom-client/lib/gauge") as typeof PromClient.Gauge;
const Histogram = require("prom-client/lib/histogram") as typeof PromClient.Histogram;
const Registry = require("prom-client/lib/registry") as typeof PromClient.Registry;
type DefaultMetric = (registry: PromClient.Registry, config: { prefix: string; eventLoopMonitoringPrecision: number }) => void;
/** prom-client's default metrics (`collectDefaultMetrics`) but the CPU one. */
const defaultMetrics = [
  "processStartTime",
  "osMemoryHeap",
  "processOpenFileDescriptors",
  "processMaxFileDescriptors",
  "eventLoopLag",
  ...(typeof process.getActiveResourcesInfo === "function" ? ["processResources"] : []),
  "processHandles",
  "processRequests",
  "heapSizeAndUsed",
  "heapSpacesSizeAndUsed",
  "version",
  "gc",
].map((name) => require(`prom-client/lib/metrics/${name}`) as DefaultMetric);

export const metricsRegistry = new Registry();
for (const metric of defaultMetrics) metric(metricsRegistry, { prefix: "quiver_", eventLoopMonitoringPrecision: 10 });
declareCpuCounters("quiver_");

/** The process's CPU time, as prom-client's default `process_cpu_*_seconds_total` counters have it. */
function declareCpuCounters(prefix: string): void {
  let last = process.cpuUsage();
  new Counter({
    name: `${prefix}process_cpu_user_seconds_total`,
    help: "Total user CPU time spent in seconds.",
    registers: [metricsRegistry],
    // Read first of the three on a scrape (they are read in the order declared): it updates all three.
    collect() {
      const now = process.cpuUsage();
      const userSeconds = (now.user - last.user) / 1e6;
      const systemSeconds = (now.system - last.system) / 1e6;
      last = now;
      this.inc(userSeconds);
      system.inc(systemSeconds);
      total.inc(userSeconds + systemSeconds);
    },
  });
  const system = new Counter({ name: `${prefix}process_cpu_system_seconds_total`, help: "Total system CPU time spent in seconds.", registers: [metricsRegistry] });
  const total = new Counter({ name: `${prefix}process_cpu_seconds_total`, help: "Total user and system CPU time spent in seconds.", registers: [metricsRegistry] });
}

/** A counter on the registry, labelled by `labelNames` (none by default). */
export function counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): PromClient.Counter<L> {
  return new Counter({ name, help, labelNames, registers: [metricsRegistry] });
}

/** A gauge on the registry, labelled by `labelNames` (none by default). */
export function gauge<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): PromClient.Gauge<L> {
  return new Gauge({ name, help, labelNames, registers: [metricsRegistry] });
}

/** A histogram on the registry with the given bucket bounds, in seconds. */
export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): PromClient.Histogram<L> {
  return new Histogram({ name, help, labelNames, buckets, registers: [metricsRegistry] });
}
