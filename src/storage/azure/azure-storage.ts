/**
 * @module `TableStorage` on Azure Blob Storage, for locations `az://<container>/<path>`. It reads
 * the same storage options Lance does (`azure_storage_account_name`, `azure_storage_account_key`,
 * `azure_storage_sas_token`, `azure_endpoint`), so one map configures Quiver and every Lance
 * client alike. Conditional creates use `If-None-Match: *`, which Blob Storage enforces. The SDK
 * is loaded on first use: it costs a third of a second at start-up, which a server on local
 * folders should not pay.
 */
import type { BlobServiceClient, ContainerClient } from "@azure/storage-blob";
import { type ListedEntry, type ObjectInfo, type TableStorage, sizeOf } from "../table-storage.js";
import { assertDeletableInside, splitBucketLocation } from "../locations.js";
import { undefinedWhenMissing } from "../missing-objects.js";
import { attemptTimeoutOf, requestTimeoutOf, storeRequestAttempts } from "../store-timeout.js";

export type AzureStorageOptions = Record<string, string>;

interface BlobAddress {
  container: string;
  /** The blob name, or a prefix of blob names, without a leading or trailing `/`. */
  name: string;
}

/** Splits `az://container/a/b` into its container and blob name. */
export function parseAzureLocation(location: string): BlobAddress {
  const { bucket, name } = splitBucketLocation(location, "az");
  return { container: bucket, name };
}

/** Refuses options that cannot reach an account, when the storage is configured rather than on first use. */
function checkOptions(options: AzureStorageOptions): void {
  if (!options.azure_storage_account_name) throw new Error("azure_storage_account_name is required for az:// locations");
  if (!options.azure_storage_account_key && !options.azure_storage_sas_token) {
    throw new Error("az:// locations need azure_storage_account_key or azure_storage_sas_token");
  }
}

/** The Blob endpoint of the configured account: `azure_endpoint`, or the account's public one. */
export function endpointOf(options: AzureStorageOptions): string {
  return (options.azure_endpoint ?? `https://${options.azure_storage_account_name}.blob.core.windows.net`).replace(/\/+$/, "");
}

async function serviceClientOf(options: AzureStorageOptions): Promise<BlobServiceClient> {
  const account = options.azure_storage_account_name as string;
  const endpoint = endpointOf(options);
  const sdk = await import("@azure/storage-blob");
  // The SDK's default policy retries a refused connection for about 16 s; a store that is down
  // must fail a request within the store timeout. (Its per-try timeout only asks the service to
  // give up; a store that answers nothing is cut off by each call's abort signal, see `within`.)
  const pipeline = {
    retryOptions: { maxTries: storeRequestAttempts, tryTimeoutInMs: attemptTimeoutOf(options), retryDelayInMs: 200, maxRetryDelayInMs: 1000 },
  };
  const key = options.azure_storage_account_key;
  if (key) return new sdk.BlobServiceClient(endpoint, new sdk.StorageSharedKeyCredential(account, key), pipeline);
  const sas = (options.azure_storage_sas_token as string).replace(/^\?/, "");
  return new sdk.BlobServiceClient(`${endpoint}?${sas}`, new sdk.AnonymousCredential(), pipeline);
}

/** The HTTP status of a failed Blob Storage call (the SDK's RestError carries it). */
function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof status === "number" ? status : undefined;
}

/** A 404: the object (or its container) is not there. */
function isMissing(error: unknown): boolean {
  return statusOf(error) === 404;
}

/** A walk of every blob under a prefix (a drop, a sweep) may take this many calls' time. */
const wholePrefixCalls = 10;

export class AzureStorage implements TableStorage {
  private service: Promise<BlobServiceClient> | undefined;

  /** How long one call may take, all its tries together; a walk of a whole prefix gets several times this. */
  private readonly callTimeoutMs: number;

  constructor(private readonly options: AzureStorageOptions) {
    checkOptions(options);
    this.callTimeoutMs = requestTimeoutOf(options);
  }

  /** Options cutting a call off once its time is up: the SDK waits for an answer without end. */
  private within(calls = 1): { abortSignal: AbortSignal } {
    return { abortSignal: AbortSignal.timeout(this.callTimeoutMs * calls) };
  }

  async head(location: string): Promise<ObjectInfo | undefined> {
    const properties = await undefinedWhenMissing((await this.blob(location)).getProperties(this.within()), isMissing);
    if (!properties) return undefined;
    return { size: properties.contentLength ?? 0, eTag: properties.etag ?? "", modifiedMillis: properties.lastModified?.getTime() ?? 0 };
  }

