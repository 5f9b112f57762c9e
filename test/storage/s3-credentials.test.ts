// Credentials vended for one s3:// table. STS has no faithful emulator here, so what is tested is
// the shape of what Quiver asks for: the session policy documents (read vs write, scoped to the
// table's prefix), and the signed AssumeRole request as a local stand-in for STS receives it,
// answered with a response of the shape STS documents.
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, type TestContext, test } from "node:test";
import {
  type PolicyDocument,
  partitionOf,
  s3MinterOf,
  sessionNameOf,
  sessionSecondsOf,
  tablePolicyOf,
} from "../../src/storage/s3/s3-credentials.js";
import { s3Backend } from "../../src/storage/s3/s3-backend.js";
import { S3Storage } from "../../src/storage/s3/s3-storage.js";
import { s3QuiverKeys } from "../../src/storage/s3/s3-descriptor.js";

const table = "s3://lake/db/t.lance";
const roleArn = "arn:aws:iam::123456789012:role/quiver-vending";
const longLivedKeyId = "AKIAQUIVERLONGLIVED1";
const longLivedSecret = "long-lived-secret-never-vended";

/** Whether an IAM resource or StringLike pattern matches `value` (`*` and `?` wildcards, `${x}` literals). */
function matchesPattern(pattern: string, value: string): boolean {
  const source = pattern
    .split(/(\$\{[*?$]\})/)
    .map((part) => (/^\$\{[*?$]\}$/.test(part) ? `\\${part[2]}` : part.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*").replaceAll("?", ".")))
    .join("");
  return new RegExp(`^${source}$`).test(value);
}

/** Whether `policy` allows `action` on `resource` (with `listPrefix` as the request's s3:prefix). */
function allows(policy: PolicyDocument, action: string, resource: string, listPrefix?: string): boolean {
  return policy.Statement.some((statement) => {
    if (statement.Effect !== "Allow" || !statement.Action.includes(action)) return false;
    if (!statement.Resource.some((pattern) => matchesPattern(pattern, resource))) return false;
    const prefixes = statement.Condition?.StringLike?.["s3:prefix"];
    return prefixes === undefined || (listPrefix !== undefined && prefixes.some((pattern) => matchesPattern(pattern, listPrefix)));
  });
}

describe("tablePolicyOf", () => {
  test("read access → list the table's prefix and get its objects, nothing more", () => {
    assert.deepEqual(tablePolicyOf(table, "read"), {
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "ListTablePrefix",
          Effect: "Allow",
          Action: ["s3:ListBucket"],
          Resource: ["arn:aws:s3:::lake"],
          Condition: { StringLike: { "s3:prefix": ["db/t.lance", "db/t.lance/*"] } },
        },
        { Sid: "ReadTableObjects", Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::lake/db/t.lance/*"] },
      ],
    });
  });

  test("write access → the read statements plus put, delete and multipart clean-up on the table's objects", () => {
    const policy = tablePolicyOf(table, "write");
    assert.deepEqual(policy.Statement.slice(0, 2), tablePolicyOf(table, "read").Statement);
    assert.deepEqual(policy.Statement.slice(2), [
      {
        Sid: "WriteTableObjects",
        Effect: "Allow",
        Action: ["s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"],
        Resource: ["arn:aws:s3:::lake/db/t.lance/*"],
      },
    ]);
  });

  test("inside the prefix allowed, outside refused: siblings sharing the name's start, parents, other buckets", () => {
    const read = tablePolicyOf(table, "read");
    const write = tablePolicyOf(table, "write");
    const inside = "arn:aws:s3:::lake/db/t.lance/_versions/1.manifest";
    assert.ok(allows(read, "s3:GetObject", inside));
    assert.ok(allows(read, "s3:ListBucket", "arn:aws:s3:::lake", "db/t.lance/"));
    assert.ok(allows(read, "s3:ListBucket", "arn:aws:s3:::lake", "db/t.lance/data/"));
    assert.ok(allows(write, "s3:PutObject", inside));
    assert.ok(allows(write, "s3:DeleteObject", inside));
    assert.equal(allows(read, "s3:PutObject", inside), false, "read access writes nothing");
    assert.equal(allows(read, "s3:DeleteObject", inside), false);
    for (const outside of ["arn:aws:s3:::lake/db/t.lance-other/data.lance", "arn:aws:s3:::lake/db/u.lance/x", "arn:aws:s3:::lake/quiver.sqlite", "arn:aws:s3:::other/db/t.lance/x"]) {
      for (const action of ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"]) assert.equal(allows(write, action, outside), false, `${action} ${outside}`);
    }
    for (const prefix of ["", "db/", "db/t.lance-other/", "db/u.lance"]) {
      assert.equal(allows(write, "s3:ListBucket", "arn:aws:s3:::lake", prefix), false, `list '${prefix}'`);
    }
    assert.equal(allows(write, "s3:ListBucket", "arn:aws:s3:::lake"), false, "listing without a prefix");
    assert.equal(allows(write, "s3:ListBucket", "arn:aws:s3:::other", "db/t.lance/"), false);
  });

  test("wildcard characters in a key stay literal: a table named 'a*?$' reaches no other table starting with 'a'", () => {
    const policy = tablePolicyOf("s3://lake/db/a*?$", "write");
    assert.deepEqual(policy.Statement[1]?.Resource, ["arn:aws:s3:::lake/db/a${*}${?}${$}/*"]);
    assert.ok(allows(policy, "s3:GetObject", "arn:aws:s3:::lake/db/a*?$/x"));
    assert.equal(allows(policy, "s3:GetObject", "arn:aws:s3:::lake/db/abc/x"), false);
    assert.equal(allows(policy, "s3:ListBucket", "arn:aws:s3:::lake", "db/abc/"), false);
  });

  test("a location naming a whole bucket → refused; regions in China and GovCloud → their ARN partitions", () => {
    assert.throws(() => tablePolicyOf("s3://lake", "read"), /whole bucket/);
    assert.throws(() => tablePolicyOf("s3://lake/", "read"), /whole bucket/);
    assert.equal(partitionOf("cn-north-1"), "aws-cn");
    assert.equal(partitionOf("us-gov-west-1"), "aws-us-gov");
    assert.equal(partitionOf("eu-west-1"), "aws");
    assert.deepEqual(tablePolicyOf(table, "read", "aws-cn").Statement[1]?.Resource, ["arn:aws-cn:s3:::lake/db/t.lance/*"]);
  });
});

test("sessionNameOf → quiver-<table folder>-<hash>, within STS's 64 characters and alphabet, distinct per location", () => {
  const names = [table, "s3://lake/other/t.lance", `s3://lake/db/${"x".repeat(100)}`, "s3://lake/db/tâble with spaces"].map(sessionNameOf);
  for (const name of names) assert.match(name, /^quiver-[\w+=,.@-]{1,57}$/);
  assert.match(names[0] as string, /^quiver-t\.lance-[0-9a-f]{12}$/);
  assert.equal(new Set(names).size, names.length);
});

test("sessionSecondsOf clamps a TTL to STS's 900..43200 seconds", () => {
  assert.equal(sessionSecondsOf(60), 900);
  assert.equal(sessionSecondsOf(3600), 3600);
  assert.equal(sessionSecondsOf(3600.7), 3600);
  assert.equal(sessionSecondsOf(7 * 86_400), 43_200);
  assert.equal(sessionSecondsOf(7 * 86_400, 3600), 3600);
});

test("s3MinterOf → a minter only with a vending role and long-lived keys to assume it with", () => {
  const keys = { aws_access_key_id: longLivedKeyId, aws_secret_access_key: longLivedSecret };
  assert.equal(s3MinterOf(keys), undefined);
  assert.equal(s3MinterOf({ [s3QuiverKeys.vendingRole]: roleArn }), undefined);
  assert.equal(s3MinterOf({ [s3QuiverKeys.vendingRole]: roleArn, aws_access_key_id: longLivedKeyId }), undefined);
  assert.ok(s3MinterOf({ ...keys, [s3QuiverKeys.vendingRole]: roleArn }));
  assert.ok(s3MinterOf({ access_key_id: longLivedKeyId, secret_access_key: longLivedSecret, [s3QuiverKeys.vendingRole]: roleArn }), "Lance's aliases count");
});

test("s3Backend serves the s3 scheme with S3Storage, and mints only where s3MinterOf would", () => {
  const keys = { aws_access_key_id: longLivedKeyId, aws_secret_access_key: longLivedSecret, aws_region: "eu-west-1" };
  assert.equal(s3Backend.scheme, "s3");
  assert.ok(s3Backend.open(keys) instanceof S3Storage);
  assert.equal(s3Backend.minter(keys), undefined);
  assert.ok(s3Backend.minter({ ...keys, [s3QuiverKeys.vendingRole]: roleArn }));
});

interface RecordedStsRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

const expiration = "2026-11-25T03:21:13Z";

/** An AssumeRole answer in the shape STS documents. */
const assumeRoleResponse = `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <AssumedRoleUser>
      <Arn>arn:aws:sts::123456789012:assumed-role/quiver-vending/quiver-t.lance</Arn>
      <AssumedRoleId>AROA3XFRBF535PLBIFPI4:quiver-t.lance</AssumedRoleId>
    </AssumedRoleUser>
    <Credentials>
      <AccessKeyId>ASIAQUIVERSESSION001</AccessKeyId>
      <SecretAccessKey>session-secret</SecretAccessKey>
      <SessionToken>session-token</SessionToken>
      <Expiration>${expiration}</Expiration>
    </Credentials>
    <PackedPolicySize>9</PackedPolicySize>
  </AssumeRoleResult>
  <ResponseMetadata>
    <RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId>
  </ResponseMetadata>
</AssumeRoleResponse>`;

const accessDeniedResponse = `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <Error><Type>Sender</Type><Code>AccessDenied</Code><Message>not authorized to perform sts:AssumeRole</Message></Error>
  <RequestId>0f4f5c5e-2bb4-4bbf-9d2a-1c1e7e2f8d11</RequestId>
</ErrorResponse>`;

/** A local server standing in for STS: records each request and answers with `answer`. */
async function startStsStandIn(t: TestContext, answer: { status: number; body: string }) {
  const received: RecordedStsRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, form: new URLSearchParams(Buffer.concat(chunks).toString()) });
      response.writeHead(answer.status, { "Content-Type": "text/xml" }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

function minterFor(stsEndpoint: string, region = "eu-west-1", extra: Record<string, string> = {}) {
  const minter = s3MinterOf({
    ...extra,
    aws_access_key_id: longLivedKeyId,
    aws_secret_access_key: longLivedSecret,
    aws_region: region,
    [s3QuiverKeys.vendingRole]: roleArn,
    [s3QuiverKeys.stsEndpoint]: stsEndpoint,
  });
  assert.ok(minter);
  return minter;
}

describe("S3CredentialMinter against a stand-in for STS", () => {
  test("mint for write → one signed AssumeRole POST with the role, duration and the write policy; answers the session's keys and expiry", async (t) => {
    const sts = await startStsStandIn(t, { status: 200, body: assumeRoleResponse });
    const minted = await minterFor(sts.endpoint).mint(table, "write", 3600);

    assert.equal(sts.received.length, 1);
    const [request] = sts.received;
    assert.equal(request?.method, "POST");
    assert.match(request?.headers["content-type"] ?? "", /^application\/x-www-form-urlencoded/);
    assert.equal(request?.form.get("Action"), "AssumeRole");
    assert.equal(request?.form.get("Version"), "2011-06-15");
    assert.equal(request?.form.get("RoleArn"), roleArn);
    assert.equal(request?.form.get("RoleSessionName"), sessionNameOf(table));
    assert.equal(request?.form.get("DurationSeconds"), "3600");
    assert.equal(request?.form.get("Policy"), JSON.stringify(tablePolicyOf(table, "write")));
    const authorization = request?.headers.authorization ?? "";
    assert.match(authorization, new RegExp(`^AWS4-HMAC-SHA256 Credential=${longLivedKeyId}/\\d{8}/eu-west-1/sts/aws4_request, SignedHeaders=[^,]*host[^,]*, Signature=[0-9a-f]{64}$`));
    assert.match(String(request?.headers["x-amz-date"]), /^\d{8}T\d{6}Z$/);

    assert.deepEqual(minted, {
      aws_access_key_id: "ASIAQUIVERSESSION001",
      aws_secret_access_key: "session-secret",
      aws_session_token: "session-token",
      expires_at_millis: String(Date.parse(expiration)),
    });
    assert.equal(JSON.stringify(minted).includes(longLivedSecret), false, "the long-lived secret is never vended");
    assert.equal(JSON.stringify(request?.form.toString()).includes(longLivedSecret), false, "nor sent");
  });

  test("mint for read with a TTL below STS's minimum → the read policy and DurationSeconds 900", async (t) => {
    const sts = await startStsStandIn(t, { status: 200, body: assumeRoleResponse });
    await minterFor(sts.endpoint).mint(table, "read", 60);
    assert.equal(sts.received[0]?.form.get("DurationSeconds"), "900");
    assert.deepEqual(JSON.parse(sts.received[0]?.form.get("Policy") ?? ""), tablePolicyOf(table, "read"));
  });

  test("mint with keys that are themselves a session's → DurationSeconds at most 3600, the session token signed along", async (t) => {
    const sts = await startStsStandIn(t, { status: 200, body: assumeRoleResponse });
    await minterFor(sts.endpoint, "eu-west-1", { aws_session_token: "caller-session-token" }).mint(table, "read", 43_200);
    assert.equal(sts.received[0]?.form.get("DurationSeconds"), "3600");
    assert.equal(sts.received[0]?.headers["x-amz-security-token"], "caller-session-token");
  });

  test("mint in a China region → the policy's ARNs use the aws-cn partition", async (t) => {
    const sts = await startStsStandIn(t, { status: 200, body: assumeRoleResponse });
    await minterFor(sts.endpoint, "cn-north-1").mint(table, "read", 900);
    assert.deepEqual(JSON.parse(sts.received[0]?.form.get("Policy") ?? ""), tablePolicyOf(table, "read", "aws-cn"));
  });

  test("STS refusing the role (403 AccessDenied) → mint rejects with STS's error", async (t) => {
    const sts = await startStsStandIn(t, { status: 403, body: accessDeniedResponse });
    await assert.rejects(minterFor(sts.endpoint).mint(table, "read", 900), { name: "AccessDenied" });
  });
});
