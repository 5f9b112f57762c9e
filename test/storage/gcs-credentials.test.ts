// Downscoped tokens for one gs:// table: the Credential Access Boundary documents Quiver builds,
// and the token exchange it makes, against a local server recording what Google's token service
// and STS would receive. Whether Google honours a boundary is Google's to test; these check
// that the boundary says what Quiver means and reaches the exchange unchanged.
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, beforeEach, describe, test } from "node:test";
import { gcsBackend } from "../../src/storage/gcs/gcs-backend.js";
import {
  accessBoundaryOf,
  type CredentialAccessBoundary,
  GcsCredentialMinter,
  type SourceToken,
  serviceAccountTokenSupplier,
} from "../../src/storage/gcs/gcs-credentials.js";
import type { RecordedRequest, RecordingServer } from "../helpers/recording-server.js";
import { startRecordingServer } from "../helpers/recording-server.js";

/**
 * Whether the boundary's condition admits an object name, or a listing with a prefix: the two
 * literals of the expression Quiver writes, applied the way the service applies them.
 */
function admits(boundary: CredentialAccessBoundary, request: { object: string } | { listPrefix: string }): boolean {
  const [rule] = boundary.accessBoundary.accessBoundaryRules;
  assert.ok(rule);
  const expression = rule.availabilityCondition?.expression;
  if (expression === undefined) return true;
  const match = /^resource\.name\.startsWith\('(.*)'\) \|\| api\.getAttribute\('storage\.googleapis\.com\/objectListPrefix', ''\)\.startsWith\('(.*)'\)$/.exec(expression);
  assert.ok(match, `an expression of the expected form: ${expression}`);
  const [, resourcePrefix = "", listPrefix = ""] = match;
  return "object" in request ? `projects/_/buckets/lake/objects/${request.object}`.startsWith(resourcePrefix) : request.listPrefix.startsWith(listPrefix);
}

describe("accessBoundaryOf", () => {
  test("read → objectViewer on the table's bucket, limited to objects under the table and listings inside it", () => {
    assert.deepEqual(accessBoundaryOf("gs://lake/db/t.lance", "read"), {
      accessBoundary: {
        accessBoundaryRules: [
          {
            availablePermissions: ["inRole:roles/storage.objectViewer"],
            availableResource: "//storage.googleapis.com/projects/_/buckets/lake",
            availabilityCondition: {
              title: "read db/t.lance/",
              expression:
                "resource.name.startsWith('projects/_/buckets/lake/objects/db/t.lance/')" +
                " || api.getAttribute('storage.googleapis.com/objectListPrefix', '').startsWith('db/t.lance/')",
            },
          },
        ],
      },
    });
  });

  test("write → objectUser (no ACL changes) with the same scoping as read", () => {
    const read = accessBoundaryOf("gs://lake/db/t.lance", "read").accessBoundary.accessBoundaryRules[0];
    const write = accessBoundaryOf("gs://lake/db/t.lance", "write").accessBoundary.accessBoundaryRules[0];
    assert.deepEqual(write?.availablePermissions, ["inRole:roles/storage.objectUser"]);
    assert.equal(write?.availableResource, read?.availableResource);
    assert.equal(write?.availabilityCondition?.expression, read?.availabilityCondition?.expression);
  });

  test("the prefix is the table as a folder: its objects and listings are admitted; a sibling sharing its name's beginning, its parent and the bucket's root are not", () => {
    const boundary = accessBoundaryOf("gs://lake/db/t.lance/", "write");
    assert.deepEqual(boundary, accessBoundaryOf("gs://lake/db/t.lance", "write"), "a trailing slash changes nothing");
    assert.equal(admits(boundary, { object: "db/t.lance/_versions/1.manifest" }), true);
    assert.equal(admits(boundary, { object: "db/t.lance/data/a.lance" }), true);
    assert.equal(admits(boundary, { listPrefix: "db/t.lance/" }), true);
    assert.equal(admits(boundary, { listPrefix: "db/t.lance/_versions/" }), true);
    assert.equal(admits(boundary, { object: "db/t.lance-other/_versions/1.manifest" }), false);
    assert.equal(admits(boundary, { object: "db/t.lance" }), false);
    assert.equal(admits(boundary, { listPrefix: "db/" }), false);
    assert.equal(admits(boundary, { listPrefix: "" }), false);
  });

  test("quotes and backslashes in a table's path are escaped in the expression; control characters are refused", () => {
    const expression = accessBoundaryOf("gs://lake/db/it's\\t.lance", "read").accessBoundary.accessBoundaryRules[0]?.availabilityCondition?.expression;
    assert.ok(expression?.includes("startsWith('db/it\\'s\\\\t.lance/')"), expression);
    assert.throws(() => accessBoundaryOf("gs://lake/db/a\tb.lance", "read"), /control character/);
  });

  test("a table at the bucket's root → the whole bucket, without a condition", () => {
    assert.deepEqual(accessBoundaryOf("gs://lake", "read").accessBoundary.accessBoundaryRules, [
      { availablePermissions: ["inRole:roles/storage.objectViewer"], availableResource: "//storage.googleapis.com/projects/_/buckets/lake" },
    ]);
  });
});

