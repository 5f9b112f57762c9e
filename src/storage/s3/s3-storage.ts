/**
 * @module `TableStorage` on Amazon S3 and S3-compatible stores, for locations `s3://<bucket>/<path>`.
 * It reads the same storage options Lance does (`aws_access_key_id`, `aws_region`, `aws_endpoint`,
 * `allow_http`, ...), so one map configures Quiver and every Lance client alike. Conditional
 * creates send `If-None-Match: *`, which S3 enforces; stores that ignore it are caught by
 * `honoursConditionalCreates`. The SDK is loaded on first use: importing it takes 180–250 ms,
 * which a server on local folders should not pay.
 */
import type { S3Client } from "@aws-sdk/client-s3";
import type { StorageOptions } from "../storage-options.js";
import { type ListedEntry, type ObjectInfo, type TableStorage, sizeOf } from "../table-storage.js";
import { parseS3Location, type S3Settings, s3SettingsOf } from "./s3-options.js";
import { assertDeletableInside } from "../locations.js";
import { undefinedWhenMissing } from "../missing-objects.js";
import { storeRequestAttempts } from "../store-timeout.js";

type S3Sdk = typeof import("@aws-sdk/client-s3");

interface Connection {
  sdk: S3Sdk;
  client: S3Client;
}

async function connect(settings: S3Settings): Promise<Connection> {
  const sdk = await import("@aws-sdk/client-s3");
  const { endpoint, accessKeyId, secretAccessKey, sessionToken } = settings;
  const client = new sdk.S3Client({
    region: settings.region,
    // Path style puts the bucket in the path under the endpoint; virtual-hosted style takes the
    // endpoint as the bucket's own address, which the SDK does when the bucket is given as that URL.
    ...(endpoint === undefined ? {} : settings.virtualHostedStyle ? { bucketEndpoint: true } : { endpoint, forcePathStyle: true }),
    // Without keys the SDK's default chain (environment, profile, instance role) applies, as in Lance.
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey, sessionToken } } : {}),
    // Checksums only where S3 requires them, as Lance sends: several S3-compatible stores refuse
    // the SDK's newer default checksum headers.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // A store that is down must fail a request within the store timeout, not after the SDK's
    // default attempts with no time limit.
    maxAttempts: storeRequestAttempts,
    requestHandler: { connectionTimeout: settings.connectTimeoutMs, requestTimeout: settings.requestTimeoutMs },
  });
  return { sdk, client };
}

/** The HTTP status and error code of a failed S3 call (the SDK's service exceptions carry both). */
function failureOf(error: unknown): { status: number | undefined; code: string | undefined } {
  const failure = error as { $metadata?: { httpStatusCode?: unknown }; name?: unknown } | undefined;
  const status = failure?.$metadata?.httpStatusCode;
  return { status: typeof status === "number" ? status : undefined, code: typeof failure?.name === "string" ? failure.name : undefined };
}

/** A missing object, as opposed to a missing bucket, which is a configuration error to report. */
function isMissingObject(error: unknown): boolean {
  const { status, code } = failureOf(error);
  return status === 404 && code !== "NoSuchBucket";
}


/** The key prefix of everything below `key` as a folder: `key/`, or the whole bucket for ``. */
function folderOf(key: string): string {
  return key === "" ? "" : `${key}/`;
}

export class S3Storage implements TableStorage {
  private readonly settings: S3Settings;
  private connection: Promise<Connection> | undefined;

  constructor(options: StorageOptions) {
    this.settings = s3SettingsOf(options);
  }

  async head(location: string): Promise<ObjectInfo | undefined> {
    const { sdk, client } = await this.connected();
    const found = await undefinedWhenMissing(client.send(new sdk.HeadObjectCommand(this.address(location))), isMissingObject);
    if (!found) return undefined;
    return { size: found.ContentLength ?? 0, eTag: found.ETag ?? "", modifiedMillis: found.LastModified?.getTime() ?? 0 };
  }

  async read(location: string): Promise<Buffer | undefined> {
    const { sdk, client } = await this.connected();
    const found = await undefinedWhenMissing(client.send(new sdk.GetObjectCommand(this.address(location))), isMissingObject);
    return found ? Buffer.from((await found.Body?.transformToByteArray()) ?? []) : undefined;
  }

  async readTail(location: string, length: number): Promise<Buffer | undefined> {
    // An explicit range from the size rather than a suffix range: S3 refuses any range on an
    // empty object, and some S3-compatible stores read `bytes=-n` as the first bytes.
    const info = await this.head(location);
    if (!info) return undefined;
    const count = Math.min(length, info.size);
    if (count <= 0) return Buffer.alloc(0);
    return this.readRange(location, info.size - count, count);
  }

