/**
 * @module Tokens of an external OIDC issuer configured by the operator: signature by a key
 * from its JWKS, `iss`, `aud`, `exp`, and a claim carrying the role. The role claim holds
 * either a role (with the database in `databaseClaim`) or an object mapping database names to
 * roles, e.g. `{"sales": "write", "ml": "read"}`. The groups claim (default `groups`, a list of
 * strings) names the groups grants may be given to (`g:<group>`); a token with groups and no role
 * holds what its groups are granted.
 */
import type { JWTVerifyGetKey } from "jose";
import { type JwksOptions, issuerKeys } from "./jwks.js";
import { type DecodedJwt, JwtError, verifyJwt } from "./jwt.js";
import type { Principal } from "./principal.js";
import { type Role, isRole } from "./roles.js";

export interface ExternalIssuerConfig {
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** Claim holding the role or a database → role map; default `quiver_role`. */
  roleClaim?: string;
  /** Claim naming the database when the role claim is a single role; default `quiver_database`. */
  databaseClaim?: string;
  /** Claim listing the caller's groups; default `groups`. */
  groupsClaim?: string;
  /** Bounds of the JWKS cache and fetch; the defaults suit common issuers. */
  jwks?: JwksOptions;
}

/**
 * Signature algorithms accepted from an external issuer. Only asymmetric ones: an HS256 token
 * "signed" with the issuer's public key as the secret must not pass.
 */
const externalAlgorithms = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384"];

export class ExternalIssuer {
  private readonly keys: JWTVerifyGetKey;

  constructor(readonly config: ExternalIssuerConfig) {
    this.keys = issuerKeys(config.jwksUrl, config.jwks);
  }

  isIssuerOf(token: DecodedJwt): boolean {
    return token.claims.iss === this.config.issuer;
  }

  /** The principal of an external token; throws JwtError when it is not valid, 17 when the JWKS is down. */
  async principalOf(token: DecodedJwt): Promise<Principal> {
    const claims = await verifyJwt(token, this.keys, { algorithms: externalAlgorithms, issuer: this.config.issuer, audience: this.config.audience });
    const grants = this.grantsOf(claims);
    const groups = this.groupsOf(claims);
    if (grants.size === 0 && groups.length === 0) throw new JwtError("token grants no role and names no group");
    const subject = typeof claims.sub === "string" ? claims.sub : "?";
    return { kind: "external-token", subject: `external-token:${subject}`, grants, ...(groups.length > 0 ? { groups } : {}) };
  }

  /** The groups claim's strings (at most 256 of them, each at most 1024 characters). */
  private groupsOf(claims: Record<string, unknown>): string[] {
    const value = claims[this.config.groupsClaim ?? "groups"];
    if (!Array.isArray(value)) return [];
    return value.filter((group): group is string => typeof group === "string" && group.length > 0 && group.length <= 1024).slice(0, 256);
  }

  private grantsOf(claims: Record<string, unknown>): Map<string, Role> {
    const value = claims[this.config.roleClaim ?? "quiver_role"];
    const grants = new Map<string, Role>();
    if (isRole(value)) {
      const database = claims[this.config.databaseClaim ?? "quiver_database"];
      if (typeof database === "string" && database !== "") grants.set(database, value);
    } else if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const [database, role] of Object.entries(value)) if (isRole(role)) grants.set(database, role);
    }
    return grants;
  }
}
