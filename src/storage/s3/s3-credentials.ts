/**
 * @module Credentials for one `s3://` table, vended to clients: STS `AssumeRole` on the configured
 * vending role with an inline session policy that reaches only the table's prefix. A session
 * policy can only narrow what the role itself grants, so the role needs at least these actions on
 * the buckets it serves; the long-lived keys Quiver calls STS with never leave the server.
 */
import { createHash } from "node:crypto";
import type { STSClient } from "@aws-sdk/client-sts";
import type { CredentialMinter, CredentialReach, TableAccess } from "../storage-backend.js";
import type { StorageOptions } from "../storage-options.js";
import { s3QuiverKeys } from "./s3-descriptor.js";
import { parseS3Location, type S3Settings, s3SettingsOf } from "./s3-options.js";
import { storeRequestAttempts } from "../store-timeout.js";

export interface PolicyStatement {
  Sid: string;
  Effect: "Allow";
  Action: string[];
  Resource: string[];
  Condition?: Record<string, Record<string, string[]>>;
}

export interface PolicyDocument {
  Version: "2012-10-17";
  Statement: PolicyStatement[];
}

/** STS's bounds on a role session's duration, in seconds. */
export const sessionSecondsBounds = { min: 900, max: 43_200 } as const;

const readObjectActions = ["s3:GetObject"];
// Lance writes large files as multipart uploads, and aborts the ones it gives up on.
const writeObjectActions = ["s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"];

/** The ARN partition of a region: buckets in China and GovCloud are not `arn:aws:`. */
export function partitionOf(region: string): string {
  if (region.startsWith("cn-")) return "aws-cn";
  if (region.startsWith("us-gov-")) return "aws-us-gov";
  return "aws";
}

/** A key as literal text in an ARN or a `StringLike` value, where `*`, `?` and `$` would be special. */
function literalInPolicy(text: string): string {
  return text.replace(/[*?$]/g, (character) => `\${${character}}`);
}

/**
 * The session policy for a table at `location` (`s3://bucket/prefix`): list the prefix, read the
 * objects below it, and for write access also create, replace and delete them. Nothing outside the
 * prefix, and no bucket-level action but listing the prefix. Throws for a location without a prefix.
 */
export function tablePolicyOf(location: string, access: TableAccess, partition = "aws"): PolicyDocument {
  const { bucket, key } = parseS3Location(location);
  if (key === "") throw new Error(`'${location}' names a whole bucket; credentials are scoped to one table's prefix`);
  const prefix = literalInPolicy(key);
  const objects = `arn:${partition}:s3:::${bucket}/${prefix}/*`;
  const statements: PolicyStatement[] = [
    {
      Sid: "ListTablePrefix",
      Effect: "Allow",
      Action: ["s3:ListBucket"],
      Resource: [`arn:${partition}:s3:::${bucket}`],
      Condition: { StringLike: { "s3:prefix": [prefix, `${prefix}/*`] } },
    },
    { Sid: "ReadTableObjects", Effect: "Allow", Action: readObjectActions, Resource: [objects] },
  ];
  if (access === "write") statements.push({ Sid: "WriteTableObjects", Effect: "Allow", Action: writeObjectActions, Resource: [objects] });
  return { Version: "2012-10-17", Statement: statements };
}

/**
 * A role session name that tells a table's sessions apart in the account's audit log:
 * `quiver-<table folder>-<hash of the location>`, within STS's 64 characters and alphabet.
 */
export function sessionNameOf(location: string): string {
  const folder = parseS3Location(location).key.split("/").pop() ?? "";
  const readable = folder.replace(/[^\w+=,.@-]/g, "_").slice(0, 40);
  const hash = createHash("sha256").update(location).digest("hex").slice(0, 12);
  return readable === "" ? `quiver-${hash}` : `quiver-${readable}-${hash}`;
}

/** STS's bound on a session assumed with session credentials (role chaining), in seconds. */
export const chainedSessionMaxSeconds = 3600;

