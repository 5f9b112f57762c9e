/**
 * @module The read-through proxy's S3 dialect. A SigV4 signature covers the host, so every request
 * is signed again for the real endpoint with the root's credentials (static keys, or the SDK's
 * default chain), keeping the payload hash the engine computed. The engine reaches the proxy
 * under a random path segment only this runtime knows, path style; the proxy speaks to the
 * store in the style the root configures.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { SignatureV4 } from "@smithy/signature-v4";
import type { StorageOptions } from "../storage-options.js";
import { s3SettingsOf } from "../s3/s3-options.js";
import { type RoutedRequest, type StoreDialect, listedPrefixOf, objectPathOf, plainHeaders } from "./store-dialect.js";

/** Lance's spellings of the endpoint and addressing keys; the proxy's endpoint replaces them. */
const endpointKeys = ["aws_endpoint", "aws_endpoint_url", "endpoint", "endpoint_url", "aws_virtual_hosted_style_request", "virtual_hosted_style_request"];

/** The hash of an empty payload, for the proxy's own reads. */
const emptyPayload = createHash("sha256").digest("hex");

/** Node's SHA-256 and HMAC in the shape the signer takes. */
type SourceData = string | ArrayBuffer | ArrayBufferView;

function bytesOf(data: SourceData): string | Uint8Array {
  if (typeof data === "string") return data;
  return ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
}

class NodeSha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash("sha256") : createHmac("sha256", bytesOf(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

type Credentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };

export class S3Dialect implements StoreDialect {
  readonly store: string;
  readonly signsWithRootCredential = true;
  private readonly token = randomBytes(16).toString("hex");
  private readonly settings;
  private readonly signer: SignatureV4;

  constructor(private readonly options: StorageOptions) {
    this.settings = s3SettingsOf(options);
    const { accessKeyId, secretAccessKey, sessionToken } = this.settings;
    // Without static keys, the SDK's default chain (environment, profile, instance role), built
    // once: it caches what it fetched and refreshes it before expiry.
    let chain: Promise<() => Promise<Credentials>> | undefined;
    const credentials: Credentials | (() => Promise<Credentials>) =
      accessKeyId && secretAccessKey
        ? { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) }
        : async () => {
            chain ??= import("@aws-sdk/credential-provider-node").then(({ defaultProvider }) => defaultProvider());
            return (await chain)();
          };
    this.signer = new SignatureV4({ service: "s3", region: this.settings.region, credentials, sha256: NodeSha256, uriEscapePath: false, applyChecksum: true });
    this.store = `s3:${this.settings.endpoint ?? `aws:${this.settings.region}`}`;
  }

  engineOptions(origin: string): StorageOptions {
    const kept = Object.fromEntries(Object.entries(this.options).filter(([key]) => !endpointKeys.includes(key.toLowerCase())));
    return { ...kept, aws_endpoint: `${origin}/${this.token}`, aws_virtual_hosted_style_request: "false", allow_http: "true" };
  }

  /** The store's URL of `/<bucket>/<key>` (raw, as the engine encoded it) and the query. */
  private upstreamUrl(pathname: string, search: string): URL {
    const [, bucket = "", ...rest] = pathname.split("/");
    const key = rest.length > 0 ? `/${rest.join("/")}` : "";
    const endpoint = this.settings.endpoint;
    if (endpoint === undefined) {
      const host = `s3.${this.settings.region}.amazonaws.com`;
      return bucket.includes(".") ? new URL(`https://${host}/${bucket}${key}${search}`) : new URL(`https://${bucket}.${host}${key || "/"}${search}`);
    }
    const base = new URL(endpoint);
    if (this.settings.virtualHostedStyle) return new URL(`${base.protocol}//${bucket}.${base.host}${base.pathname.replace(/\/+$/, "")}${key || "/"}${search}`);
    return new URL(`${endpoint}/${bucket}${key}${search}`);
  }

  route(rawUrl: string): RoutedRequest | undefined {
    const incoming = new URL(rawUrl, "http://proxy");
    const prefix = `/${this.token}`;
    if (!incoming.pathname.startsWith(`${prefix}/`)) return undefined;
    const pathname = incoming.pathname.slice(prefix.length);
    const objectPath = objectPathOf(pathname);
    const listing = incoming.searchParams.has("list-type") || objectPath === undefined;
    const listedPrefix = listing ? listedPrefixOf(pathname, incoming.searchParams) : undefined;
    return { url: this.upstreamUrl(pathname, incoming.search), objectPath, listing, listedPrefix };
  }

  /** The secret path segment proves the request comes from this runtime's engine. */
  mayServeFromCache(): boolean {
    return true;
  }

  private async sign(method: string, url: URL, headers: Record<string, string>): Promise<Record<string, string>> {
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of url.searchParams) {
      const existing = query[name];
      query[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
    }
    const signed = await this.signer.sign({
      method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      query,
      headers: { ...headers, host: url.host },
    });
    return signed.headers;
  }

  async forwardHeaders(method: string, url: URL, headers: IncomingHttpHeaders): Promise<Record<string, string>> {
    const kept = plainHeaders(headers, ["authorization", "x-amz-date", "x-amz-security-token"]);
    return this.sign(method, url, kept);
  }

  fetchUrl(url: URL): URL {
    return new URL(url.origin + url.pathname);
  }

  async fetchHeaders(url: URL, range: string): Promise<Record<string, string>> {
    return this.sign("GET", url, { range, "x-amz-content-sha256": emptyPayload });
  }
}
