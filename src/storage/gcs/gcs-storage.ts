/**
 * @module `TableStorage` on Google Cloud Storage, for locations `gs://<bucket>/<path>`. It reads
 * the storage options Lance does: a service account as a file (`google_service_account`) or as
 * JSON (`google_service_account_key`), or a bearer token (`google_storage_token`), and
 * `google_base_url` for another endpoint (an emulator, a private endpoint), which is the key
 * Lance's object store reads for it; a plain-HTTP endpoint also needs `allow_http`. Conditional
 * creates use `ifGenerationMatch=0`, which the service enforces. The SDK is loaded on first use,
 * as the Azure one is.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Bucket, File, FileMetadata, Storage } from "@google-cloud/storage";
import type { StorageOptions } from "../storage-options.js";
import { type ListedEntry, type ObjectInfo, type TableStorage, sizeOf } from "../table-storage.js";
import { assertDeletableInside, splitBucketLocation } from "../locations.js";
import { undefinedWhenMissing } from "../missing-objects.js";
import { attemptTimeoutOf, requestTimeoutOf, storeRequestAttempts } from "../store-timeout.js";

export const defaultGcsEndpoint = "https://storage.googleapis.com";

/** The option keys naming a service-account file, Lance's and its aliases. */
const serviceAccountPathKeys = ["google_service_account", "google_service_account_path", "service_account", "service_account_path"];
/** The option keys holding a service account's JSON key. */
const serviceAccountKeyKeys = ["google_service_account_key", "service_account_key"];

/** A service account, as a key file or as the key's JSON itself. */
export type ServiceAccount = { keyFile: string } | { keyJson: string };

/** What the storage authenticates with: a bearer token wins over a service account, as in Lance. */
export type GcsCredential = { token: string } | ServiceAccount;

/** Custom metadata naming the write that created an object; see `putIfAbsent`. */
const writeIdKey = "quiver-write-id";

/** How many objects `deletePrefix` deletes at once: a table holds thousands, one request each. */
const deleteConcurrency = 16;

interface ObjectAddress {
  bucket: string;
  /** The object name, or a prefix of names, without a leading or trailing `/`. */
  name: string;
}

/** Splits `gs://bucket/a/b` into its bucket and object name. */
export function parseGcsLocation(location: string): ObjectAddress {
  return splitBucketLocation(location, "gs");
}

/** Lance's reading of a boolean option (`allow_http`). */
export function isTruthy(value: string | undefined): boolean {
  return ["1", "true", "on", "yes", "y"].includes((value ?? "").trim().toLowerCase());
}

function firstOf(options: StorageOptions, keys: string[]): string | undefined {
  return keys.map((key) => options[key]).find((value) => value !== undefined && value !== "");
}

/** The configured service account, or undefined when there is none; both a file and a key is refused. */
export function serviceAccountOf(options: StorageOptions): ServiceAccount | undefined {
  const keyFile = firstOf(options, serviceAccountPathKeys);
  const keyJson = firstOf(options, serviceAccountKeyKeys);
  if (keyFile && keyJson) throw new Error("gs:// locations take google_service_account or google_service_account_key, not both");
  if (keyFile) return { keyFile };
  return keyJson ? { keyJson } : undefined;
}

/** The credential the options configure; throws when they configure none. */
export function gcsCredentialOf(options: StorageOptions): GcsCredential {
  const token = options.google_storage_token;
  if (token) return { token };
  const account = serviceAccountOf(options);
  if (account) return account;
  throw new Error("gs:// locations need google_service_account, google_service_account_key or google_storage_token");
}

/**
 * `url` without trailing slashes, refused when it is plain HTTP and `allow_http` is not set: a
 * bearer token must not cross the network in the clear by a slip of configuration.
 */
