/**
 * @module Latency observation for calls: one awaited call, or every method of an object (the
 * engine, the store's row functions), labelled by the method's name and its outcome.
 */
import type { Histogram } from "prom-client";

type CallHistogram = Histogram<"call" | "outcome">;

/** Runs `fn` and observes how long it took, with outcome `ok` or `error`. */
export async function timed<T>(histogram: CallHistogram, call: string, fn: () => Promise<T>): Promise<T> {
  const end = histogram.startTimer({ call });
  try {
    const value = await fn();
    end({ outcome: "ok" });
    return value;
  } catch (error) {
    end({ outcome: "error" });
    throw error;
  }
}

/**
 * A view of `target` whose methods observe their latency when they return a promise. Methods run
 * with the unwrapped object as `this`, so a method calling another is counted once.
 */
export function withTimedMethods<T extends object>(target: T, histogram: CallHistogram, skip: ReadonlySet<string> = new Set()): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver) as unknown;
      if (typeof value !== "function" || typeof property !== "string" || skip.has(property)) return value;
      return (...args: unknown[]) => {
        const end = histogram.startTimer({ call: property });
        let result: unknown;
        try {
          result = (value as (...a: unknown[]) => unknown).apply(object, args);
        } catch (error) {
          end({ outcome: "error" });
          throw error;
        }
        if (!(result instanceof Promise)) return result;
        return result.then(
          (resolved) => {
            end({ outcome: "ok" });
            return resolved;
          },
          (error: unknown) => {
            end({ outcome: "error" });
            throw error;
          },
        );
      };
    },
  });
}
