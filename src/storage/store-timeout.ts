/**
 * @module How long the server waits for an object store. One setting, the store timeout, bounds
 * every request the server itself makes to a store: through Lance (its object store's request
 * and connect timeouts and retries, set as Lance's own storage keys) and through the SDKs of
 * Quiver's backends (their retry policies). A store that is down then fails a request within
 * about that time instead of after the SDKs' default minutes of retries. The bounds are the
 * server's: clients that receive storage options keep their own defaults.
 */
import type { StorageOptions } from "./storage-options.js";

/** Seconds the server waits for an object store by default. */
export const defaultStoreTimeoutSeconds = 10;

let storeTimeoutMs = defaultStoreTimeoutSeconds * 1000;

/** Sets the store timeout for object-store roots configured from now on. */
export function setStoreTimeout(ms: number): void {
  if (!Number.isFinite(ms) || ms <= 0) throw new Error(`the store timeout must be a positive number of milliseconds, not ${ms}`);
  storeTimeoutMs = ms;
}

/** The store timeout in milliseconds. */
export function storeTimeout(): number {
  return storeTimeoutMs;
}

/** Attempts of one store request by Quiver's backends, the first included. */
export const storeRequestAttempts = 2;

/**
 * Lance's keys that bound its object store, with the values the store timeout gives them. An
 * operator's own value for a key wins. `timeout` bounds one request and `connect_timeout` its
 * connection; `client_max_retries` and `client_retry_timeout` (whole seconds) bound the object
 * store's retries of a failed request; `lance_aimd_max_retries` bounds the retries Lance's
 * throttling layer adds on top, which counts refused connections as throttling.
 */
export function lanceTimeoutOptions(ms: number): StorageOptions {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return {
    timeout: `${ms}ms`,
    connect_timeout: `${Math.max(500, Math.min(5000, Math.floor(ms / 4)))}ms`,
    client_max_retries: String(storeRequestAttempts - 1),
    client_retry_timeout: String(seconds),
    lance_aimd_max_retries: "1",
  };
}

/** `options` with the store timeout's bounds wherever the operator set none. */
export function withStoreTimeout(options: StorageOptions, ms = storeTimeoutMs): StorageOptions {
  const given = new Set(Object.keys(options).map((key) => key.toLowerCase()));
  const bounds = Object.entries(lanceTimeoutOptions(ms)).filter(([key]) => !given.has(key));
  return { ...options, ...Object.fromEntries(bounds) };
}

/**
 * A duration in Lance's notation (`30s`, `500ms`, `2m`, or bare seconds) in milliseconds, for the
 * SDKs of Quiver's backends, which read the same `timeout` key; undefined when absent or unreadable.
 */
export function durationMs(value: string | undefined): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(value ?? "");
  if (!match) return undefined;
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? "s").toLowerCase() as "ms" | "s" | "m" | "h"];
  return Number(match[1]) * factor;
}

/** The request timeout the options configure (Lance's `timeout`), or the store timeout. */
export function requestTimeoutOf(options: StorageOptions): number {
  return durationMs(options.timeout) ?? storeTimeoutMs;
}

/**
 * How long one attempt of a request by Quiver's backends may take: all attempts together fit in
 * the request timeout. Their requests move small objects (manifests, properties, listings), so
 * a fraction of it is plenty, and a store that accepts connections but never answers fails a
 * request within the timeout rather than a multiple of it.
 */
export function attemptTimeoutOf(options: StorageOptions): number {
  return Math.max(250, Math.floor(requestTimeoutOf(options) / storeRequestAttempts));
}
