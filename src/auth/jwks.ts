/**
 * @module Public keys of an external OIDC issuer: `jose`'s remote JWKS, with its fetch bounded in
 * time and size. Fetched keys are trusted for `maxAgeMs`; a token naming a key the cached set
 * lacks triggers a refetch at most once per `cooldownMs`, so a rotation is picked up within
 * seconds while a flood of forged `kid`s cannot turn Quiver into a request amplifier against the
 * issuer. A fetch that fails is an outage of the issuer (17), not the caller's fault (16).
 */
import { type JWTVerifyGetKey, createLocalJWKSet, createRemoteJWKSet, customFetch, errors } from "jose";
import { CatalogError } from "../model/catalog-error.js";

export interface JwksOptions {
  /** How long fetched keys are trusted before a refetch (default 10 minutes). */
  maxAgeMs?: number;
  /** Least time between two fetches prompted by an unknown key (default 30 seconds). */
  cooldownMs?: number;
  /** Time allowed for one fetch, body included (default 5 seconds). */
  timeoutMs?: number;
  /** Largest JWKS body accepted (default 128 KiB; real issuers publish a few KiB). */
  maxBytes?: number;
  /** After a failed fetch, how long only cached keys are used, without asking again (default 5 seconds). */
  failureBackoffMs?: number;
}

const defaults: Required<JwksOptions> = {
  maxAgeMs: 600_000,
  cooldownMs: 30_000,
  timeoutMs: 5_000,
  maxBytes: 128 * 1024,
  failureBackoffMs: 5_000,
};

/** A fetch of the JWKS that did not yield a JSON key set. */
class JwksUnavailable extends Error {}

/** The key resolver of `jwtVerify` for the issuer publishing its keys at `url`. */
export function issuerKeys(url: string, options: JwksOptions = {}): JWTVerifyGetKey {
  const given = Object.entries(options).filter(([, value]) => value !== undefined);
  const settings: Required<JwksOptions> = { ...defaults, ...Object.fromEntries(given) };
  const remote = createRemoteJWKSet(new URL(url), {
    cacheMaxAge: settings.maxAgeMs,
    cooldownDuration: settings.cooldownMs,
    timeoutDuration: settings.timeoutMs,
    [customFetch]: (resource, init) => boundedFetch(resource, init, settings.maxBytes),
  });
  let failedAt = Number.NEGATIVE_INFINITY;
  return async (header, token) => {
    // While the issuer is failing, every request that misses the cache would wait out a fetch.
    if (Date.now() - failedAt < settings.failureBackoffMs) {
      const cached = remote.fresh ? remote.jwks() : undefined;
      if (!cached) throw unavailable();
      return createLocalJWKSet(cached)(header, token);
    }
    try {
      return await remote(header, token);
    } catch (error) {
      if (error instanceof JwksUnavailable || error instanceof errors.JWKSInvalid || error instanceof errors.JWKSTimeout) {
        failedAt = Date.now();
        throw unavailable(error);
      }
      throw error;
    }
  };
}

function unavailable(cause?: unknown): CatalogError {
  return CatalogError.of("ServiceUnavailable", "the token issuer's keys cannot be fetched; retry later", { cause });
}

/**
 * `fetch` as `jose` asks for it (no redirects, its timeout signal), reading at most `maxBytes`
 * and checking the body is JSON, so that every way the fetch can fail is a JwksUnavailable.
 */
async function boundedFetch(url: string, init: RequestInit, maxBytes: number): Promise<Response> {
  try {
    const response = await fetch(url, init);
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new JwksUnavailable(`the JWKS answered HTTP ${response.status}`);
    }
    const text = await readCapped(response, maxBytes);
    JSON.parse(text);
    return new Response(text, { status: 200, headers: { "content-type": "application/json" } });
  } catch (error) {
    if (error instanceof JwksUnavailable) throw error;
    throw new JwksUnavailable("the JWKS could not be read", { cause: error });
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (Number(response.headers.get("content-length") ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw new JwksUnavailable(`the JWKS is larger than ${maxBytes} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader?.cancel();
      throw new JwksUnavailable(`the JWKS is larger than ${maxBytes} bytes`);
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
