/**
 * How bearer tokens are verified, over real HTTP against a server in `--auth required` mode and an
 * external issuer publishing its JWKS on loopback: forged, misdirected and stale tokens are
 * refused, key rotation is followed at a bounded rate, and an issuer whose keys cannot be fetched
 * is an outage rather than the caller's fault. Spec codes: 16 Unauthenticated (401),
 * 17 ServiceUnavailable (503).
 */
import assert from "node:assert/strict";
import { createServer } from "node:net";
import test, { type TestContext, describe } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { SignJWT, UnsecuredJWT } from "jose";
import { type JwtClaims, clockToleranceSeconds } from "../../src/auth/jwt.js";
import { loadSigningKey } from "../../src/auth/signing-key.js";
import type { JwksOptions } from "../../src/auth/jwks.js";
import { type TestServer, expectError, expectJson } from "../helpers/test-server.js";
import { type TestIssuer, externalClaims, oauthClient, startAuthServer, startTestIssuer } from "./auth-helpers.js";

const adminOfDefault = { quiver_role: "admin", quiver_database: "default" };

async function withIssuer(t: TestContext, jwks?: JwksOptions): Promise<{ issuer: TestIssuer; server: TestServer }> {
  const issuer = await startTestIssuer();
  t.after(() => issuer.close());
  const server = await startAuthServer({ auth: { mode: "required", oidc: { issuer: issuer.issuer, audience: issuer.audience, jwksUrl: issuer.jwksUrl, jwks } } });
  t.after(() => server.close());
  return { issuer, server };
}

function listTables(server: TestServer, token: string): Promise<Response> {
  return server.get("/v1/tables", { authorization: `Bearer ${token}` });
}

async function expectRefused(server: TestServer, token: string, why: string): Promise<string> {
  const body = await expectError(await listTables(server, token), 401, 16).catch((error: Error) => {
    throw new Error(`${why}: ${error.message}`);
  });
  assert.ok(!body.error.includes(token), "the token is never echoed");
  return body.error;
}

/** Claims of a valid Quiver token of `clientId`, expiring in five minutes. */
function ownClaims(clientId: string, extra: JwtClaims = {}): JwtClaims {
  const now = Math.floor(Date.now() / 1000);
  return { iss: "quiver", aud: "quiver", sub: clientId, iat: now, exp: now + 300, ...extra };
}

async function signOwn(server: TestServer, claims: JwtClaims, header: Record<string, unknown> = {}): Promise<string> {
  const secret = await loadSigningKey(server.runtime.authStore);
  const crit = Array.isArray(header.crit) ? Object.fromEntries((header.crit as string[]).map((name) => [name, true])) : undefined;
  return new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT", ...header }).sign(secret, crit ? { crit } : undefined);
}

