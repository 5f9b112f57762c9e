/**
 * @module Quiver's own bearer tokens: the OAuth 2.0 client-credentials grant (RFC 6749 §4.4)
 * issues HS256 JWTs naming the client; checking one re-reads the client, so revoking it or
 * changing its role takes effect before the token expires.
 */
import { randomUUID } from "node:crypto";
import type { CryptoKey } from "jose";
import { CatalogError } from "../model/catalog-error.js";
import type { AuthStore } from "./auth-store.js";
import { liveOAuthClient, verifyOAuthClient } from "./credentials.js";
import { type DecodedJwt, JwtError, hs256Key, signHs256, verifyJwt } from "./jwt.js";
import { type Principal, scopedPrincipal } from "./principal.js";
import { isCredentialRole } from "./roles.js";

/** `iss` and `aud` of Quiver's own tokens. */
export const quiverIssuer = "quiver";

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
}

export class TokenService {
  private readonly signingKey: Promise<CryptoKey>;

  constructor(
    private readonly store: AuthStore,
    signingSecret: Buffer,
    /** Token lifetime; default one hour. */
    readonly ttlSeconds = 3600,
  ) {
    this.signingKey = hs256Key(signingSecret);
  }

  /** Issues a token for valid client credentials; throws 16 otherwise (RFC 6749 invalid_client). */
  async issue(clientId: string, clientSecret: string): Promise<TokenResponse> {
    const client = await verifyOAuthClient(this.store, clientId, clientSecret);
    if (!client) throw CatalogError.of("Unauthenticated", "invalid_client", { detail: "client authentication failed" });
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: quiverIssuer,
      aud: quiverIssuer,
      sub: client.id,
      iat: now,
      exp: now + this.ttlSeconds,
      jti: randomUUID(),
      ...(client.database === null ? {} : { database: client.database }),
      role: client.role,
    };
    return { access_token: await signHs256(claims, await this.signingKey), token_type: "Bearer", expires_in: this.ttlSeconds };
  }

  /** Whether a decoded token claims to be one of ours. */
  isOwn(token: DecodedJwt): boolean {
    return token.claims.iss === quiverIssuer;
  }

  /** The principal of one of our tokens; throws JwtError when it is not valid. */
  async principalOf(token: DecodedJwt): Promise<Principal> {
    const claims = await verifyJwt(token, await this.signingKey, { algorithms: ["HS256"], issuer: quiverIssuer, audience: quiverIssuer });
    const client = typeof claims.sub === "string" ? await liveOAuthClient(this.store, claims.sub) : undefined;
    if (!client || !isCredentialRole(client.role)) throw new JwtError("token's client is unknown or revoked");
    return scopedPrincipal("oauth-client", `oauth-client:${client.id}`, client.database, client.role);
  }
}
