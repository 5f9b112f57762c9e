/**
 * @module Compact JWTs (RFC 7519) through `jose`: decoding a token to see who claims to have
 * issued it, signing Quiver's own HS256 tokens, and verifying a token under the rules its issuer
 * sets. Every refusal becomes a {@link JwtError} whose message is safe to show: it never repeats
 * the token nor any value taken from it.
 */
import type * as Jose from "jose";
import type { CryptoKey, JWTVerifyGetKey, JWTVerifyOptions } from "jose";
import { CatalogError } from "../model/catalog-error.js";

let loadingJose: Promise<typeof Jose> | undefined;

/**
 * `jose`, loaded when a token is first decoded, signed or verified: a server whose callers send
 * none (API keys only, or no authentication) never loads it, and starts faster for that.
 */
function jose(): Promise<typeof Jose> {
  loadingJose ??= import("jose");
  return loadingJose;
}

export type JwtClaims = Record<string, unknown> & {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  nbf?: number;
  iat?: number;
};

export interface JwtHeader {
  alg?: string;
  typ?: string;
  kid?: string;
}

/** A token decoded without any check, so that it can be handed to the issuer that claims it. */
export interface DecodedJwt {
  /** The token as presented; verification always starts again from it. */
  compact: string;
  header: JwtHeader;
  claims: JwtClaims;
}

/** Why a token was refused; the message is safe to show (it never contains the token). */
export class JwtError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JwtError";
  }
}

/**
 * Seconds of clock difference tolerated on `exp` and `nbf`: enough for hosts kept in step by
 * NTP, small next to the hour a token lives.
 */
export const clockToleranceSeconds = 60;

/** Splits and decodes a token without checking anything. Rejects with JwtError when malformed. */
export async function decodeJwt(compact: string): Promise<DecodedJwt> {
  const { decodeJwt: decodeClaims, decodeProtectedHeader } = await jose();
  try {
    return { compact, header: decodeProtectedHeader(compact) as JwtHeader, claims: decodeClaims(compact) as JwtClaims };
  } catch {
    throw new JwtError("token is not a compact JWS");
  }
}

/**
 * `secret` as an HS256 key. Importing it once matters: given raw bytes, `jose` imports them on
 * every call, which makes each verification about four times slower.
 */
export function hs256Key(secret: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** Signs claims with HS256 under `secret`. */
export async function signHs256(claims: JwtClaims, secret: Uint8Array | CryptoKey): Promise<string> {
  const { SignJWT } = await jose();
  return new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(secret);
}

export interface VerifyRules {
  /** The only algorithms accepted; anything else (`none` included) is refused before any key is used. */
  algorithms: string[];
  issuer: string;
  audience: string;
}

/**
 * Checks the signature with `key` (a secret, or a resolver picking the issuer's public key by
 * the header), then `iss`, `aud`, `exp` (required) and `nbf`. Critical header parameters are
 * refused since Quiver understands none. Throws JwtError for a refused token; a CatalogError
 * from the key resolver (the issuer's keys cannot be fetched) passes through.
 */
export async function verifyJwt(token: DecodedJwt, key: Uint8Array | CryptoKey | JWTVerifyGetKey, rules: VerifyRules): Promise<JwtClaims> {
  const options: JWTVerifyOptions = {
    algorithms: rules.algorithms,
    issuer: rules.issuer,
    audience: rules.audience,
    requiredClaims: ["exp"],
    clockTolerance: clockToleranceSeconds,
  };
  const { errors, jwtVerify } = await jose();
  try {
    const { payload } = typeof key === "function" ? await jwtVerify(token.compact, key, options) : await jwtVerify(token.compact, key, options);
    return payload as JwtClaims;
  } catch (error) {
    if (error instanceof CatalogError) throw error;
    throw new JwtError(refusalMessage(error, errors));
  }
}

const claimRefusals: Record<string, string> = {
  iss: "token issuer is not accepted",
  aud: "token audience is not accepted",
  nbf: "token is not valid yet",
  exp: "token has no valid expiry",
  iat: "token issue time is not valid",
};

/** A message naming what failed, in words of our own: `jose`'s may quote header values. */
function refusalMessage(error: unknown, errors: typeof Jose.errors): string {
  if (error instanceof errors.JWTExpired) return "token has expired";
  if (error instanceof errors.JWTClaimValidationFailed) return claimRefusals[error.claim] ?? "token claims are not accepted";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "token signature is invalid";
  if (error instanceof errors.JOSEAlgNotAllowed) return "token alg is not accepted here";
  if (error instanceof errors.JWKSNoMatchingKey) return "token key is not among the issuer's keys";
  if (error instanceof errors.JWKSMultipleMatchingKeys) return "token names no key and several of the issuer's keys fit";
  if (error instanceof errors.JOSENotSupported) return "token uses an algorithm or critical header that is not supported";
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return "token is malformed";
  // Anything else (a key of the issuer's set that cannot be used, say) fails closed.
  return "token cannot be verified";
}
