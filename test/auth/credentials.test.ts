/**
 * Each way a caller can present credentials, and each way they can be wrong. Spec codes: 16 Unauthenticated (401), 15 PermissionDenied (403).
 */
import assert from "node:assert/strict";
import test from "node:test";
import { signHs256 } from "../../src/auth/jwt.js";
import { loadSigningKey } from "../../src/auth/signing-key.js";
import { expectError, expectJson } from "../helpers/test-server.js";
import { addDatabase, apiKey, externalClaims, fetchToken, oauthClient, startAuthServer, startTestIssuer } from "./auth-helpers.js";

async function namespaces(server: { get: (route: string, headers?: Record<string, string>) => Promise<Response> }, headers: Record<string, string>) {
  return (await expectJson<{ namespaces: string[] }>(await server.get("/v1/namespace/%24/list", headers))).namespaces;
}

test("ListTablesExtended without any credential → 401, code 16", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const body = await expectError(await server.get("/v1/tables"), 401, 16);
  assert.match(body.error, /x-api-key/);
});

test("CreateNamespace with a write key in x-api-key → 200; the namespace exists", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const key = await apiKey(server, "default", "write");
  await expectJson(await server.post("/v1/namespace/sales/create", {}, { "x-api-key": key }));
  assert.deepEqual(await namespaces(server, { "x-api-key": key }), ["sales"]);
});

test("CreateNamespace with identity.api_key in the body → 200; a bad header key wins over a good body key → 401, code 16", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const key = await apiKey(server, "default", "write");
  await expectJson(await server.post("/v1/namespace/a/create", { identity: { api_key: key } }));
  await expectError(await server.post("/v1/namespace/b/create", { identity: { api_key: key } }, { "x-api-key": "qk_0000000000000000_nope" }), 401, 16);
  assert.deepEqual(await namespaces(server, { "x-api-key": key }), ["a"]);
});

test("IssueToken with client credentials (form and JSON) → bearer token that works in the header and in identity.auth_token", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const client = await oauthClient(server, "default", "write");
  const token = await fetchToken(server, client);
  await expectJson(await server.post("/v1/namespace/viaheader/create", {}, { authorization: `Bearer ${token}` }));

  const jsonResponse = await server.post("/oauth/token", { grant_type: "client_credentials", client_id: client.id, client_secret: client.secret });
  assert.equal(jsonResponse.headers.get("cache-control"), "no-store");
  const issued = await expectJson<{ access_token: string; token_type: string; expires_in: number }>(jsonResponse);
  assert.equal(issued.token_type, "Bearer");
  assert.equal(issued.expires_in, 3600);
  await expectJson(await server.post("/v1/namespace/viabody/create", { identity: { auth_token: issued.access_token } }));
  assert.deepEqual(await namespaces(server, { authorization: `bearer ${token}` }), ["viabody", "viaheader"]);
});

test("IssueToken with HTTP Basic client authentication → 200; a wrong secret → 401, code 16; another grant type → 400, code 13", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const client = await oauthClient(server, "default", "read");
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const basic = Buffer.from(`${client.id}:${client.secret}`).toString("base64");
  const ok = await fetch(`${server.url}/oauth/token`, { method: "POST", headers: { ...form, authorization: `Basic ${basic}` }, body: "grant_type=client_credentials" });
  assert.ok((await expectJson<{ access_token: string }>(ok)).access_token.split(".").length === 3);
  const wrong = await fetch(`${server.url}/oauth/token`, {
    method: "POST",
    headers: form,
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.id, client_secret: `${client.secret}x` }).toString(),
  });
  assert.equal((await expectError(wrong, 401, 16)).error, "invalid_client");
  const password = await fetch(`${server.url}/oauth/token`, { method: "POST", headers: form, body: "grant_type=password&username=a&password=b" });
  assert.equal((await expectError(password, 400, 13)).error, "unsupported_grant_type");
});

test("An external issuer's ES256 and RS256 tokens from a loopback JWKS → accepted with the role they carry", async (t) => {
  const issuer = await startTestIssuer();
  t.after(() => issuer.close());
  const server = await startAuthServer({ auth: { mode: "required", oidc: { issuer: issuer.issuer, audience: issuer.audience, jwksUrl: issuer.jwksUrl } } });
  t.after(() => server.close());
  await addDatabase(server, "ml");

  const writer = await issuer.sign(externalClaims(issuer, { quiver_role: "write", quiver_database: "default" }));
  await expectJson(await server.post("/v1/namespace/ext/create", {}, { authorization: `Bearer ${writer}` }));

  // The map form grants per database: read on ml, nothing on default.
  const reader = await issuer.sign(externalClaims(issuer, { quiver_role: { ml: "read" } }), { alg: "RS256" });
  await expectJson(await server.get("/v1/tables", { authorization: `Bearer ${reader}`, "x-svc-database": "ml" }));
  await expectError(await server.post("/v1/namespace/x/create", {}, { authorization: `Bearer ${reader}`, "x-svc-database": "ml" }), 403, 15);
  await expectError(await server.get("/v1/tables", { authorization: `Bearer ${reader}`, "x-svc-database": "default" }), 403, 15);
  assert.equal(issuer.fetches, 1, "the JWKS is fetched once and cached");
});

