/**
 * @module Slows down a source that keeps failing authentication. Each source's failures are
 * counted in a window of a minute from its first failure; the first `freeFailures` are answered
 * at once, each later one waits twice as long as the one before (from `baseDelayMs`, at most
 * `maxDelayMs`) before its 401. A waiting request holds nothing but its socket: its body is not
 * read. Successful authentications are never counted nor slowed. The table keeps at most
 * `maxSources` sources; when full, the one counted longest ago is forgotten.
 */
import { backoffDelay } from "../../model/retry.js";

export interface ThrottlePolicy {
  freeFailures: number;
  windowMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxSources: number;
}

export const defaultThrottlePolicy: ThrottlePolicy = { freeFailures: 10, windowMs: 60_000, baseDelayMs: 100, maxDelayMs: 5_000, maxSources: 10_000 };

interface Failures {
  since: number;
  count: number;
}

export class FailureThrottle {
  private readonly sources = new Map<string, Failures>();

  constructor(private readonly policy: ThrottlePolicy = defaultThrottlePolicy) {}

  /** Counts a failure of `source`; resolves once its answer has waited long enough. */
  async failed(source: string, now = Date.now()): Promise<void> {
    const delay = this.count(source, now);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  }

  /** Counts a failure and returns how long its answer waits, in milliseconds. */
  count(source: string, now = Date.now()): number {
    const { freeFailures, windowMs, baseDelayMs, maxDelayMs, maxSources } = this.policy;
    let failures = this.sources.get(source);
    if (!failures || now - failures.since > windowMs) failures = { since: now, count: 0 };
    failures.count += 1;
    // Re-inserted, so the map's order is the order sources last failed in.
    this.sources.delete(source);
    this.sources.set(source, failures);
    if (this.sources.size > maxSources) this.sources.delete(this.sources.keys().next().value as string);
    const over = failures.count - freeFailures;
    return over <= 0 ? 0 : backoffDelay({ firstMs: baseDelayMs, capMs: maxDelayMs }, over);
  }

  /** Sources being counted, for tests of the table's bound. */
  get size(): number {
    return this.sources.size;
  }
}