/** `ttlSeconds` as a session duration STS accepts, at most `maxSeconds`. */
export function sessionSecondsOf(ttlSeconds: number, maxSeconds: number = sessionSecondsBounds.max): number {
  return Math.min(maxSeconds, Math.max(sessionSecondsBounds.min, Math.floor(ttlSeconds)));
}

interface StsConnection {
  sdk: typeof import("@aws-sdk/client-sts");
  client: STSClient;
}

interface MinterConfig {
  roleArn: string;
  settings: S3Settings & { accessKeyId: string; secretAccessKey: string };
  /** Undefined for the region's own STS endpoint. */
  stsEndpoint: string | undefined;
}

export class S3CredentialMinter implements CredentialMinter {
  private sts: Promise<StsConnection> | undefined;

  constructor(private readonly config: MinterConfig) {}

  /** The session policy names the table's prefix (a location without one is never minted for). */
  async reachOf(): Promise<CredentialReach> {
    return "prefix";
  }

  async mint(location: string, access: TableAccess, ttlSeconds: number): Promise<StorageOptions> {
    const { region, sessionToken } = this.config.settings;
    const policy = tablePolicyOf(location, access, partitionOf(region));
    // STS refuses a longer session than an hour when the keys calling it are themselves a session's.
    const maxSeconds = sessionToken === undefined ? sessionSecondsBounds.max : chainedSessionMaxSeconds;
    const { sdk, client } = await this.connected();
    const { Credentials: credentials } = await client.send(
      new sdk.AssumeRoleCommand({
        RoleArn: this.config.roleArn,
        RoleSessionName: sessionNameOf(location),
        DurationSeconds: sessionSecondsOf(ttlSeconds, maxSeconds),
        Policy: JSON.stringify(policy),
      }),
    );
    if (!credentials?.AccessKeyId || !credentials.SecretAccessKey || !credentials.SessionToken || !credentials.Expiration) {
      throw new Error(`STS answered AssumeRole on ${this.config.roleArn} without complete credentials`);
    }
    return {
      aws_access_key_id: credentials.AccessKeyId,
      aws_secret_access_key: credentials.SecretAccessKey,
      aws_session_token: credentials.SessionToken,
      expires_at_millis: String(credentials.Expiration.getTime()),
    };
  }

  /** The STS client, built on first use so the SDK loads only when a table's credentials are asked for. */
  private connected(): Promise<StsConnection> {
    this.sts ??= (async () => {
      const sdk = await import("@aws-sdk/client-sts");
      const { region, accessKeyId, secretAccessKey, sessionToken } = this.config.settings;
      const client = new sdk.STSClient({
        region,
        credentials: { accessKeyId, secretAccessKey, sessionToken },
        ...(this.config.stsEndpoint === undefined ? {} : { endpoint: this.config.stsEndpoint }),
        // Minting answers a client's request: an STS that is down fails it within the store timeout.
        maxAttempts: storeRequestAttempts,
        requestHandler: { connectionTimeout: this.config.settings.connectTimeoutMs, requestTimeout: this.config.settings.requestTimeoutMs },
      });
      return { sdk, client };
    })();
    return this.sts;
  }
}

/** A minter for these options, or undefined without a vending role and the keys to assume it with. */
export function s3MinterOf(options: StorageOptions): S3CredentialMinter | undefined {
  const roleArn = valueOfQuiverKey(options, s3QuiverKeys.vendingRole);
  const settings = s3SettingsOf(options);
  const { accessKeyId, secretAccessKey } = settings;
  if (!roleArn || !accessKeyId || !secretAccessKey) return undefined;
  const stsEndpoint = valueOfQuiverKey(options, s3QuiverKeys.stsEndpoint)?.replace(/\/+$/, "");
  return new S3CredentialMinter({ roleArn, settings: { ...settings, accessKeyId, secretAccessKey }, stsEndpoint });
}

function valueOfQuiverKey(options: StorageOptions, key: string): string | undefined {
  const found = Object.entries(options).find(([name, value]) => name.toLowerCase() === key && value !== "");
  return found?.[1];
}
