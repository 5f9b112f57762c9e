/**
 * @module How the read-through proxy speaks to one kind of object store: where a request the
 * engine sent goes, which object it names, whether it may be answered from the cache, and how
 * the proxy authenticates what it sends on (the engine's request, or a block fetch of its own).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { StorageOptions } from "../storage-options.js";

/** A request of the engine, mapped onto the store. */
export interface RoutedRequest {
  /** The store's URL for it (path and query). */
  url: URL;
  /** `container-or-bucket/name` of the object it names, or undefined for a container or bucket (a listing). */
  objectPath: string | undefined;
  /** Whether it lists objects. */
  listing: boolean;
  /** For a listing, `container-or-bucket/prefix` of what it lists, when it names one. */
  listedPrefix?: string | undefined;
}

export interface StoreDialect {
  /** The store the cache keys its blocks under: its endpoint. */
  readonly store: string;
  /**
   * Whether the proxy signs what it forwards with the root's own credential (S3) rather than
   * passing on the engine's (Azure SharedKey or SAS, a GCS bearer): then whoever reaches the
   * proxy acts with the root's credential, so it forwards only requests under the root.
   */
  readonly signsWithRootCredential: boolean;
  /** The engine's storage options with the endpoint pointed at the proxy at `origin`. */
  engineOptions(origin: string): StorageOptions;
  /** Where the engine's request for `rawUrl` (path and query) goes, or undefined when it is not one the proxy serves. */
  route(rawUrl: string): RoutedRequest | undefined;
  /** Whether the engine's request carries this root's credential, so cached bytes may answer it. */
  mayServeFromCache(method: string, rawUrl: string, headers: IncomingHttpHeaders): boolean;
  /** The headers to send the engine's request to the store with (host set, re-signed where the signature covers what changed). */
  forwardHeaders(method: string, url: URL, headers: IncomingHttpHeaders): Promise<Record<string, string>>;
  /** The headers for a ranged read of the proxy's own, authenticated like the engine's request `original`. */
  fetchHeaders(url: URL, range: string, original: IncomingHttpHeaders): Promise<Record<string, string>>;
  /** The URL of the proxy's own read of the object `url` names (a SAS token added, for instance). */
  fetchUrl(url: URL): URL;
}

/** Headers that belong to one connection and are never forwarded. */
const hopByHop = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer", "host"]);

/** The request's headers as a flat map, without hop-by-hop headers and without `drop`. */
export function plainHeaders(headers: IncomingHttpHeaders, drop: readonly string[] = []): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopByHop.has(name) || drop.includes(name)) continue;
    result[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  if (headers["transfer-encoding"] !== undefined && headers["content-length"] === undefined) result["transfer-encoding"] = "chunked";
  return result;
}

/** Splits a path such as `/bucket/a/b` into `bucket/a/b` (decoded), or undefined for the bucket alone. */
export function objectPathOf(pathname: string): string | undefined {
  const decoded = decodeURIComponent(pathname).replace(/^\/+/, "");
  const slash = decoded.indexOf("/");
  if (slash < 0 || slash === decoded.length - 1) return undefined;
  return decoded;
}

/** `container-or-bucket/prefix` of a listing of `bucket` (a path such as `/bucket`) with the query's `prefix`. */
export function listedPrefixOf(bucketPath: string, query: URLSearchParams): string | undefined {
  const bucket = decodeURIComponent(bucketPath).replace(/^\/+|\/+$/g, "");
  if (!bucket || bucket.includes("/")) return undefined;
  return `${bucket}/${query.get("prefix") ?? ""}`;
}