export function checkedEndpoint(url: string, options: StorageOptions, what: string): string {
  const endpoint = url.replace(/\/+$/, "");
  if (!/^https?:\/\//i.test(endpoint)) throw new Error(`${what} '${endpoint}' is not an http(s) URL`);
  if (/^http:/i.test(endpoint) && !isTruthy(options.allow_http)) throw new Error(`${what} '${endpoint}' is plain HTTP; set allow_http to use it`);
  return endpoint;
}

export function gcsEndpointOf(options: StorageOptions): string {
  return checkedEndpoint(options.google_base_url ?? defaultGcsEndpoint, options, "google_base_url");
}

async function storageClientOf(options: StorageOptions): Promise<Storage> {
  const sdk = await import("@google-cloud/storage");
  const common = {
    apiEndpoint: gcsEndpointOf(options),
    // The SDK sends no credentials to an endpoint other than Google's unless asked to.
    useAuthWithCustomEndpoint: true,
    // Every call here may be repeated safely (a conditional create tells its own write apart), so
    // retries need not wait for the SDK's judgement of each method.
    // A store that is down must fail a request within the store timeout, not after the SDK's
    // default of three retries over up to ten minutes.
    retryOptions: {
      idempotencyStrategy: sdk.IdempotencyStrategy.RetryAlways,
      maxRetries: storeRequestAttempts - 1,
      maxRetryDelay: 1,
      totalTimeout: Math.ceil(requestTimeoutOf(options) / 1000),
    },
    timeout: attemptTimeoutOf(options),
  };
  const credential = gcsCredentialOf(options);
  if ("token" in credential) {
    const auth = await import("google-auth-library");
    const client = new auth.OAuth2Client();
    client.setCredentials({ access_token: credential.token });
    return new sdk.Storage({ ...common, authClient: client });
  }
  if ("keyFile" in credential) return new sdk.Storage({ ...common, keyFilename: credential.keyFile });
  return new sdk.Storage({ ...common, credentials: parseServiceAccountKey(credential.keyJson) });
}

/** The key's JSON; a parse error is replaced, because its message would quote the secret. */
export function parseServiceAccountKey(keyJson: string): Record<string, string> {
  try {
    return JSON.parse(keyJson) as Record<string, string>;
  } catch {
    throw new Error("google_service_account_key is not valid JSON");
  }
}

/** The HTTP status of a failed call (the SDK's ApiError carries it as `code`). */
function statusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "number" ? code : undefined;
}

/** A 404: the object (or its container) is not there. */
function isMissing(error: unknown): boolean {
  return statusOf(error) === 404;
}

/**
 * The ETag Lance's object store reports: it reads objects through the XML API, whose ETag is the
 * quoted hex MD5 of the content. Composite objects have no MD5; their JSON ETag stands in.
 */
function lanceETagOf(metadata: FileMetadata): string {
  if (metadata.md5Hash) return `"${Buffer.from(metadata.md5Hash, "base64").toString("hex")}"`;
  return metadata.etag ?? "";
}

function millisOf(time: string | undefined): number {
  return time ? Date.parse(time) : 0;
}

export class GcsStorage implements TableStorage {
  private client: Promise<Storage> | undefined;

  /** Refuses options that cannot reach a store now, rather than on first use. */
  constructor(private readonly options: StorageOptions) {
    const credential = gcsCredentialOf(options);
    if ("keyJson" in credential) parseServiceAccountKey(credential.keyJson);
    gcsEndpointOf(options);
  }

  async head(location: string): Promise<ObjectInfo | undefined> {
    const found = await undefinedWhenMissing((await this.file(location)).getMetadata(), isMissing);
    if (!found) return undefined;
    const [metadata] = found;
    return { size: Number(metadata.size ?? 0), eTag: lanceETagOf(metadata), modifiedMillis: millisOf(metadata.updated) };
  }

  async read(location: string): Promise<Buffer | undefined> {
    const found = await undefinedWhenMissing((await this.file(location)).download(), isMissing);
    return found?.[0];
  }

  async readTail(location: string, length: number): Promise<Buffer | undefined> {
    if (length <= 0) return (await this.head(location)) ? Buffer.alloc(0) : undefined;
    try {
      // A suffix range (`bytes=-N`): one request, and the whole object when it is shorter.
      const [bytes] = await (await this.file(location)).download({ end: -length });
      return bytes;
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      // An empty object has no suffix to give.
      if (statusOf(error) === 416) return Buffer.alloc(0);
      throw error;
    }
  }

  async readRange(location: string, offset: number, length: number): Promise<Buffer | undefined> {
    const found = await undefinedWhenMissing((await this.file(location)).download({ start: offset, end: offset + length - 1 }), isMissing);
    return found?.[0];
  }

