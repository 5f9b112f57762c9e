/**
 * @module Reads the rate-limit settings of `quiver serve`: a rate written `N/s` (or `N/m`, or a
 * bare `N` per second) and its burst, which defaults to one second's worth of requests.
 */
import type { RateLimit } from "../server/rate-limits.js";

const perUnit: Record<string, number> = { s: 1, sec: 1, second: 1, m: 60, min: 60, minute: 60 };

/** Requests per second of a rate setting; refuses anything else by the setting's name. */
export function parseRate(name: string, text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*([a-z]+))?\s*$/i.exec(text);
  const unit = match ? perUnit[(match[2] ?? "s").toLowerCase()] : undefined;
  const count = match ? Number(match[1]) : 0;
  if (!match || unit === undefined || !(count > 0)) throw new Error(`${name} must be a rate such as 100/s or 600/m, got '${text}'`);
  return count / unit;
}

/** A limit from its rate and burst settings; none when the rate is unset. */
export function rateLimitOf(name: string, rate: string | undefined, burst: number | undefined): RateLimit | undefined {
  if (rate === undefined) {
    if (burst !== undefined) throw new Error(`${name}-burst needs ${name}: a burst alone limits nothing`);
    return undefined;
  }
  const perSecond = parseRate(name, rate);
  return { perSecond, burst: burst ?? Math.max(1, Math.ceil(perSecond)) };
}
