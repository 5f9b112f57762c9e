/**
 * @module How Quiver reads Lance's S3 storage options, and what an `s3://` location names. Lance
 * accepts several spellings of each key (`aws_endpoint`, `endpoint`, `aws_endpoint_url`, ...);
 * Quiver accepts the same ones, so any map that opens a table in Lance opens it here too.
 */
import type { StorageOptions } from "../storage-options.js";
import { splitBucketLocation } from "../locations.js";
import { attemptTimeoutOf, durationMs } from "../store-timeout.js";

/** What Quiver needs from Lance's S3 keys to reach a bucket. */
export interface S3Settings {
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  sessionToken: string | undefined;
  /** A custom endpoint (an S3-compatible store, a local emulator); undefined for AWS itself. */
  endpoint: string | undefined;
  /**
   * Whether a custom endpoint is the bucket's own address (Lance's virtual-hosted style) rather than
   * a service the bucket is a path under (path style, Lance's default). AWS's own hosts need no
   * choice: they take both, and the SDK picks.
   */
  virtualHostedStyle: boolean;
  /** How long one attempt of a request may take (see `attemptTimeoutOf`), and its connection (`connect_timeout`). */
  requestTimeoutMs: number;
  connectTimeoutMs: number;
}

/** Lance's spellings of each setting, preferred first. */
const aliases = {
  accessKeyId: ["aws_access_key_id", "access_key_id"],
  secretAccessKey: ["aws_secret_access_key", "secret_access_key"],
  sessionToken: ["aws_session_token", "aws_token", "session_token", "token"],
  region: ["aws_region", "region", "aws_default_region", "default_region"],
  endpoint: ["aws_endpoint", "aws_endpoint_url", "endpoint", "endpoint_url"],
  allowHttp: ["allow_http", "aws_allow_http"],
  virtualHostedStyle: ["aws_virtual_hosted_style_request", "virtual_hosted_style_request"],
} as const;

/** The region Lance falls back to when none is configured. */
const defaultRegion = "us-east-1";

function valueOf(options: StorageOptions, keys: readonly string[]): string | undefined {
  const lowered = new Map(Object.entries(options).map(([key, value]) => [key.toLowerCase(), value]));
  for (const key of keys) {
    const value = lowered.get(key);
    if (value !== undefined && value !== "") return value;
  }
  return undefined;
}

/** Lance's reading of a boolean option: `true`/`false` and their common spellings. */
function booleanOf(options: StorageOptions, keys: readonly string[]): boolean | undefined {
  const value = valueOf(options, keys)?.trim().toLowerCase();
  if (value === undefined) return undefined;
  if (["true", "1", "yes", "y", "on"].includes(value)) return true;
  if (["false", "0", "no", "n", "off"].includes(value)) return false;
  throw new Error(`'${value}' is not a boolean in the S3 storage option ${keys[0]}`);
}

/** Reads Lance's S3 keys; throws when they could not reach a store (an `http` endpoint without `allow_http`). */
export function s3SettingsOf(options: StorageOptions): S3Settings {
  const endpoint = valueOf(options, aliases.endpoint)?.replace(/\/+$/, "");
  if (endpoint !== undefined) {
    const protocol = URL.canParse(endpoint) ? new URL(endpoint).protocol : "";
    if (protocol !== "https:" && protocol !== "http:") throw new Error(`the S3 endpoint '${endpoint}' is not an http(s) URL`);
    if (protocol === "http:" && booleanOf(options, aliases.allowHttp) !== true) {
      throw new Error(`the S3 endpoint '${endpoint}' uses http, which needs allow_http "true"`);
    }
  }
  return {
    region: valueOf(options, aliases.region) ?? defaultRegion,
    accessKeyId: valueOf(options, aliases.accessKeyId),
    secretAccessKey: valueOf(options, aliases.secretAccessKey),
    sessionToken: valueOf(options, aliases.sessionToken),
    endpoint,
    virtualHostedStyle: booleanOf(options, aliases.virtualHostedStyle) ?? false,
    requestTimeoutMs: attemptTimeoutOf(options),
    connectTimeoutMs: durationMs(options.connect_timeout) ?? attemptTimeoutOf(options),
  };
}

export interface S3Address {
  bucket: string;
  /** The object key, or a prefix of keys, without a leading or trailing `/`. */
  key: string;
}

/** Splits `s3://bucket/a/b` into its bucket and key. */
export function parseS3Location(location: string): S3Address {
  const { bucket, name } = splitBucketLocation(location, "s3");
  return { bucket, key: name };
}
