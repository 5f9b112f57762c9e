/**
 * Helpers for auth tests: an auth-required server, credentials made straight in its store,
 * and a loopback JWKS endpoint playing an external OIDC issuer.
 */
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type JWTHeaderParameters, SignJWT } from "jose";
import { createApiKey, createOAuthClient } from "../../src/auth/credentials.js";
import type { JwtClaims } from "../../src/auth/jwt.js";
import { ensureDatabase } from "../../src/catalog/runtime/database-registry.js";
import type { RuntimeConfig } from "../../src/cli/runtime.js";
import { type TestServer, startTestServer } from "../helpers/test-server.js";

/**
 * A server with `--auth required`. Repeated authentication failures are not slowed here: these
 * tests refuse many requests from one address on purpose, and the slowing has tests of its own.
 */
export async function startAuthServer(config: Partial<RuntimeConfig> = {}): Promise<TestServer> {
  return startTestServer({ ...config, auth: { mode: "required", failureThrottle: { freeFailures: Number.POSITIVE_INFINITY }, ...config.auth } });
}

export async function addDatabase(server: TestServer, name: string): Promise<void> {
  await ensureDatabase(server.runtime.storages, server.runtime.store, server.dataLocation, name);
}

/** A new API key of `database` (null: deployment-wide) with `role`. */
export async function apiKey(server: TestServer, database: string | null, role: string): Promise<string> {
  return (await createApiKey(server.runtime.authStore, { database, role })).api_key;
}

export async function oauthClient(server: TestServer, database: string | null, role: string): Promise<{ id: string; secret: string }> {
  const created = await createOAuthClient(server.runtime.authStore, { database, role });
  return { id: created.client_id, secret: created.client_secret };
}

/** Exchanges client credentials for an access token at /oauth/token (form body). */
export async function fetchToken(server: TestServer, client: { id: string; secret: string }): Promise<string> {
  const response = await fetch(`${server.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.id, client_secret: client.secret }).toString(),
  });
  if (response.status !== 200) throw new Error(`token request failed: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export interface TestIssuer {
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** How many times the JWKS was fetched. */
  fetches: number;
  /** The RSA public key the issuer publishes as `rsa-1`, in PEM, as anyone could read it. */
  rsaPublicPem: string;
  sign(claims: JwtClaims, options?: { alg?: "ES256" | "RS256"; kid?: string; key?: KeyObject; header?: Record<string, unknown> }): Promise<string>;
  /** Publishes a new ES256 key under `kid` (a rotation's first step). */
  addKey(kid: string): void;
  /** Stops publishing `kid`; its private key can still sign, as a leaked or retired key would. */
  removeKey(kid: string): void;
  /** Makes the JWKS endpoint fail the given way until called with `undefined`. */
  failWith(failure: JwksFailure | undefined): void;
  close(): Promise<void>;
}

/** Ways a JWKS endpoint fails: an error status, no answer at all, or a body far too large. */
export type JwksFailure = "http-500" | "hang" | "oversized";

interface IssuerKey {
  alg: "ES256" | "RS256";
  privateKey: KeyObject;
  published: boolean;
  jwk: Record<string, unknown>;
}

function issuerKey(alg: "ES256" | "RS256", kid: string, pair: { publicKey: KeyObject; privateKey: KeyObject }): IssuerKey {
  return { alg, privateKey: pair.privateKey, published: true, jwk: { ...pair.publicKey.export({ format: "jwk" }), kid, alg, use: "sig" } };
}

type KeyPair = { publicKey: KeyObject; privateKey: KeyObject };
let issuerKeyPairs: { ec: KeyPair; rsa: KeyPair } | undefined;

/** An external issuer with an ES256 and an RS256 key, serving its JWKS on loopback. */
export async function startTestIssuer(): Promise<TestIssuer> {
  // RSA generation costs a noticeable fraction of a second: one pair per test process.
  const pairs = (issuerKeyPairs ??= { ec: generateKeyPairSync("ec", { namedCurve: "P-256" }), rsa: generateKeyPairSync("rsa", { modulusLength: 2048 }) });
  const keys = new Map<string, IssuerKey>([
    ["ec-1", issuerKey("ES256", "ec-1", pairs.ec)],
    ["rsa-1", issuerKey("RS256", "rsa-1", pairs.rsa)],
  ]);
  const state: { fetches: number; failure: JwksFailure | undefined } = { fetches: 0, failure: undefined };
  const server: Server = createServer((_request, response) => {
    state.fetches += 1;
    if (state.failure === "hang") return;
    if (state.failure === "http-500") {
      response.statusCode = 500;
      response.end("upstream failure");
      return;
    }
    const published = { keys: [...keys.values()].filter((key) => key.published).map((key) => key.jwk) };
    response.setHeader("content-type", "application/json");
    if (state.failure === "oversized") {
      // Streamed without a length, so only counting the bytes read can stop it.
      const body = JSON.stringify({ ...published, padding: "x".repeat(1024 * 1024) });
      for (let at = 0; at < body.length; at += 64 * 1024) response.write(body.slice(at, at + 64 * 1024));
      response.end();
      return;
    }
    response.end(JSON.stringify(published));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = "https://issuer.test";
  return {
    issuer,
    audience: "quiver-api",
    jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    get fetches() {
      return state.fetches;
    },
    rsaPublicPem: pairs.rsa.publicKey.export({ format: "pem", type: "spki" }).toString(),
    sign(claims, options = {}) {
      const kid = options.kid ?? (options.alg === "RS256" ? "rsa-1" : "ec-1");
      const known = keys.get(kid);
      const alg = options.alg ?? known?.alg ?? "ES256";
      // A kid the issuer never published is signed with its first key, as a forger would try.
      const key = options.key ?? known?.privateKey ?? pairs.ec.privateKey;
      const header: JWTHeaderParameters = { alg, typ: "JWT", kid, ...options.header };
      // jose refuses to sign with a critical header it is not told about; the issuer knows its own.
      const crit = header.crit ? Object.fromEntries(header.crit.map((name) => [name, true])) : undefined;
      return new SignJWT(claims).setProtectedHeader(header).sign(key, crit ? { crit } : undefined);
    },
    addKey(kid) {
      keys.set(kid, issuerKey("ES256", kid, generateKeyPairSync("ec", { namedCurve: "P-256" })));
    },
    removeKey(kid) {
      const key = keys.get(kid);
      if (key) key.published = false;
    },
    failWith(failure) {
      state.failure = failure;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Claims of a valid external token, expiring in five minutes. */
export function externalClaims(issuer: TestIssuer, extra: JwtClaims = {}): JwtClaims {
  const now = Math.floor(Date.now() / 1000);
  return { iss: issuer.issuer, aud: issuer.audience, sub: "alice", iat: now, exp: now + 300, ...extra };
}
