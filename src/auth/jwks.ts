/**
 * @module Public keys of an external OIDC issuer, fetched from its JWKS URL and cached. An
 * unknown `kid` triggers a refetch (key rotation), at most once per `minRefetchMs`, so a flood
 * of forged kids cannot turn Quiver into a request amplifier against the issuer.
 */
import { createPublicKey, type JsonWebKey, type KeyObject } from "node:crypto";
import { CatalogError } from "../model/catalog-error.js";
import { JwtError } from "./jwt.js";

interface CachedKey {
  kid: string | undefined;
  alg: string | undefined;
  key: KeyObject;
}

export interface JwksOptions {
  url: string;
  /** How long fetched keys are trusted before a refetch (default 10 minutes). */
  maxAgeMs?: number;
  /** Least time between two fetches (default 30 seconds). */
  minRefetchMs?: number;
  timeoutMs?: number;
}

export class JwksCache {
  private keys: CachedKey[] = [];
  private fetchedAt = 0;
  private inflight: Promise<void> | undefined;

  constructor(private readonly options: JwksOptions) {}

  /** The key for a token header; throws JwtError when none fits, 17 when the JWKS is unreachable. */
  async keyFor(kid: string | undefined, alg: string): Promise<KeyObject> {
    const now = Date.now();
    const stale = now - this.fetchedAt > (this.options.maxAgeMs ?? 600_000);
    let found = stale ? undefined : this.pick(kid, alg);
    if (!found && (stale || now - this.fetchedAt >= (this.options.minRefetchMs ?? 30_000))) {
      await this.refresh();
      found = this.pick(kid, alg);
    }
    if (!found) throw new JwtError("token key is not among the issuer's keys");
    return found.key;
  }

  private pick(kid: string | undefined, alg: string): CachedKey | undefined {
    const usable = this.keys.filter((k) => k.alg === undefined || k.alg === alg);
    if (kid !== undefined) return usable.find((k) => k.kid === kid);
    return usable.length === 1 ? usable[0] : undefined;
  }

  private refresh(): Promise<void> {
    this.inflight ??= this.load().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async load(): Promise<void> {
    let body: unknown;
    try {
      const response = await fetch(this.options.url, { signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      body = await response.json();
    } catch (error) {
      throw CatalogError.of("ServiceUnavailable", "the token issuer's keys cannot be fetched; retry later", { cause: error });
    }
    const entries = (body as { keys?: unknown }).keys;
    const keys: CachedKey[] = [];
    for (const jwk of Array.isArray(entries) ? (entries as Record<string, unknown>[]) : []) {
      if (jwk.use !== undefined && jwk.use !== "sig") continue;
      try {
        const key = createPublicKey({ key: jwk as JsonWebKey, format: "jwk" });
        keys.push({ kid: typeof jwk.kid === "string" ? jwk.kid : undefined, alg: typeof jwk.alg === "string" ? jwk.alg : undefined, key });
      } catch {
        // A key type node:crypto cannot read is skipped; the others stay usable.
      }
    }
    this.keys = keys;
    this.fetchedAt = Date.now();
  }
}
