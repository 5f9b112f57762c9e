/**
 * @module The read-through proxy's Azure Blob dialect. The engine is pointed at the proxy with
 * the same path as the account's endpoint (`/devstoreaccount1` on Azurite, none on Azure), so its
 * requests reach the store unchanged: a SharedKey signature covers the path, the query and most
 * headers, but not the host. The proxy's own block reads carry a different `Range`, so it signs
 * them with the root's account key (or adds the root's SAS token). A cached block answers only a
 * request the proxy can check carries the root's credential: a SharedKey signature it computes
 * again, or the root's SAS signature.
 */
import { type KeyObject, createHmac, createSecretKey, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { StorageOptions } from "../storage-options.js";
import { type RoutedRequest, type StoreDialect, listedPrefixOf, objectPathOf, plainHeaders } from "./store-dialect.js";

/** The keys Lance reads for the endpoint and the emulator switch; the proxy's endpoint replaces them. */
const endpointKeys = ["azure_endpoint", "azure_storage_endpoint", "endpoint", "azure_storage_use_emulator", "use_emulator", "azure_use_emulator"];

/** The x-ms-version the proxy's own reads use when the engine's request named none. */
const defaultVersion = "2021-08-06";

/**
 * The SharedKey signature of a Blob request (the string to sign of the Blob service's version
 * 2015-02-21 and later: verb, standard headers, `x-ms-*` headers, then account, path and query).
 */
export function sharedKeySignature(account: string, key: string | KeyObject, method: string, url: URL, headers: Record<string, string | undefined>): string {
  const header = (name: string) => headers[name] ?? "";
  const contentLength = header("content-length") === "0" ? "" : header("content-length");
  const standard = [method.toUpperCase(), header("content-encoding"), header("content-language"), contentLength, header("content-md5"), header("content-type"), header("date"), header("if-modified-since"), header("if-match"), header("if-none-match"), header("if-unmodified-since"), header("range")];
  const msHeaders = Object.keys(headers)
    .filter((name) => name.startsWith("x-ms-") && headers[name] !== undefined)
    .sort()
    .map((name) => `${name}:${(headers[name] as string).trim()}\n`)
    .join("");
  const query = new Map<string, string[]>();
  for (const [name, value] of url.searchParams) query.set(name.toLowerCase(), [...(query.get(name.toLowerCase()) ?? []), value]);
  const resource = `/${account}${url.pathname}${[...query.keys()]
    .sort()
    .map((name) => `\n${name}:${(query.get(name) as string[]).sort().join(",")}`)
    .join("")}`;
  const text = `${standard.join("\n")}\n${msHeaders}${resource}`;
  return createHmac("sha256", typeof key === "string" ? Buffer.from(key, "base64") : key).update(text, "utf8").digest("base64");
}

/** Node's request headers (names already lower-cased) with repeated ones joined. */
function flattened(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = {};
  for (const name in headers) {
    const value = headers[name];
    result[name] = Array.isArray(value) ? value.join(",") : value;
  }
  return result;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export class AzureDialect implements StoreDialect {
  readonly store: string;
  readonly signsWithRootCredential = false;
  private readonly upstream: URL;
  private readonly account: string;
  /** The account key, decoded once: every cached read checks a signature made with it. */
  private readonly key: KeyObject | undefined;
  private readonly sas: URLSearchParams | undefined;

  constructor(private readonly options: StorageOptions) {
    this.account = options.azure_storage_account_name ?? "";
    this.key = options.azure_storage_account_key ? createSecretKey(Buffer.from(options.azure_storage_account_key, "base64")) : undefined;
    const sas = options.azure_storage_sas_token;
    this.sas = sas ? new URLSearchParams(sas.replace(/^\?/, "")) : undefined;
    const endpoint = options.azure_endpoint ?? `https://${this.account}.blob.core.windows.net`;
    this.upstream = new URL(endpoint.replace(/\/+$/, ""));
    this.store = `az:${this.upstream.origin}${this.upstream.pathname.replace(/\/+$/, "")}`;
  }

  /** Whether this root can be served through the proxy: its credential is one the proxy can check and sign with. */
  static canServe(options: StorageOptions): boolean {
    return Boolean(options.azure_storage_account_name && (options.azure_storage_account_key || options.azure_storage_sas_token));
  }

  private get prefix(): string {
    return this.upstream.pathname.replace(/\/+$/, "");
  }

  engineOptions(origin: string): StorageOptions {
    const kept = Object.fromEntries(Object.entries(this.options).filter(([key]) => !endpointKeys.includes(key.toLowerCase())));
    return { ...kept, azure_endpoint: `${origin}${this.prefix}`, allow_http: "true" };
  }

  route(rawUrl: string): RoutedRequest | undefined {
    const incoming = new URL(rawUrl, "http://proxy");
    if (this.prefix && !incoming.pathname.startsWith(`${this.prefix}/`)) return undefined;
    const url = new URL(`${this.upstream.origin}${incoming.pathname}${incoming.search}`);
    const objectPath = objectPathOf(incoming.pathname.slice(this.prefix.length));
    const listing = incoming.searchParams.get("comp") === "list" || objectPath === undefined;
    const listedPrefix = listing ? listedPrefixOf(incoming.pathname.slice(this.prefix.length), incoming.searchParams) : undefined;
    return { url, objectPath, listing, listedPrefix };
  }

  mayServeFromCache(method: string, rawUrl: string, headers: IncomingHttpHeaders): boolean {
    const url = new URL(rawUrl, "http://proxy");
    const authorization = headers.authorization;
    if (authorization && this.key) {
      const expected = `SharedKey ${this.account}:${sharedKeySignature(this.account, this.key, method, url, flattened(headers))}`;
      return sameText(authorization, expected);
    }
    const signature = url.searchParams.get("sig");
    const own = this.sas?.get("sig");
    return signature !== null && own !== undefined && own !== null && sameText(signature, own);
  }

  async forwardHeaders(_method: string, url: URL, headers: IncomingHttpHeaders): Promise<Record<string, string>> {
    return { ...plainHeaders(headers), host: url.host };
  }

  fetchUrl(url: URL): URL {
    const own = new URL(url.origin + url.pathname);
    if (!this.key && this.sas) for (const [name, value] of this.sas) own.searchParams.append(name, value);
    return own;
  }

  async fetchHeaders(url: URL, range: string, original: IncomingHttpHeaders): Promise<Record<string, string>> {
    const headers: Record<string, string> = {
      host: url.host,
      range,
      "x-ms-date": new Date().toUTCString(),
      "x-ms-version": (original["x-ms-version"] as string | undefined) ?? defaultVersion,
    };
    if (this.key) headers.authorization = `SharedKey ${this.account}:${sharedKeySignature(this.account, this.key, "GET", url, headers)}`;
    return headers;
  }
}
