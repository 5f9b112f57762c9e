/**
 * @module The `rest` implementation: each call goes over the Lance Namespace REST routes.
 * Connection `headers.*` properties, the request's `identity` and its `context` entries
 * (`x-svc-ctx-<key>`) become headers; the delimiter travels as `?delimiter=` on every call, as
 * the reference client sends it.
 */
import type { Capabilities } from "../model/capabilities.js";
import { fromIpc } from "./arrow-io.js";
import { NamespaceError } from "./namespace-error.js";
import type { OperationEntry } from "../model/operations/operation-entry.js";
import type { PreparedCall, Transport } from "./transport.js";

export interface RestTransportOptions {
  /** Base address, e.g. `http://localhost:2333`; routes are appended after any path it has. */
  uri: string;
  delimiter: string;
  /** Headers sent with every call (the connection's `headers.*` properties, prefix removed). */
  headers: Record<string, string>;
}

const contextHeaderPrefix = "x-svc-ctx-";
/** How much of an unparsable error body is quoted in the message. */
const quotedBodyLimit = 500;

export class RestTransport implements Transport {
  readonly implName = "rest" as const;
  readonly delimiter: string;
  private readonly base: string;
  private readonly headers: Record<string, string>;

  constructor(options: RestTransportOptions) {
    this.base = options.uri.replace(/\/+$/, "");
    this.delimiter = options.delimiter;
    this.headers = options.headers;
  }

  async invoke({ entry, request, context, data }: PreparedCall): Promise<unknown> {
    const url = this.urlOf(entry, request);
    const headers = this.headersOf(request, context);
    let body: Uint8Array | string | undefined;
    if (entry.body === "json") {
      body = JSON.stringify(jsonBodyOf(entry, request));
      headers.set("content-type", "application/json");
    } else if (entry.body === "arrow") {
      body = data ?? new Uint8Array();
      headers.set("content-type", "application/vnd.apache.arrow.stream");
    }

    const response = await this.send(url, { method: entry.methods[0], headers, body });
    if (!response.ok) throw await errorOf(response);
    return decode(entry, response);
  }

  async capabilities(): Promise<Capabilities> {
    const response = await this.send(new URL(`${this.base}/v1/capabilities`), { method: "GET", headers: new Headers(this.headers) });
    if (!response.ok) throw await errorOf(response);
    return (await response.json()) as Capabilities;
  }

  /** Sends one request; an unreachable server is ServiceUnavailable (17). */
  private async send(url: URL, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, init);
    } catch (cause) {
      const reason = (cause as { cause?: { code?: string } }).cause?.code ?? (cause as Error).message;
      throw NamespaceError.of("ServiceUnavailable", `cannot reach ${this.base}: ${reason}`, { cause });
    }
  }

  async close(): Promise<void> {
    // Nothing is held open: fetch pools and releases its own connections.
  }

  private urlOf(entry: OperationEntry, request: PreparedCall["request"]): URL {
    const path = entry.path.replace(/\{(\w+)\}/g, (_match, field: string) => {
      if (field === "id") {
        const id = request.id ?? [];
        return encodeURIComponent(id.length === 0 ? this.delimiter : id.join(this.delimiter));
      }
      return encodeURIComponent(String(request[field] ?? ""));
    });
    const url = new URL(this.base + path);
    url.searchParams.set("delimiter", this.delimiter);
    for (const field of entry.query ?? []) {
      const value = request[field];
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(field, String(item));
    }
    for (const field of entry.jsonQuery ?? []) {
      const value = request[field];
      if (value !== undefined && value !== null) url.searchParams.set(field, JSON.stringify(value));
    }
    return url;
  }

  private headersOf(request: PreparedCall["request"], context: Record<string, string>): Headers {
    const headers = new Headers(this.headers);
    const identity = request.identity as { api_key?: string; auth_token?: string } | undefined;
    // A call's own identity is more specific than the connection's headers, so it wins.
    if (identity?.api_key) headers.set("x-api-key", identity.api_key);
    if (identity?.auth_token) headers.set("authorization", `Bearer ${identity.auth_token}`);
    for (const [key, value] of Object.entries(context)) headers.set(contextHeaderPrefix + key, value);
    return headers;
  }
}

/**
 * The JSON body: the request model without what travels elsewhere (identity and context as
 * headers, spec/endpoints.md §0.1 and the service description: Context; path fields the model
 * lacks, such as the transaction id, in the URL), or the bare `bodyField` value.
 */
function jsonBodyOf(entry: OperationEntry, request: PreparedCall["request"]): unknown {
  if (entry.bodyField !== undefined) return request[entry.bodyField] ?? {};
  const { identity: _identity, context: _context, ...fields } = request;
  for (const field of Object.keys(entry.pathFields ?? {})) if (!(field in entry.request.properties)) delete fields[field];
  return fields;
}

async function decode(entry: OperationEntry, response: Response): Promise<unknown> {
  if (entry.response.kind === "arrow-file") return fromIpc(new Uint8Array(await response.arrayBuffer()));
  const text = await response.text();
  if (entry.response.kind === "empty") return undefined;
  let value: unknown;
  try {
    value = text.trim() === "" ? undefined : JSON.parse(text);
  } catch (cause) {
    throw NamespaceError.of("Internal", `${entry.operationId} answered something that is not JSON: ${quote(text)}`, { cause });
  }
  if (entry.response.kind === "integer") return Number(value);
  if (entry.response.kind === "string") return String(value ?? "");
  return value ?? {};
}

/** The server's `ErrorResponse` as a NamespaceError; a body without an integer `code` is Internal (spec/errors.md §1). */
async function errorOf(response: Response): Promise<NamespaceError> {
  const text = await response.text().catch(() => "");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const fields = (body ?? {}) as { code?: unknown; error?: unknown; detail?: unknown; instance?: unknown };
  if (typeof fields.code !== "number" || !Number.isInteger(fields.code)) {
    return NamespaceError.of("Internal", `failed to parse error response: status=${response.status}, body=${quote(text)}`);
  }
  return new NamespaceError(fields.code, typeof fields.error === "string" ? fields.error : `HTTP ${response.status}`, {
    detail: typeof fields.detail === "string" ? fields.detail : undefined,
    instance: typeof fields.instance === "string" ? fields.instance : undefined,
  });
}

function quote(text: string): string {
  return text.length > quotedBodyLimit ? `${text.slice(0, quotedBodyLimit)}…` : text;
}
