/**
 * @module The registry every Quiver metric is declared on, and one constructor per metric type,
 * so that a declaration states only what differs between metrics: name, help, labels, buckets.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: "quiver_" });

/** A counter on the registry, labelled by `labelNames` (none by default). */
export function counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return new Counter({ name, help, labelNames, registers: [metricsRegistry] });
}

/** A gauge on the registry, labelled by `labelNames` (none by default). */
export function gauge<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
  return new Gauge({ name, help, labelNames, registers: [metricsRegistry] });
}

/** A histogram on the registry with the given bucket bounds, in seconds. */
export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): Histogram<L> {
  return new Histogram({ name, help, labelNames, buckets, registers: [metricsRegistry] });
}