// Each case has a server and issuer of its own; the key rotation case mostly waits out its
// cooldown and cache age, and the others run meanwhile.
describe("bearer token verification", { concurrency: true }, () => {
  test("Tokens with alg none, Quiver's own and an external issuer's → 401, code 16", async (t) => {
    const { issuer, server } = await withIssuer(t);
    const client = await oauthClient(server, "default", "admin");
    await expectRefused(server, new UnsecuredJWT(ownClaims(client.id)).encode(), "own, alg none");
    await expectRefused(server, new UnsecuredJWT(externalClaims(issuer, adminOfDefault)).encode(), "external, alg none");
    // The same claims, properly signed, pass: only the missing signature refused them.
    await expectJson(await listTables(server, await signOwn(server, ownClaims(client.id))));
    await expectJson(await listTables(server, await issuer.sign(externalClaims(issuer, adminOfDefault))));
  });

  test("An HS256 token keyed with the issuer's public RSA key (algorithm confusion) → 401, code 16", async (t) => {
    const { issuer, server } = await withIssuer(t);
    const claims = externalClaims(issuer, adminOfDefault);
    for (const secret of [issuer.rsaPublicPem, issuer.rsaPublicPem.trim()]) {
      const forged = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT", kid: "rsa-1" }).sign(Buffer.from(secret));
      assert.match(await expectRefused(server, forged, "HS256 keyed with the public key"), /alg/);
    }
    await expectJson(await listTables(server, await issuer.sign(claims, { alg: "RS256" })));
  });

  test(`Expired tokens → 401, code 16 beyond the ${clockToleranceSeconds}-second clock tolerance; accepted within it`, async (t) => {
    const { issuer, server } = await withIssuer(t);
    const client = await oauthClient(server, "default", "admin");
    const now = Math.floor(Date.now() / 1000);
    const late = { iat: now - 600, exp: now - clockToleranceSeconds - 30 };
    const justExpired = { iat: now - 600, exp: now - clockToleranceSeconds + 30 };
    assert.match(await expectRefused(server, await signOwn(server, ownClaims(client.id, late)), "own, expired"), /expired/);
    assert.match(await expectRefused(server, await issuer.sign(externalClaims(issuer, { ...adminOfDefault, ...late })), "external, expired"), /expired/);
    await expectJson(await listTables(server, await signOwn(server, ownClaims(client.id, justExpired))));
    await expectJson(await listTables(server, await issuer.sign(externalClaims(issuer, { ...adminOfDefault, ...justExpired }))));
    const { exp: _, ...noExpiry } = ownClaims(client.id);
    await expectRefused(server, await signOwn(server, noExpiry), "own, no exp");
  });

  test("Tokens not valid before a time beyond the clock tolerance → 401, code 16; within it → accepted", async (t) => {
    const { issuer, server } = await withIssuer(t);
    const client = await oauthClient(server, "default", "admin");
    const now = Math.floor(Date.now() / 1000);
    const early = { nbf: now + clockToleranceSeconds + 240, exp: now + 3600 };
    const nearlyValid = { nbf: now + clockToleranceSeconds - 30, exp: now + 3600 };
    assert.match(await expectRefused(server, await signOwn(server, ownClaims(client.id, early)), "own, nbf ahead"), /not valid yet/);
    assert.match(await expectRefused(server, await issuer.sign(externalClaims(issuer, { ...adminOfDefault, ...early })), "external, nbf ahead"), /not valid yet/);
    await expectJson(await listTables(server, await signOwn(server, ownClaims(client.id, nearlyValid))));
    await expectJson(await listTables(server, await issuer.sign(externalClaims(issuer, { ...adminOfDefault, ...nearlyValid }))));
  });

  test("Tokens for another audience or from another issuer, signed with a trusted key → 401, code 16", async (t) => {
    const { issuer, server } = await withIssuer(t);
    const client = await oauthClient(server, "default", "admin");
    assert.match(await expectRefused(server, await signOwn(server, ownClaims(client.id, { aud: "another-service" })), "own, aud"), /audience/);
    assert.match(await expectRefused(server, await issuer.sign(externalClaims(issuer, { ...adminOfDefault, aud: "another-service" })), "external, aud"), /audience/);
    assert.match(await expectRefused(server, await issuer.sign(externalClaims(issuer, { ...adminOfDefault, iss: "https://elsewhere.test" })), "external key, iss"), /issuer/);
    // Quiver's own key signing as if it were the external issuer: the external issuer's rules apply.
    assert.match(await expectRefused(server, await signOwn(server, externalClaims(issuer, adminOfDefault)), "own key, external iss"), /alg/);
  });

  test("Tokens with a critical header parameter Quiver does not understand → 401, code 16", async (t) => {
    const { issuer, server } = await withIssuer(t);
    const client = await oauthClient(server, "default", "admin");
    const unknown = { crit: ["urn:example:binding"], "urn:example:binding": "channel-1" };
    assert.match(await expectRefused(server, await signOwn(server, ownClaims(client.id), unknown), "own, crit"), /critical/);
    assert.match(await expectRefused(server, await issuer.sign(externalClaims(issuer, adminOfDefault), { header: unknown }), "external, crit"), /critical/);
  });

  test("Issuer key rotation: a new key's tokens → 401 until the refresh cooldown, then 200; a removed key's tokens → 401 once the cache expires; fetches stay bounded", async (t) => {
    const cooldownMs = 2500;
    const maxAgeMs = 4000;
    const { issuer, server } = await withIssuer(t, { cooldownMs, maxAgeMs });
    const claims = externalClaims(issuer, adminOfDefault);
    await expectJson(await listTables(server, await issuer.sign(claims, { kid: "ec-1" })));
    assert.equal(issuer.fetches, 1);
    const started = Date.now();

    issuer.addKey("ec-2");
    const next = await issuer.sign(claims, { kid: "ec-2" });
    await expectRefused(server, next, "new key within the cooldown");
    for (let i = 0; i < 10; i += 1) await expectRefused(server, await issuer.sign(claims, { kid: `forged-${i}` }), "forged kid");
    assert.ok(Date.now() - started < cooldownMs, "the requests above ran within the cooldown");
    assert.equal(issuer.fetches, 1, "unknown kids within the cooldown do not refetch");

    await sleep(cooldownMs + 100 - (Date.now() - started));
    await expectJson(await listTables(server, next));
    assert.equal(issuer.fetches, 2, "the new key was fetched once");
    const refreshed = Date.now();
    for (let i = 0; i < 10; i += 1) await expectRefused(server, await issuer.sign(claims, { kid: `forged-again-${i}` }), "forged kid");
    assert.equal(issuer.fetches, 2, "forged kids after a refresh wait for the next cooldown");

    issuer.removeKey("ec-1");
    const retired = await issuer.sign(claims, { kid: "ec-1" });
    // Cached keys are trusted until the cache expires: that is the window a rotation must allow for.
    if (Date.now() - refreshed < maxAgeMs) await expectJson(await listTables(server, retired));
    await sleep(maxAgeMs + 100 - (Date.now() - refreshed));
    await expectRefused(server, retired, "removed key after the cache expired");
    await expectJson(await listTables(server, next));
    assert.equal(issuer.fetches, 3);
  });

  test("External token while the JWKS endpoint refuses connections → 503, code 17", async (t) => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const issuer = await startTestIssuer();
    t.after(() => issuer.close());
    const server = await startAuthServer({
      auth: { mode: "required", oidc: { issuer: issuer.issuer, audience: issuer.audience, jwksUrl: `http://127.0.0.1:${port}/jwks.json` } },
    });
    t.after(() => server.close());
    const body = await expectError(await listTables(server, await issuer.sign(externalClaims(issuer, adminOfDefault))), 503, 17);
    assert.match(body.error, /retry later/);
  });

  test("External token while the JWKS answers HTTP 500 → 503, code 17 without refetching on every request; accepted once it recovers", async (t) => {
    const failureBackoffMs = 500;
    const { issuer, server } = await withIssuer(t, { failureBackoffMs });
    const token = await issuer.sign(externalClaims(issuer, adminOfDefault));
    issuer.failWith("http-500");
    const failedAt = Date.now();
    for (let i = 0; i < 10; i += 1) await expectError(await listTables(server, token), 503, 17);
    if (Date.now() - failedAt < failureBackoffMs) assert.equal(issuer.fetches, 1, "requests during the backoff do not refetch");
    issuer.failWith(undefined);
    await sleep(failureBackoffMs + 50);
    await expectJson(await listTables(server, token));
  });

  test("External token while the JWKS endpoint never answers → 503, code 17 within the fetch timeout", async (t) => {
    const timeoutMs = 500;
    const { issuer, server } = await withIssuer(t, { timeoutMs });
    issuer.failWith("hang");
    const started = Date.now();
    await expectError(await listTables(server, await issuer.sign(externalClaims(issuer, adminOfDefault))), 503, 17);
    const waited = Date.now() - started;
    assert.ok(waited >= timeoutMs - 50 && waited < timeoutMs + 2000, `answered after ${waited} ms`);
  });

  test("External token while the JWKS body exceeds the size bound → 503, code 17", async (t) => {
    const { issuer, server } = await withIssuer(t);
    issuer.failWith("oversized");
    await expectError(await listTables(server, await issuer.sign(externalClaims(issuer, adminOfDefault))), 503, 17);
  });
});
