/**
 * @module Turns presented credentials into a principal. An API key is checked first (it is
 * what the managed deployment requires on every request); otherwise a bearer token, either
 * Quiver's own or the configured external issuer's. Anything missing or invalid is 16; the
 * messages never repeat the credential.
 */
import { CatalogError } from "../model/catalog-error.js";
import type { AuthStore } from "./auth-store.js";
import { verifyApiKey } from "./credentials.js";
import type { ExternalIssuer } from "./external-issuer.js";
import { JwtError, decodeJwt } from "./jwt.js";
import { type Principal, scopedPrincipal } from "./principal.js";
import { isCredentialRole } from "./roles.js";
import type { TokenService } from "./tokens.js";

export interface PresentedCredentials {
  apiKey?: string | undefined;
  bearerToken?: string | undefined;
}

function unauthenticated(message: string): CatalogError {
  return CatalogError.of("Unauthenticated", message);
}

export class Authenticator {
  constructor(
    readonly store: AuthStore,
    readonly tokens: TokenService,
    private readonly external?: ExternalIssuer,
  ) {}

  async authenticate(credentials: PresentedCredentials): Promise<Principal> {
    if (credentials.apiKey !== undefined) {
      const key = await verifyApiKey(this.store, credentials.apiKey);
      if (!key || !isCredentialRole(key.role)) throw unauthenticated("the API key is not valid");
      return scopedPrincipal("api-key", `api-key:${key.id}`, key.database, key.role);
    }
    if (credentials.bearerToken !== undefined) return this.fromToken(credentials.bearerToken);
    throw unauthenticated("credentials are required: send an x-api-key header or an Authorization: Bearer token");
  }

  private async fromToken(raw: string): Promise<Principal> {
    try {
      const token = await decodeJwt(raw);
      if (this.tokens.isOwn(token)) return await this.tokens.principalOf(token);
      if (this.external?.isIssuerOf(token)) return await this.external.principalOf(token);
      throw new JwtError("token issuer is not accepted");
    } catch (error) {
      if (error instanceof JwtError) throw unauthenticated(`the bearer token is not valid: ${error.message}`);
      throw error;
    }
  }
}
