/**
 * @module Builds the auth services of a runtime from its configuration: the token signing key
 * from the store, the authenticator (API keys, Quiver tokens, an external OIDC issuer), the
 * gate. Refuses to serve without authentication beyond the loopback interface unless the
 * operator explicitly chose to.
 */
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import type { AuthStore } from "../auth/auth-store.js";
import { AccessDirectory } from "../auth/access-directory.js";
import { Authenticator } from "../auth/authenticator.js";
import type { ExternalIssuerConfig } from "../auth/external-issuer.js";
import { loadSigningKey } from "../auth/signing-key.js";
import { TokenService } from "../auth/tokens.js";
import type { CatalogRegistry } from "../catalog/runtime/database-registry.js";
import { AuthGate, type AuthMode } from "../server/auth/auth-gate.js";
import { type ThrottlePolicy, defaultThrottlePolicy } from "../server/auth/failure-throttle.js";

export interface AuthConfig {
  /** Default `none`: every caller is admin (loopback only). */
  mode: AuthMode;
  /** Lifetime of issued access tokens in seconds; default 3600. */
  tokenTtlSeconds?: number;
  oidc?: ExternalIssuerConfig;
  /** Allows mode `none` on a non-loopback host. */
  insecureNoAuth?: boolean;
  /** How repeated authentication failures of one source are slowed; default `defaultThrottlePolicy`. */
  failureThrottle?: Partial<ThrottlePolicy>;
}

/** Whether `host` only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  if (isIP(bare) === 6) return bare === "::1" || bare.startsWith("::ffff:127.");
  return false;
}

/** Throws when the combination of host and auth mode would expose data without credentials. */
export function checkAuthExposure(host: string, auth: AuthConfig): void {
  if (auth.mode === "none" && !isLoopbackHost(host) && !auth.insecureNoAuth) {
    throw new Error(
      `refusing to serve ${host} without authentication: use --auth required, or --insecure-no-auth to expose every database to anyone who can connect`,
    );
  }
}

/** Where releases before the key moved into the store kept it under the root. */
const legacySigningKeyFile = path.join("auth", "token-signing.key");

export async function buildAuthGate(root: string, registry: CatalogRegistry, store: AuthStore, auth: AuthConfig): Promise<AuthGate> {
  const signingKey = await loadSigningKey(store, legacySigningKey(root));
  const tokens = new TokenService(store, signingKey, auth.tokenTtlSeconds ?? 3600);
  // Loaded only when an issuer is configured: it brings `jose`'s remote key sets.
  const external = auth.oidc ? new (await import("../auth/external-issuer.js")).ExternalIssuer(auth.oidc) : undefined;
  return new AuthGate(auth.mode, new Authenticator(store, tokens, external), registry, { ...defaultThrottlePolicy, ...auth.failureThrottle }, new AccessDirectory(store));
}

/** The key an older release kept in a file under the root, if any, so its tokens stay valid. */
function legacySigningKey(root: string): Buffer | undefined {
  try {
    return Buffer.from(readFileSync(path.join(root, legacySigningKeyFile), "utf8").trim(), "base64url");
  } catch {
    return undefined;
  }
}
