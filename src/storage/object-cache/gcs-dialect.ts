/**
 * @module The read-through proxy's Cloud Storage dialect. A bearer token does not cover the host
 * or the path, so the engine's requests go on unchanged but for the host, and the proxy's own
 * block reads carry the bearer of the engine's request they serve. The engine reaches the proxy
 * under a random path segment only this runtime knows; object reads use the XML API's
 * `/<bucket>/<name>` paths, which the proxy recognizes for caching.
 */
import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { StorageOptions } from "../storage-options.js";
import { type RoutedRequest, type StoreDialect, listedPrefixOf, objectPathOf, plainHeaders } from "./store-dialect.js";

const defaultEndpoint = "https://storage.googleapis.com";

export class GcsDialect implements StoreDialect {
  readonly store: string;
  readonly signsWithRootCredential = false;
  private readonly token = randomBytes(16).toString("hex");
  private readonly upstream: string;

  constructor(private readonly options: StorageOptions) {
    this.upstream = (options.google_base_url ?? defaultEndpoint).replace(/\/+$/, "");
    this.store = `gs:${this.upstream}`;
  }

  engineOptions(origin: string): StorageOptions {
    return { ...this.options, google_base_url: `${origin}/${this.token}`, allow_http: "true" };
  }

  route(rawUrl: string): RoutedRequest | undefined {
    const incoming = new URL(rawUrl, "http://proxy");
    const prefix = `/${this.token}`;
    if (!incoming.pathname.startsWith(`${prefix}/`)) return undefined;
    const pathname = incoming.pathname.slice(prefix.length);
    const url = new URL(`${this.upstream}${pathname}${incoming.search}`);
    // The JSON API's paths (listings, uploads, metadata) are never object reads the cache keeps.
    const api = /^\/(storage|upload|download|batch)\//.test(pathname);
    const objectPath = api ? undefined : objectPathOf(pathname);
    const listing = incoming.searchParams.has("list-type") || (api && /\/o\/?$/.test(pathname)) || (!api && objectPath === undefined);
    const bucketPath = api ? /^\/storage\/v1\/b\/([^/]+)\/o\/?$/.exec(pathname)?.[1] : pathname;
    const listedPrefix = listing && bucketPath !== undefined ? listedPrefixOf(bucketPath, incoming.searchParams) : undefined;
    return { url, objectPath, listing, listedPrefix };
  }

  /** The secret path segment proves the request comes from this runtime's engine. */
  mayServeFromCache(): boolean {
    return true;
  }

  async forwardHeaders(_method: string, url: URL, headers: IncomingHttpHeaders): Promise<Record<string, string>> {
    return { ...plainHeaders(headers), host: url.host };
  }

  fetchUrl(url: URL): URL {
    return new URL(url.origin + url.pathname);
  }

  async fetchHeaders(url: URL, range: string, original: IncomingHttpHeaders): Promise<Record<string, string>> {
    const authorization = original.authorization;
    return { host: url.host, range, ...(typeof authorization === "string" ? { authorization } : {}) };
  }
}