  async list(prefix: string): Promise<ListedEntry[]> {
    const { bucket, name } = parseGcsLocation(prefix);
    const under = name === "" ? "" : `${name}/`;
    const entries: ListedEntry[] = [];
    const add = (full: string, kind: ListedEntry["kind"], size?: string | number) => {
      const relative = full.slice(under.length).replace(/\/$/, "");
      if (relative !== "") entries.push({ name: relative, kind, ...sizeOf(size === undefined ? undefined : Number(size)) });
    };
    // Page by page: with automatic paging the SDK keeps the objects but drops the prefixes.
    let pageToken: string | undefined;
    try {
      do {
        const [files, , response] = await (await this.bucket(bucket)).getFiles({ prefix: under, delimiter: "/", autoPaginate: false, pageToken });
        for (const file of files) add(file.name, "object", file.metadata.size);
        const page = (response ?? {}) as { prefixes?: string[]; nextPageToken?: string };
        for (const sub of page.prefixes ?? []) add(sub, "prefix");
        pageToken = page.nextPageToken;
      } while (pageToken);
    } catch (error) {
      if (statusOf(error) === 404) return [];
      throw error;
    }
    return entries;
  }

  async put(location: string, bytes: Uint8Array): Promise<void> {
    await (await this.file(location)).save(bytes, this.uploadOptions(bytes));
  }

  async putIfAbsent(location: string, bytes: Uint8Array): Promise<"created" | "exists"> {
    const file = await this.file(location);
    const writeId = randomUUID();
    try {
      await file.save(bytes, { ...this.uploadOptions(bytes, writeId), preconditionOpts: { ifGenerationMatch: 0 } });
      return "created";
    } catch (error) {
      if (statusOf(error) !== 412) throw error;
    }
    // A retried upload whose first try was stored but not answered also meets 412; the object's
    // write id tells that apart from another writer's object.
    const found = await undefinedWhenMissing(file.getMetadata(), isMissing);
    return found?.[0].metadata?.[writeIdKey] === writeId ? "created" : "exists";
  }

  async delete(location: string): Promise<void> {
    await (await this.file(location)).delete({ ignoreNotFound: true });
  }

  async deletePrefix(prefix: string, scope: string): Promise<void> {
    assertDeletableInside(scope, prefix);
    const files = await this.filesUnder(prefix);
    for (let start = 0; start < files.length; start += deleteConcurrency) {
      await Promise.all(files.slice(start, start + deleteConcurrency).map((file) => file.delete({ ignoreNotFound: true })));
    }
  }

  async newestChange(prefix: string): Promise<number | undefined> {
    const files = await this.filesUnder(prefix);
    return files.length === 0 ? undefined : Math.max(...files.map((file) => millisOf(file.metadata.updated)));
  }

  async preparePrefix(_prefix: string): Promise<void> {
    // Object names need no folders, and creating a bucket is the operator's business.
  }

  async canonical(location: string): Promise<string> {
    // Object names have no links: a location is its own canonical form.
    return location.replace(/\/+$/, "");
  }

  /**
   * A simple (single-request) upload: the object appears whole or not at all. The MD5 makes the
   * service check the bytes before storing them, so the SDK's check after the fact is not needed.
   */
  private uploadOptions(bytes: Uint8Array, writeId?: string) {
    const md5Hash = createHash("md5").update(bytes).digest("base64");
    return {
      resumable: false,
      validation: false as const,
      contentType: "application/octet-stream",
      metadata: writeId === undefined ? { md5Hash } : { md5Hash, metadata: { [writeIdKey]: writeId } },
    };
  }

  private async bucket(name: string): Promise<Bucket> {
    this.client ??= storageClientOf(this.options);
    return (await this.client).bucket(name);
  }

  private async file(location: string): Promise<File> {
    const { bucket, name } = parseGcsLocation(location);
    return (await this.bucket(bucket)).file(name);
  }

  /** Every object at or below `prefix` (as a folder), with its metadata. */
  private async filesUnder(prefix: string): Promise<File[]> {
    const { bucket, name } = parseGcsLocation(prefix);
    try {
      const [files] = await (await this.bucket(bucket)).getFiles({ prefix: name === "" ? "" : `${name}/`, autoPaginate: true });
      return files;
    } catch (error) {
      if (statusOf(error) === 404) return [];
      throw error;
    }
  }
}
