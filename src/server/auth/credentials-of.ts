/**
 * @module Where credentials travel (spec/endpoints.md §0.1): `x-api-key` and
 * `Authorization: Bearer <token>` headers, or `identity.api_key` / `identity.auth_token` in a
 * JSON body. A request with a credential header is authenticated from its headers alone, before
 * its body is read; the body's identity counts only when no credential header is sent.
 */
import type { FastifyRequest } from "fastify";
import type { PresentedCredentials } from "../../auth/authenticator.js";
import { CatalogError } from "../../model/catalog-error.js";

function single(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined ? undefined : text.trim();
}

function bodyIdentity(body: unknown): { api_key?: unknown; auth_token?: unknown } {
  if (typeof body !== "object" || body === null || typeof (body as { pipe?: unknown }).pipe === "function") return {};
  const identity = (body as { identity?: unknown }).identity;
  return typeof identity === "object" && identity !== null ? (identity as Record<string, unknown>) : {};
}

/** Whether the request carries credentials in its headers (which then decide alone, see `credentialsOf`). */
export function hasCredentialHeaders(request: FastifyRequest): boolean {
  return request.headers["x-api-key"] !== undefined || request.headers.authorization !== undefined;
}

/** Throws 16 for a malformed Authorization header or an empty credential. */
export function credentialsOf(request: FastifyRequest): PresentedCredentials {
  const identity = bodyIdentity(request.body);
  let apiKey = single(request.headers["x-api-key"]);
  if (apiKey === undefined && typeof identity.api_key === "string") apiKey = identity.api_key.trim();

  let bearerToken: string | undefined;
  const authorization = single(request.headers.authorization);
  if (authorization !== undefined) {
    const match = /^bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw CatalogError.of("Unauthenticated", "the Authorization header must be 'Bearer <token>'");
    bearerToken = match[1];
  } else if (typeof identity.auth_token === "string") {
    bearerToken = identity.auth_token.trim();
  }
  if (apiKey === "" || bearerToken === "") throw CatalogError.of("Unauthenticated", "an empty credential was sent");
  return { apiKey, bearerToken };
}
