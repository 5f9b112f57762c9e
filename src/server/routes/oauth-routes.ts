/**
 * @module The OAuth 2.0 token endpoint (RFC 6749 §4.4, client credentials). Clients
 * authenticate with `client_id`/`client_secret` in a form or JSON body, or with HTTP Basic
 * (§2.3.1). Errors keep the spec's `ErrorResponse` with the OAuth error name in `error`.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { CatalogError } from "../../model/catalog-error.js";
import * as M from "../../model/index.js";
import { json } from "../../model/operations/operation-entry.js";
import { isStream, readStreamUpTo } from "../body-parsing.js";
import type { AuthGate } from "../auth/auth-gate.js";
import type { ServerServices } from "../services.js";
import { adminOperationDefiner } from "./admin-route-kit.js";

const maxFormBytes = 16 * 1024;

async function formOf(request: FastifyRequest): Promise<Record<string, string>> {
  let body: unknown = request.body;
  if (isStream(body)) {
    const bytes = await readStreamUpTo(body, maxFormBytes, () => CatalogError.of("InvalidInput", "invalid_request", { detail: "the token request is too large" }));
    body = Object.fromEntries(new URLSearchParams(bytes.toString("utf8")));
  }
  const fields: Record<string, string> = {};
  if (typeof body === "object" && body !== null) {
    for (const [key, value] of Object.entries(body)) if (typeof value === "string") fields[key] = value;
  }
  return fields;
}

function basicCredentials(request: FastifyRequest): { id: string; secret: string } | undefined {
  const header = request.headers.authorization;
  const match = typeof header === "string" ? /^basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim()) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  // RFC 6749 §2.3.1: both parts are form-urlencoded before Basic encoding; a bad escape is no credential.
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

export function oauthRoutes(app: FastifyInstance, services: ServerServices, gate: AuthGate): void {
  const define = adminOperationDefiner(app, services);
  define(
    {
      operationId: "IssueToken",
      summary: "OAuth 2.0 client-credentials grant: a signed, expiring bearer token",
      tag: "Auth",
      methods: ["POST"],
      path: "/oauth/token",
      body: "none",
      response: json(M.TokenResponse),
      access: "read",
      scope: "public",
      audit: false,
    },
    async ({ request, reply }) => {
      const form = await formOf(request);
      if (form.grant_type !== "client_credentials") {
        throw CatalogError.of("InvalidInput", "unsupported_grant_type", { detail: "only grant_type=client_credentials is supported" });
      }
      const basic = basicCredentials(request);
      const clientId = basic?.id ?? form.client_id;
      const clientSecret = basic?.secret ?? form.client_secret;
      if (!clientId || !clientSecret) throw CatalogError.of("Unauthenticated", "invalid_client", { detail: "client_id and client_secret are required" });
      const token = await gate.authenticator.tokens.issue(clientId, clientSecret);
      reply.header("cache-control", "no-store").header("pragma", "no-cache");
      return token;
    },
  );
}