describe("the token exchange and the minted options", () => {
  let sts: RecordingServer;
  const now = 1_700_000_000_000;

  before(async () => {
    sts = await startRecordingServer();
  });

  after(() => sts.close());

  beforeEach(() => {
    sts.requests.length = 0;
    sts.answer = () => ({
      status: 200,
      body: { access_token: "downscoped-token", issued_token_type: "urn:ietf:params:oauth:token-type:access_token", token_type: "Bearer" },
    });
  });

  const sourceValidFor = (millis: number) => async (): Promise<SourceToken> => ({ token: "source-token", expiresAtMillis: now + millis });
  const minter = (source: () => Promise<SourceToken>) => new GcsCredentialMinter(source, sts.url, () => now);

  test("one form POST to /v1/token: token-exchange grant, access tokens both ways, the source token as subject, the boundary as options", async () => {
    await minter(sourceValidFor(3600_000)).mint("gs://lake/db/t.lance", "write", 900);
    assert.equal(sts.requests.length, 1);
    const [exchange] = sts.requests as [RecordedRequest];
    assert.equal(`${exchange.method} ${exchange.path}`, "POST /v1/token");
    assert.equal(exchange.headers["content-type"], "application/x-www-form-urlencoded");
    const form = new URLSearchParams(exchange.body.toString());
    assert.deepEqual([...form.keys()].sort(), ["grant_type", "options", "requested_token_type", "subject_token", "subject_token_type"]);
    assert.equal(form.get("grant_type"), "urn:ietf:params:oauth:grant-type:token-exchange");
    assert.equal(form.get("subject_token_type"), "urn:ietf:params:oauth:token-type:access_token");
    assert.equal(form.get("requested_token_type"), "urn:ietf:params:oauth:token-type:access_token");
    assert.equal(form.get("subject_token"), "source-token");
    assert.deepEqual(JSON.parse(form.get("options") ?? ""), accessBoundaryOf("gs://lake/db/t.lance", "write"));
  });

  test("the minted options: the downscoped token and expires_at_millis = now + TTL when the source token outlives it; never the source token", async () => {
    const minted = await minter(sourceValidFor(3600_000)).mint("gs://lake/db/t.lance", "read", 900);
    assert.deepEqual(minted, { google_storage_token: "downscoped-token", expires_at_millis: String(now + 900_000) });
  });

  test("expires_at_millis is the source token's end when that comes before the TTL, and the STS's expires_in when that is sooner still", async () => {
    assert.equal((await minter(sourceValidFor(1200_000)).mint("gs://lake/db/t.lance", "read", 3600)).expires_at_millis, String(now + 1200_000));
    sts.answer = () => ({ status: 200, body: { access_token: "downscoped-token", expires_in: 600 } });
    assert.equal((await minter(sourceValidFor(1200_000)).mint("gs://lake/db/t.lance", "read", 3600)).expires_at_millis, String(now + 600_000));
  });

  test("an STS refusal → the mint fails with its status and error, without the source token; a TTL ≤ 0 is refused before any request", async () => {
    sts.answer = () => ({ status: 400, body: { error: "invalid_request", error_description: "The access boundary is invalid." } });
    await assert.rejects(
      minter(sourceValidFor(3600_000)).mint("gs://lake/db/t.lance", "read", 900),
      (error: Error) => /status 400 \(invalid_request: The access boundary is invalid\.\)/.test(error.message) && !error.message.includes("source-token"),
    );
    sts.requests.length = 0;
    await assert.rejects(minter(sourceValidFor(3600_000)).mint("gs://lake/db/t.lance", "read", 0), RangeError);
    assert.equal(sts.requests.length, 0);
  });

  test("a service account's key → google-auth-library asks Google's token endpoint with a JWT for the cloud-platform scope, and that token is the subject", async (t) => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const key = {
      type: "service_account",
      client_email: "quiver@project.iam.gserviceaccount.com",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      private_key_id: "key-1",
    };
    const dir = mkdtempSync(path.join(tmpdir(), "quiver-gcs-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const keyFile = path.join(dir, "sa.json");
    writeFileSync(keyFile, JSON.stringify(key));

    sts.answer = (request) =>
      request.path === "/token"
        ? { status: 200, body: { access_token: "source-from-jwt", expires_in: 3599, token_type: "Bearer" } }
        : { status: 200, body: { access_token: "downscoped-token" } };
    // Google's token endpoint is fixed in the library; its HTTP client is pointed here instead.
    const toRecorder: typeof fetch = (input, init) => fetch(String(input).replace("https://oauth2.googleapis.com", sts.url), init);

    for (const account of [{ keyJson: JSON.stringify(key) }, { keyFile }]) {
      sts.requests.length = 0;
      const started = Date.now();
      const minted = await new GcsCredentialMinter(serviceAccountTokenSupplier(account, { fetchImplementation: toRecorder }), sts.url).mint("gs://lake/db/t.lance", "read", 7200);
      const [tokenRequest, exchange] = sts.requests as [RecordedRequest, RecordedRequest];
      assert.equal(`${tokenRequest.method} ${tokenRequest.path}`, "POST /token");
      const form = new URLSearchParams(tokenRequest.body.toString());
      assert.equal(form.get("grant_type"), "urn:ietf:params:oauth:grant-type:jwt-bearer");
      const claims = JSON.parse(Buffer.from((form.get("assertion") ?? "").split(".")[1] ?? "", "base64url").toString()) as Record<string, unknown>;
      assert.equal(claims.iss, key.client_email);
      assert.equal(claims.scope, "https://www.googleapis.com/auth/cloud-platform");
      assert.equal(new URLSearchParams(exchange.body.toString()).get("subject_token"), "source-from-jwt");
      assert.equal(minted.google_storage_token, "downscoped-token");
      const expiresAt = Number(minted.expires_at_millis);
      assert.ok(expiresAt >= started + 3599_000 && expiresAt <= Date.now() + 3599_000, "the source token's end, before the 2 h asked for");
    }
  });
});

describe("gcsBackend.minter", () => {
  test("a service account (file or key, any alias) → a minter; a bearer token alone or nothing → none", () => {
    assert.ok(gcsBackend.minter({ google_service_account: "/sa.json" }));
    assert.ok(gcsBackend.minter({ google_service_account_path: "/sa.json" }));
    assert.ok(gcsBackend.minter({ service_account_key: '{"client_email": "a", "private_key": "b"}' }));
    assert.equal(gcsBackend.minter({ google_storage_token: "a vended token" }), undefined);
    assert.equal(gcsBackend.minter({}), undefined);
  });

  test("a plain-HTTP STS endpoint is refused unless allow_http is set", () => {
    const options = { google_service_account: "/sa.json", quiver_gcs_sts_endpoint: "http://127.0.0.1:1" };
    assert.throws(() => gcsBackend.minter(options), /plain HTTP; set allow_http/);
    assert.ok(gcsBackend.minter({ ...options, allow_http: "true" }));
  });
});
