// Credentials as an operator makes them: `quiver databases` and `quiver clients` on the root,
// then a `quiver serve --auth required` process exchanging and checking them; and an external
// OIDC issuer named by serve's flags.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { describe, test } from "node:test";
import { runCli, spawnServe } from "../helpers/cli-process.js";
import { expectError, expectJson, tempRoot } from "../helpers/test-server.js";
import { externalClaims, startTestIssuer } from "../auth/auth-helpers.js";

async function exchange(url: string, client: { id: string; secret: string }): Promise<{ access_token: string; token_type: string; expires_in: number }> {
  return expectJson(
    await fetch(`${url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.id, client_secret: client.secret }).toString(),
    }),
  );
}

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split(".")[1] as string, "base64url").toString("utf8"));
}

const listNamespaces = (url: string, headers: Record<string, string>) => fetch(`${url}/v1/namespace/%24/list`, { headers });
const createNamespace = (url: string, name: string, headers: Record<string, string>) =>
  fetch(`${url}/v1/namespace/${name}/create`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });

// Each case has its processes and issuer of its own and mostly waits on them: they run side by side.
describe("the auth commands and serve's auth flags", { concurrency: true }, () => {
  test("a client from `quiver clients create` gets a bearer token with the --token-ttl lifetime that reads its database and is refused writes and other databases", { timeout: 60_000 }, async (t) => {
    const root = tempRoot();
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const database = await runCli(["databases", "create", "analytics", "--root", root]);
    assert.equal(database.code, 0, database.stderr);
    assert.equal(database.stdout.trim(), "analytics");
    const created = await runCli(["clients", "create", "--database", "analytics", "--role", "read", "--root", root]);
    assert.equal(created.code, 0, created.stderr);
    // Only the two secrets go to stdout, so scripts can capture them.
    const match = /^client_id=(\S+)\nclient_secret=(\S+)\n$/.exec(created.stdout);
    assert.ok(match, created.stdout);
    const client = { id: match[1] as string, secret: match[2] as string };

    const [short, standard] = await Promise.all([
      spawnServe(["--port", "0", "--root", root, "--auth", "required", "--token-ttl", "120"]),
      spawnServe(["--port", "0", "--root", root, "--auth", "required"]),
    ]);
    t.after(async () => {
      await Promise.all([short.stop("SIGKILL"), standard.stop("SIGKILL")]);
    });

    const before = Math.floor(Date.now() / 1000);
    const answer = await exchange(short.url, client);
    assert.equal(answer.token_type, "Bearer");
    assert.equal(answer.expires_in, 120);
    const claims = claimsOf(answer.access_token);
    assert.equal((claims.exp as number) - (claims.iat as number), 120);
    assert.ok(Math.abs((claims.exp as number) - (before + 120)) <= 5, JSON.stringify(claims));
    assert.equal((await exchange(standard.url, client)).expires_in, 3600, "without --token-ttl tokens last an hour");

    const bearer = { authorization: `Bearer ${answer.access_token}` };
    assert.deepEqual((await expectJson(await listNamespaces(short.url, bearer))).namespaces, []);
    await expectError(await createNamespace(short.url, "sales", bearer), 403, 15);
    await expectError(await listNamespaces(short.url, { ...bearer, "x-svc-database": "default" }), 403, 15);
    await expectError(await listNamespaces(short.url, {}), 401, 16);
    await expectError(
      await fetch(`${short.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.id, client_secret: `${client.secret}x` }).toString(),
      }),
      401,
      16,
    );
  });

  test("serve with --oidc-issuer, --oidc-audience and --oidc-jwks-url accepts the issuer's tokens within their role and refuses one for another audience with 401 code 16", { timeout: 60_000 }, async (t) => {
    const root = tempRoot();
    const issuer = await startTestIssuer();
    const server = await spawnServe([
      "--port", "0", "--root", root, "--auth", "required",
      "--oidc-issuer", issuer.issuer, "--oidc-audience", issuer.audience, "--oidc-jwks-url", issuer.jwksUrl,
    ]);
    t.after(async () => {
      await server.stop("SIGKILL");
      await issuer.close();
      rmSync(root, { recursive: true, force: true });
    });

    const reader = { authorization: `Bearer ${await issuer.sign(externalClaims(issuer, { quiver_role: "read", quiver_database: "default" }))}` };
    assert.equal((await listNamespaces(server.url, reader)).status, 200);
    await expectError(await createNamespace(server.url, "sales", reader), 403, 15);
    const writer = { authorization: `Bearer ${await issuer.sign(externalClaims(issuer, { quiver_role: "write", quiver_database: "default" }), { alg: "RS256" })}` };
    await expectJson(await createNamespace(server.url, "sales", writer));

    const elsewhere = await issuer.sign(externalClaims(issuer, { aud: "another-api", quiver_role: "write", quiver_database: "default" }));
    await expectError(await listNamespaces(server.url, { authorization: `Bearer ${elsewhere}` }), 401, 16);
    assert.ok(issuer.fetches >= 1, "the keys came from the JWKS URL given on the command line");
  });
});
