/**
 * @module Compact JWS tokens (RFC 7515/7519) with node:crypto only: HS256 for Quiver's own
 * tokens; RS256/384/512, PS256 and ES256/384 for tokens of an external OIDC issuer.
 */
import { createHmac, timingSafeEqual, sign as cryptoSign, verify as cryptoVerify, constants, type KeyObject } from "node:crypto";

export type JwtClaims = Record<string, unknown> & {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  nbf?: number;
  iat?: number;
};

export interface JwtHeader {
  alg: string;
  typ?: string;
  kid?: string;
}

export interface DecodedJwt {
  header: JwtHeader;
  claims: JwtClaims;
  signingInput: string;
  signature: Buffer;
}

/** Why a token was refused; the message is safe to show (it never contains the token). */
export class JwtError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JwtError";
  }
}

const asymmetric: Record<string, { hash: string; padding?: number; ecdsa?: boolean }> = {
  RS256: { hash: "sha256" },
  RS384: { hash: "sha384" },
  RS512: { hash: "sha512" },
  PS256: { hash: "sha256", padding: constants.RSA_PKCS1_PSS_PADDING },
  ES256: { hash: "sha256", ecdsa: true },
  ES384: { hash: "sha384", ecdsa: true },
};

export const asymmetricAlgorithms: readonly string[] = Object.keys(asymmetric);

function encodePart(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

function decodeJsonPart(part: string, what: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through to the refusal below
  }
  throw new JwtError(`token ${what} is not a JSON object`);
}

/** Splits and decodes a token without checking anything. Throws JwtError when malformed. */
export function decodeJwt(token: string): DecodedJwt {
  const parts = token.split(".");
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) throw new JwtError("token is not a compact JWS");
  const [headerPart, claimsPart, signaturePart] = parts as [string, string, string];
  const header = decodeJsonPart(headerPart, "header");
  if (typeof header.alg !== "string") throw new JwtError("token header has no alg");
  return {
    header: header as unknown as JwtHeader,
    claims: decodeJsonPart(claimsPart, "claims") as JwtClaims,
    signingInput: `${headerPart}.${claimsPart}`,
    signature: Buffer.from(signaturePart, "base64url"),
  };
}

function hmac(secret: Buffer, input: string): Buffer {
  return createHmac("sha256", secret).update(input, "ascii").digest();
}

/** Signs claims with HS256. */
export function signHs256(claims: JwtClaims, secret: Buffer, kid?: string): string {
  const header: JwtHeader = kid ? { alg: "HS256", typ: "JWT", kid } : { alg: "HS256", typ: "JWT" };
  const signingInput = `${encodePart(header)}.${encodePart(claims)}`;
  return `${signingInput}.${hmac(secret, signingInput).toString("base64url")}`;
}

/** Signs with an asymmetric key (used by tests playing an external issuer). */
export function signAsymmetric(claims: JwtClaims, alg: string, key: KeyObject, kid?: string): string {
  const spec = asymmetric[alg];
  if (!spec) throw new JwtError(`unsupported alg ${alg}`);
  const header: JwtHeader = kid ? { alg, typ: "JWT", kid } : { alg, typ: "JWT" };
  const signingInput = `${encodePart(header)}.${encodePart(claims)}`;
  const signature = cryptoSign(spec.hash, Buffer.from(signingInput, "ascii"), {
    key,
    padding: spec.padding,
    dsaEncoding: spec.ecdsa ? "ieee-p1363" : undefined,
  });
  return `${signingInput}.${signature.toString("base64url")}`;
}

export function verifyHs256Signature(token: DecodedJwt, secret: Buffer): void {
  if (token.header.alg !== "HS256") throw new JwtError(`token alg ${token.header.alg} is not accepted here`);
  const expected = hmac(secret, token.signingInput);
  if (expected.length !== token.signature.length || !timingSafeEqual(expected, token.signature)) {
    throw new JwtError("token signature is invalid");
  }
}

export function verifyAsymmetricSignature(token: DecodedJwt, key: KeyObject): void {
  const spec = asymmetric[token.header.alg];
  if (!spec) throw new JwtError(`token alg ${token.header.alg} is not accepted`);
  let ok: boolean;
  try {
    ok = cryptoVerify(
      spec.hash,
      Buffer.from(token.signingInput, "ascii"),
      { key, padding: spec.padding, dsaEncoding: spec.ecdsa ? "ieee-p1363" : undefined },
      token.signature,
    );
  } catch {
    // A key of another type than the token's alg names (e.g. an Ed25519 key for RS256).
    ok = false;
  }
  if (!ok) throw new JwtError("token signature is invalid");
}

export interface ClaimRules {
  issuer: string;
  audience: string;
  /** Seconds of clock difference tolerated on exp/nbf/iat. */
  leewaySeconds?: number;
  now?: number;
}

/** Checks iss, aud, exp (required), nbf and iat against the rules. */
export function checkClaims(claims: JwtClaims, rules: ClaimRules): void {
  const now = Math.floor((rules.now ?? Date.now()) / 1000);
  const leeway = rules.leewaySeconds ?? 60;
  if (claims.iss !== rules.issuer) throw new JwtError("token issuer is not accepted");
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(rules.audience)) throw new JwtError("token audience is not accepted");
  if (typeof claims.exp !== "number") throw new JwtError("token has no expiry");
  if (claims.exp + leeway <= now) throw new JwtError("token has expired");
  if (typeof claims.nbf === "number" && claims.nbf - leeway > now) throw new JwtError("token is not valid yet");
  if (typeof claims.iat === "number" && claims.iat - leeway > now) throw new JwtError("token was issued in the future");
}