  async readRange(location: string, offset: number, length: number): Promise<Buffer | undefined> {
    const { sdk, client } = await this.connected();
    const range = `bytes=${offset}-${offset + length - 1}`;
    const found = await undefinedWhenMissing(client.send(new sdk.GetObjectCommand({ ...this.address(location), Range: range })), isMissingObject);
    return found ? Buffer.from((await found.Body?.transformToByteArray()) ?? []) : undefined;
  }

  async list(prefix: string): Promise<ListedEntry[]> {
    const { sdk, client } = await this.connected();
    const { Bucket, Key } = this.address(prefix);
    const under = folderOf(Key);
    const entries: ListedEntry[] = [];
    for await (const page of sdk.paginateListObjectsV2({ client }, { Bucket, Prefix: under, Delimiter: "/" })) {
      for (const { Prefix } of page.CommonPrefixes ?? []) {
        const name = (Prefix ?? "").slice(under.length).replace(/\/$/, "");
        if (name !== "") entries.push({ name, kind: "prefix" });
      }
      for (const { Key: key, Size: size } of page.Contents ?? []) {
        // A zero-length `folder/` marker some tools write is the prefix itself, not an entry in it.
        const name = (key ?? "").slice(under.length);
        if (name !== "") entries.push({ name, kind: "object", ...sizeOf(size) });
      }
    }
    return entries;
  }

  async put(location: string, bytes: Uint8Array): Promise<void> {
    const { sdk, client } = await this.connected();
    await client.send(new sdk.PutObjectCommand({ ...this.address(location), Body: bytes }));
  }

  async putIfAbsent(location: string, bytes: Uint8Array): Promise<"created" | "exists"> {
    const { sdk, client } = await this.connected();
    try {
      await client.send(new sdk.PutObjectCommand({ ...this.address(location), Body: bytes, IfNoneMatch: "*" }));
      return "created";
    } catch (error) {
      // 412 PreconditionFailed when the object exists; 409 ConditionalRequestConflict when a racing
      // create of the same key is still in flight (it may yet fail, but this one has lost either way).
      const { status } = failureOf(error);
      if (status === 412 || status === 409) return "exists";
      throw error;
    }
  }

  async delete(location: string): Promise<void> {
    const { sdk, client } = await this.connected();
    // S3 answers a delete of a missing key with success.
    await client.send(new sdk.DeleteObjectCommand(this.address(location)));
  }

  async deletePrefix(prefix: string, scope: string): Promise<void> {
    assertDeletableInside(scope, prefix);
    const { sdk, client } = await this.connected();
    const { Bucket, Key } = this.address(prefix);
    // A listing page holds at most 1,000 keys, which is also the most one DeleteObjects takes.
    for await (const page of sdk.paginateListObjectsV2({ client }, { Bucket, Prefix: folderOf(Key) })) {
      const objects = (page.Contents ?? []).flatMap(({ Key: key }) => (key === undefined ? [] : [{ Key: key }]));
      if (objects.length === 0) continue;
      const result = await client.send(new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects: objects, Quiet: true } }));
      const failed = result.Errors ?? [];
      if (failed.length > 0) {
        throw new Error(`could not delete ${failed.length} objects under '${prefix}', e.g. '${failed[0]?.Key}': ${failed[0]?.Code} ${failed[0]?.Message}`);
      }
    }
  }

  async newestChange(prefix: string): Promise<number | undefined> {
    const { sdk, client } = await this.connected();
    const { Bucket, Key } = this.address(prefix);
    let newest: number | undefined;
    for await (const page of sdk.paginateListObjectsV2({ client }, { Bucket, Prefix: folderOf(Key) })) {
      for (const { LastModified } of page.Contents ?? []) {
        const modified = LastModified?.getTime();
        if (modified !== undefined && (newest === undefined || modified > newest)) newest = modified;
      }
    }
    return newest;
  }

  async preparePrefix(): Promise<void> {
    // Prefixes need no creating in S3, and buckets are the operator's to provision: creating one
    // here would pick its region, ownership and policies behind their back.
  }

  async canonical(location: string): Promise<string> {
    // Keys have no links: a location is its own canonical form.
    return location.replace(/\/+$/, "");
  }

  private connected(): Promise<Connection> {
    this.connection ??= connect(this.settings);
    return this.connection;
  }

  /** The SDK's Bucket and Key for `location`; Bucket is the endpoint itself when that names the bucket. */
  private address(location: string): { Bucket: string; Key: string } {
    const { bucket, key } = parseS3Location(location);
    const { endpoint, virtualHostedStyle } = this.settings;
    return { Bucket: endpoint !== undefined && virtualHostedStyle ? endpoint : bucket, Key: key };
  }
}
