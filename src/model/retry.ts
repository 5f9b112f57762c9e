/**
 * @module Retries with capped exponential backoff, one helper for every layer that re-runs work
 * after a passing failure (store transactions, engine commits, webhook deliveries, job retries).
 * Each caller keeps its own numbers: only the arithmetic and the loop are shared.
 */
import { setTimeout as sleep } from "node:timers/promises";

/** How long to wait between attempts. */
export interface BackoffPolicy {
  /** The wait before the second attempt, before jitter. */
  firstMs: number;
  /** The most the wait grows to, before jitter; unbounded when absent. */
  capMs?: number;
  /**
   * The factor range a wait is scaled by at random, `[low, high)`: racing callers that failed
   * together spread apart instead of retrying in step. `[1, 1]` (the default) waits exactly.
   */
  jitter?: readonly [low: number, high: number];
}

/** Past this many doublings a wait no longer grows, so a long run never overflows to Infinity or NaN. */
const maxDoublings = 30;

/**
 * The wait after failed attempt `attempt` (1 for the first): `firstMs × 2^(attempt − 1)`, capped
 * at `capMs`, then scaled by the jitter factor drawn from `random()`.
 */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const [low, high] = policy.jitter ?? [1, 1];
  const grown = policy.firstMs * 2 ** Math.min(Math.max(0, attempt - 1), maxDoublings);
  const capped = policy.capMs === undefined ? grown : Math.min(policy.capMs, grown);
  return low === high ? capped * low : capped * (low + random() * (high - low));
}

/** How `retrying` re-runs work. */
export interface RetryOptions {
  /** Attempts in all, the first included; unbounded when absent (then only `signal` ends a run of failures). */
  attempts?: number;
  backoff: BackoffPolicy;
  /** Whether a failure may pass if tried again; the others are thrown at once. */
  retryable: (error: unknown, attempt: number) => boolean;
  /** Ends the retries: once aborted, the last failure is thrown instead of waiting for another attempt. */
  signal?: AbortSignal;
}

/**
 * Runs `attempt` until it succeeds, fails in a way `retryable` refuses, runs out of attempts or
 * is aborted; the failure that ended it is thrown as it was.
 */
export async function retrying<T>(attempt: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const attempts = options.attempts ?? Number.POSITIVE_INFINITY;
  for (let n = 1; ; n += 1) {
    try {
      return await attempt(n);
    } catch (error) {
      if (n >= attempts || options.signal?.aborted || !options.retryable(error, n)) throw error;
      await sleep(backoffDelay(options.backoff, n), undefined, { signal: options.signal }).catch(() => undefined);
      if (options.signal?.aborted) throw error;
    }
  }
}