test("External tokens with a wrong audience, a foreign key, HS256 or no role → 401, code 16", async (t) => {
  const issuer = await startTestIssuer();
  t.after(() => issuer.close());
  const server = await startAuthServer({ auth: { mode: "required", oidc: { issuer: issuer.issuer, audience: issuer.audience, jwksUrl: issuer.jwksUrl } } });
  t.after(() => server.close());
  const { generateKeyPairSync } = await import("node:crypto");
  const stranger = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
  const role = { quiver_role: "admin", quiver_database: "default" };
  const refused = [
    await issuer.sign(externalClaims(issuer, { ...role, aud: "someone-else" })),
    await issuer.sign(externalClaims(issuer, role), { key: stranger }),
    await signHs256(externalClaims(issuer, role), Buffer.from("guessable")),
    await issuer.sign(externalClaims(issuer, { quiver_role: "superuser", quiver_database: "default" })),
    await issuer.sign(externalClaims(issuer, { quiver_role: "admin" })),
  ];
  for (const token of refused) await expectError(await server.get("/v1/tables", { authorization: `Bearer ${token}` }), 401, 16);
});

test("Expired tokens, Quiver's own and external → 401, code 16", async (t) => {
  const issuer = await startTestIssuer();
  t.after(() => issuer.close());
  const server = await startAuthServer({ auth: { mode: "required", oidc: { issuer: issuer.issuer, audience: issuer.audience, jwksUrl: issuer.jwksUrl } } });
  t.after(() => server.close());
  const client = await oauthClient(server, "default", "admin");
  const past = Math.floor(Date.now() / 1000) - 3600;
  const ownExpired = await signHs256({ iss: "quiver", aud: "quiver", sub: client.id, iat: past - 60, exp: past }, await loadSigningKey(server.runtime.authStore));
  const body = await expectError(await server.get("/v1/tables", { authorization: `Bearer ${ownExpired}` }), 401, 16);
  assert.match(body.error, /expired/);
  assert.ok(!body.error.includes(ownExpired), "the token is never echoed");
  const externalExpired = await issuer.sign(externalClaims(issuer, { quiver_role: "admin", quiver_database: "default", iat: past - 60, exp: past }));
  await expectError(await server.get("/v1/tables", { authorization: `Bearer ${externalExpired}` }), 401, 16);
  // The same client's fresh token is fine: only expiry refused the first.
  await expectJson(await server.get("/v1/tables", { authorization: `Bearer ${await fetchToken(server, client)}` }));
});

test("A revoked API key, and a token of a revoked OAuth client → 401, code 16; other keys keep working", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const admin = await apiKey(server, "default", "admin");
  const doomed = await apiKey(server, "default", "write");
  const keyId = doomed.split("_")[1] as string;
  const client = await oauthClient(server, "default", "write");
  const token = await fetchToken(server, client);
  await expectJson(await server.get("/v1/tables", { "x-api-key": doomed }));

  await expectJson(await server.post(`/v1/admin/databases/default/api-keys/${keyId}/revoke`, undefined, { "x-api-key": admin }));
  await expectJson(await server.post(`/v1/admin/databases/default/oauth-clients/${client.id}/revoke`, undefined, { "x-api-key": admin }));

  await expectError(await server.get("/v1/tables", { "x-api-key": doomed }), 401, 16);
  await expectError(await server.get("/v1/tables", { authorization: `Bearer ${token}` }), 401, 16);
  await expectJson(await server.get("/v1/tables", { "x-api-key": admin }));
  // Revoking twice has no effect and says so.
  await expectError(await server.post(`/v1/admin/databases/default/api-keys/${keyId}/revoke`, undefined, { "x-api-key": admin }), 404, 1);
});

test("A key of another database → 403, code 15, and nothing changes there", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  await addDatabase(server, "other");
  const otherKey = await apiKey(server, "other", "admin");
  const defaultKey = await apiKey(server, "default", "read");
  await expectError(await server.post("/v1/namespace/intruder/create", {}, { "x-api-key": otherKey, "x-svc-database": "default" }), 403, 15);
  assert.deepEqual(await namespaces(server, { "x-api-key": defaultKey }), []);
});

test("Malformed credentials → 401, code 16", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const key = await apiKey(server, "default", "admin");
  const cases: Record<string, string>[] = [
    { authorization: "Basic dXNlcjpwYXNz" },
    { authorization: "Bearer" },
    { authorization: "Bearer a b" },
    { authorization: "Bearer not-a-jwt" },
    { authorization: "Bearer e30.e30.sig" },
    { "x-api-key": "garbage" },
    { "x-api-key": key.slice(0, -1) },
    { "x-api-key": "" },
  ];
  for (const headers of cases) await expectError(await server.get("/v1/tables", headers), 401, 16);
  // A valid key with a malformed Authorization header: the key is enough, the header is never read.
  await expectJson(await server.get("/v1/tables", { "x-api-key": key }));
});