  async read(location: string): Promise<Buffer | undefined> {
    return undefinedWhenMissing((await this.blob(location)).downloadToBuffer(0, undefined, this.within()), isMissing);
  }

  async readTail(location: string, length: number): Promise<Buffer | undefined> {
    const info = await this.head(location);
    if (!info) return undefined;
    const count = Math.min(length, info.size);
    if (count === 0) return Buffer.alloc(0);
    return undefinedWhenMissing((await this.blob(location)).downloadToBuffer(info.size - count, count, this.within()), isMissing);
  }

  async readRange(location: string, offset: number, length: number): Promise<Buffer | undefined> {
    // `download`, not `downloadToBuffer`: the latter fails a range that runs past the object's end.
    const answer = await undefinedWhenMissing((await this.blob(location)).download(offset, length, this.within()), isMissing);
    if (!answer?.readableStreamBody) return answer && Buffer.alloc(0);
    const chunks: Buffer[] = [];
    for await (const chunk of answer.readableStreamBody) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }

  async list(prefix: string): Promise<ListedEntry[]> {
    const { container, name } = parseAzureLocation(prefix);
    const under = name === "" ? "" : `${name}/`;
    const entries: ListedEntry[] = [];
    try {
      for await (const item of (await this.container(container)).listBlobsByHierarchy("/", { prefix: under, ...this.within() })) {
        const relative = item.name.slice(under.length).replace(/\/$/, "");
        if (relative === "") continue;
        entries.push(item.kind === "prefix" ? { name: relative, kind: "prefix" } : { name: relative, kind: "object", ...sizeOf(item.properties.contentLength) });
      }
    } catch (error) {
      if (statusOf(error) === 404) return [];
      throw error;
    }
    return entries;
  }

  async put(location: string, bytes: Uint8Array): Promise<void> {
    await (await this.blob(location)).uploadData(bytes, this.within());
  }

  async putIfAbsent(location: string, bytes: Uint8Array): Promise<"created" | "exists"> {
    try {
      await (await this.blob(location)).uploadData(bytes, { conditions: { ifNoneMatch: "*" }, ...this.within() });
      return "created";
    } catch (error) {
      // 409 BlobAlreadyExists, or 412 when the condition is evaluated against a blob written meanwhile.
      if (statusOf(error) === 409 || statusOf(error) === 412) return "exists";
      throw error;
    }
  }

  async delete(location: string): Promise<void> {
    await (await this.blob(location)).deleteIfExists(this.within());
  }

  async deletePrefix(prefix: string, scope: string): Promise<void> {
    assertDeletableInside(scope, prefix);
    const container = await this.container(parseAzureLocation(prefix).container);
    for (const blob of await this.blobsUnder(prefix)) await container.getBlockBlobClient(blob.name).deleteIfExists(this.within());
  }

  async newestChange(prefix: string): Promise<number | undefined> {
    const blobs = await this.blobsUnder(prefix);
    return blobs.length === 0 ? undefined : Math.max(...blobs.map((blob) => blob.modifiedMillis));
  }

  async preparePrefix(prefix: string): Promise<void> {
    await (await this.container(parseAzureLocation(prefix).container)).createIfNotExists(this.within());
  }

  async canonical(location: string): Promise<string> {
    // Blob names have no links: a location is its own canonical form.
    return location.replace(/\/+$/, "");
  }

  private async container(name: string): Promise<ContainerClient> {
    this.service ??= serviceClientOf(this.options);
    return (await this.service).getContainerClient(name);
  }

  private async blob(location: string) {
    const { container, name } = parseAzureLocation(location);
    return (await this.container(container)).getBlockBlobClient(name);
  }

  /** Every blob at or below `prefix` (as a folder), with its modification time. */
  private async blobsUnder(prefix: string): Promise<{ name: string; modifiedMillis: number }[]> {
    const { container, name } = parseAzureLocation(prefix);
    const blobs: { name: string; modifiedMillis: number }[] = [];
    try {
      for await (const blob of (await this.container(container)).listBlobsFlat({ prefix: name === "" ? "" : `${name}/`, ...this.within(wholePrefixCalls) })) {
        blobs.push({ name: blob.name, modifiedMillis: blob.properties.lastModified.getTime() });
      }
    } catch (error) {
      if (statusOf(error) === 404) return [];
      throw error;
    }
    return blobs;
  }
}
