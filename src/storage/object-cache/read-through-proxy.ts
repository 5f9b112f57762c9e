/**
 * @module A loopback HTTP proxy between the engine and one object-store root that answers reads
 * of immutable objects (data, deletion and index files, version manifests) from the block cache
 * and sends everything else to the store unchanged. A read is split into aligned blocks; blocks
 * on disk answer at once, missing ones are fetched in one ranged request per contiguous run, and
 * a block already being fetched for another read is waited for rather than fetched twice. A
 * fetched block whose object no longer has the etag or size the cache knew (the object was
 * replaced) drops what the cache knew of it, and the read starts over. A version manifest is
 * checked against the store (a one-byte read comparing etag and size) before cached bytes answer
 * for it. A store that cannot be reached is answered 503, which the engine reports as an outage.
 */
import { Agent as HttpAgent, type IncomingMessage, type ServerResponse, createServer, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import type { BlockCache, ObjectIdentity } from "./block-cache.js";
import { type RequestKind, isCacheable, objectKindOf } from "./object-kinds.js";
import type { RoutedRequest, StoreDialect } from "./store-dialect.js";

/** What the proxy reports as it works, for metrics. */
export interface ProxyObserver {
  /** A request sent to the store, by the kind of object it reads (or `listing`), and the object or listed prefix it names. */
  storeRequest(kind: RequestKind, objectPath: string | undefined): void;
  /** Bytes of a store's answer's body. */
  received(bytes: number, objectPath: string | undefined): void;
  /** A block answered from the cache. */
  hit(bytes: number, objectPath: string): void;
  /** A block fetched from the store. */
  miss(bytes: number, objectPath: string): void;
}

export interface ReadThroughProxy {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  close(): Promise<void>;
}

/** The store's answer headers the engine reads besides the bytes; kept with an object's identity. */
const describingHeaders = ["last-modified", "content-type", "x-ms-blob-type", "x-ms-creation-time", "x-goog-generation", "x-goog-metageneration", "x-amz-version-id"];

/** Request headers that make a read something other than a plain one; such reads go to the store. */
const conditionalHeaders = ["if-match", "if-none-match", "if-modified-since", "if-unmodified-since", "x-ms-lease-id"];

class ObjectChanged extends Error {}

type ByteRange = { start: number; end: number | undefined } | { suffix: number };

/** A single `bytes=` range; undefined for none, "other" for anything the proxy does not split (several ranges, another unit). */
function parseRange(header: string | undefined): ByteRange | undefined | "other" {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return "other";
  if (match[1] === "") return { suffix: Number(match[2]) };
  return { start: Number(match[1]), end: match[2] === "" ? undefined : Number(match[2]) };
}

/** The inclusive span `range` covers in an object of `size` bytes, or undefined when it covers nothing. */
function spanOf(range: ByteRange | undefined, size: number): [number, number] | undefined {
  if (range === undefined) return size === 0 ? undefined : [0, size - 1];
  if ("suffix" in range) return range.suffix === 0 || size === 0 ? undefined : [Math.max(0, size - range.suffix), size - 1];
  if (range.start >= size) return undefined;
  return [range.start, Math.min(range.end ?? size - 1, size - 1)];
}

/** The object's size from a `Content-Range` (`bytes 0-9/1234`) or, for a whole answer, its length. */
function sizeOf(answer: IncomingMessage, body: Buffer): number | undefined {
  const range = answer.headers["content-range"];
  if (range) {
    const total = /\/(\d+)$/.exec(range)?.[1];
    return total === undefined ? undefined : Number(total);
  }
  return answer.statusCode === 200 ? body.length : undefined;
}

function startOf(answer: IncomingMessage): number {
  const range = answer.headers["content-range"];
  return range ? Number(/bytes (\d+)-/.exec(range)?.[1] ?? 0) : 0;
}

function readBody(answer: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    answer.on("data", (chunk: Buffer) => chunks.push(chunk));
    answer.on("end", () => resolve(Buffer.concat(chunks)));
    answer.on("error", reject);
  });
}

const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 64 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 64 }) };

function send(url: URL, method: string, headers: Record<string, string>, timeoutMs: number, body?: IncomingMessage): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === "https:";
    const request = (secure ? httpsRequest : httpRequest)(url, { method, headers, agent: secure ? agents.https : agents.http }, resolve);
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`the object store did not answer within ${timeoutMs} ms`)));
    request.on("error", reject);
    if (body) body.pipe(request);
    else request.end();
  });
}

/**
 * Starts the proxy for the root `dialect` speaks to, on a free loopback port. `rootPath` is the
 * root's own `container-or-bucket/prefix`: only objects under it are answered from the cache.
 */
export async function startReadThroughProxy(dialect: StoreDialect, cache: BlockCache, observer: ProxyObserver, timeoutMs: number, rootPath: string): Promise<ReadThroughProxy> {
  const blockSize = cache.blockSize;
  const rootPrefix = `${rootPath.replace(/\/+$/, "")}/`;
  const rootBucket = rootPath.split("/")[0];
  /** Blocks being fetched, by object version and block number. */
  const inflight = new Map<string, Promise<Buffer>>();
  /** Objects whose identity is being learned, by path: later readers wait for the first. */
  const learning = new Map<string, Promise<ObjectIdentity | undefined>>();

  const blockKey = (identity: ObjectIdentity, block: number) => `${identity.path}\n${identity.etag}\n${identity.size}\n${block}`;

  async function passThrough(incoming: IncomingMessage, response: ServerResponse, routed: RoutedRequest, kind: RequestKind): Promise<void> {
    const scope = routed.objectPath ?? routed.listedPrefix;
    observer.storeRequest(kind, scope);
    const method = incoming.method ?? "GET";
    const headers = await dialect.forwardHeaders(method, routed.url, incoming.headers);
    const answer = await send(routed.url, method, headers, timeoutMs, incoming);
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.on("data", (chunk: Buffer) => observer.received(chunk.length, scope));
    answer.pipe(response);
  }

  /** A ranged read of the proxy's own; its answer's body in full. */
  async function fetchRange(routed: RoutedRequest, incoming: IncomingMessage, kind: RequestKind, range: string | undefined): Promise<{ answer: IncomingMessage; body: Buffer }> {
    observer.storeRequest(kind, routed.objectPath);
    const url = dialect.fetchUrl(routed.url);
    const headers = await dialect.fetchHeaders(url, range ?? "", incoming.headers);
    if (range === undefined) delete headers.range;
    const answer = await send(url, "GET", headers, timeoutMs);
    const body = await readBody(answer);
    observer.received(body.length, routed.objectPath);
    return { answer, body };
  }

  function identityFrom(objectPath: string, answer: IncomingMessage, body: Buffer): ObjectIdentity | undefined {
    const etag = answer.headers.etag;
    const size = sizeOf(answer, body);
    if (!etag || size === undefined) return undefined;
    const headers = Object.fromEntries(describingHeaders.flatMap((name) => (typeof answer.headers[name] === "string" ? [[name, answer.headers[name] as string]] : [])));
    return { store: dialect.store, path: objectPath, etag, size, headers };
  }

  /** Keeps the whole blocks of `body` (read from `offset` of the object) and, at the object's end, the last partial one. */
  async function keepBlocks(identity: ObjectIdentity, offset: number, body: Buffer): Promise<Map<number, Buffer>> {
    const kept = new Map<number, Buffer>();
    const first = Math.ceil(offset / blockSize);
    for (let block = first; block * blockSize < offset + body.length; block += 1) {
      const from = block * blockSize - offset;
      const to = Math.min((block + 1) * blockSize, identity.size) - offset;
      if (to > body.length) break;
      kept.set(block, body.subarray(from, to));
    }
    await Promise.all([...kept].map(([block, bytes]) => cache.write(identity, block, Buffer.from(bytes))));
    return kept;
  }

  /**
   * Learns the object's identity from a read of the blocks `range` covers (or the whole object
   * when its size is needed first) and keeps what came back. Undefined when the store's answer
   * cannot key a block (no etag) or is not the object: the caller asks the store itself.
   */
  function learn(routed: RoutedRequest, incoming: IncomingMessage, kind: RequestKind, range: ByteRange | undefined): Promise<ObjectIdentity | undefined> {
    const objectPath = routed.objectPath as string;
    const pending = learning.get(objectPath);
    if (pending) return pending;
    const work = (async () => {
      const aligned = range && "start" in range && range.end !== undefined ? `bytes=${Math.floor(range.start / blockSize) * blockSize}-${(Math.floor(range.end / blockSize) + 1) * blockSize - 1}` : undefined;
      const { answer, body } = await fetchRange(routed, incoming, kind, aligned);
      if (answer.statusCode !== 200 && answer.statusCode !== 206) return undefined;
      const identity = identityFrom(objectPath, answer, body);
      if (!identity) return undefined;
      const kept = await keepBlocks(identity, startOf(answer), body);
      for (const bytes of kept.values()) observer.miss(bytes.length, objectPath);
      cache.remember(identity);
      return identity;
    })().finally(() => learning.delete(objectPath));
    learning.set(objectPath, work);
    return work;
  }

  /** Fetches blocks `first`..`last` in one ranged read, answering each block's waiters as soon as it arrives. */
  function fetchRun(identity: ObjectIdentity, first: number, last: number, routed: RoutedRequest, incoming: IncomingMessage, kind: RequestKind): void {
    const settle = new Map<number, { resolve(bytes: Buffer): void; reject(error: unknown): void }>();
    for (let block = first; block <= last; block += 1) {
      const key = blockKey(identity, block);
      const promise = new Promise<Buffer>((resolve, reject) => settle.set(block, { resolve, reject }));
      promise.catch(() => undefined);
      inflight.set(key, promise);
    }
    const release = () => {
      for (let block = first; block <= last; block += 1) inflight.delete(blockKey(identity, block));
    };
    void (async () => {
      try {
        const end = Math.min((last + 1) * blockSize, identity.size) - 1;
        const { answer, body } = await fetchRange(routed, incoming, kind, `bytes=${first * blockSize}-${end}`);
        if (answer.statusCode !== 200 && answer.statusCode !== 206) throw new ObjectChanged(`the store answered ${answer.statusCode}`);
        const fetched = identityFrom(identity.path, answer, body);
        if (!fetched || fetched.etag !== identity.etag || fetched.size !== identity.size) throw new ObjectChanged("the object was replaced");
        const offset = startOf(answer);
        for (let block = first; block <= last; block += 1) {
          const bytes = body.subarray(block * blockSize - offset, Math.min((block + 1) * blockSize, identity.size) - offset);
          observer.miss(bytes.length, identity.path);
          settle.get(block)?.resolve(bytes);
        }
        await Promise.all([...Array(last - first + 1).keys()].map((index) => {
          const block = first + index;
          return cache.write(identity, block, Buffer.from(body.subarray(block * blockSize - offset, Math.min((block + 1) * blockSize, identity.size) - offset)));
        })).catch(() => undefined);
      } catch (error) {
        for (const { reject } of settle.values()) reject(error);
      } finally {
        release();
      }
    })();
  }

  /**
   * The bytes `start`..`end` of the object when every block they span is in memory, else
   * undefined: a warm read is answered in the turn it arrived in.
   */
  function readSpanHot(identity: ObjectIdentity, start: number, end: number): Buffer[] | undefined {
    const first = Math.floor(start / blockSize);
    const last = Math.floor(end / blockSize);
    const parts: Buffer[] = [];
    for (let block = first; block <= last; block += 1) {
      const bytes = cache.readHot(identity, block);
      if (!bytes) return undefined;
      parts.push(bytes);
    }
    for (const bytes of parts) observer.hit(bytes.length, identity.path);
    return sliceSpan(parts, first, start, end);
  }

  /** The bytes `start`..`end` out of consecutive blocks from `first`: slices of the blocks, not a copy (a scan's reads are megabytes). */
  function sliceSpan(blocks: Buffer[], first: number, start: number, end: number): Buffer[] {
    return blocks.map((bytes, index) => {
      const offset = (first + index) * blockSize;
      return bytes.subarray(Math.max(0, start - offset), Math.min(bytes.length, end - offset + 1));
    });
  }

  /** The bytes `start`..`end` of the object, in order, from disk where the blocks are and the store where not. */
  async function readSpan(identity: ObjectIdentity, start: number, end: number, routed: RoutedRequest, incoming: IncomingMessage, kind: RequestKind): Promise<Buffer[]> {
    const first = Math.floor(start / blockSize);
    const last = Math.floor(end / blockSize);
    const parts = new Map<number, Buffer | Promise<Buffer>>();
    for (let block = first; block <= last; block += 1) {
      const pending = inflight.get(blockKey(identity, block));
      if (pending) parts.set(block, pending);
    }
    const onDisk = await Promise.all([...Array(last - first + 1).keys()].map((index) => (parts.has(first + index) ? undefined : cache.read(identity, first + index))));
    const missing: number[] = [];
    for (let block = first; block <= last; block += 1) {
      if (parts.has(block)) continue;
      const bytes = onDisk[block - first];
      if (bytes) {
        observer.hit(bytes.length, identity.path);
        parts.set(block, bytes);
        continue;
      }
      // Another read may have started fetching it while the disk was read.
      const pending = inflight.get(blockKey(identity, block));
      if (pending) parts.set(block, pending);
      else missing.push(block);
    }
    for (let index = 0; index < missing.length; ) {
      let next = index;
      while (next + 1 < missing.length && missing[next + 1] === (missing[next] as number) + 1) next += 1;
      fetchRun(identity, missing[index] as number, missing[next] as number, routed, incoming, kind);
      for (let block = missing[index] as number; block <= (missing[next] as number); block += 1) parts.set(block, inflight.get(blockKey(identity, block)) as Promise<Buffer>);
      index = next + 1;
    }
    const blocks = await Promise.all([...parts.entries()].sort(([a], [b]) => a - b).map(([, bytes]) => bytes));
    return sliceSpan(blocks, first, start, end);
  }

  /** The headers of every cached answer for an object version, as `writeHead` takes them: built once per version. */
  const answerHeaders = new WeakMap<ObjectIdentity, string[]>();
  function answerHeadersOf(identity: ObjectIdentity): string[] {
    let headers = answerHeaders.get(identity);
    if (!headers) {
      headers = [...Object.entries(identity.headers).flat(), "etag", identity.etag, "accept-ranges", "bytes"];
      answerHeaders.set(identity, headers);
    }
    return headers;
  }

  /** Whether the store still holds the version the cache knows of a manifest (a one-byte read). */
  async function stillCurrent(identity: ObjectIdentity, routed: RoutedRequest, incoming: IncomingMessage): Promise<boolean> {
    const { answer, body } = await fetchRange(routed, incoming, "manifest", "bytes=0-0");
    const current = answer.statusCode === 200 || answer.statusCode === 206 ? identityFrom(identity.path, answer, body) : undefined;
    return current !== undefined && current.etag === identity.etag && current.size === identity.size;
  }

  async function serveCached(incoming: IncomingMessage, response: ServerResponse, routed: RoutedRequest, kind: RequestKind): Promise<void> {
    // Azure takes its range in either header; the SDKs send `x-ms-range`.
    const range = parseRange(incoming.headers.range ?? (incoming.headers["x-ms-range"] as string | undefined));
    if (range === "other") return passThrough(incoming, response, routed, kind);
    const objectPath = routed.objectPath as string;
    let identity = cache.identityOf(dialect.store, objectPath);
    if (identity && kind === "manifest" && !(await stillCurrent(identity, routed, incoming))) {
      cache.forget(dialect.store, objectPath);
      identity = undefined;
    }
    for (let attempt = 0; attempt < 2; attempt += 1) {
      identity ??= await learn(routed, incoming, kind, range);
      if (!identity) return passThrough(incoming, response, routed, kind);
      const span = spanOf(range, identity.size);
      if (!span) return passThrough(incoming, response, routed, kind);
      let parts = readSpanHot(identity, span[0], span[1]);
      if (!parts) {
        try {
          parts = await readSpan(identity, span[0], span[1], routed, incoming, kind);
        } catch (error) {
          if (!(error instanceof ObjectChanged)) throw error;
          cache.forget(dialect.store, objectPath);
          identity = undefined;
          continue;
        }
      }
      const headers = [...answerHeadersOf(identity), "content-length", String(span[1] - span[0] + 1)];
      if (range !== undefined) headers.push("content-range", `bytes ${span[0]}-${span[1]}/${identity.size}`);
      response.writeHead(range === undefined ? 200 : 206, headers);
      if (parts.length === 1) {
        response.end(parts[0]);
        return;
      }
      response.cork();
      for (const part of parts) response.write(part);
      response.end();
      return;
    }
    return passThrough(incoming, response, routed, kind);
  }

  /**
   * Whether the request stays under this root: an object or a listed prefix under it, in a path
   * with no `.` or `..` segment (the store's URL would resolve one, reaching past the check). A
   * bucket-wide POST (S3's DeleteObjects, whose keys are in its body) is held to the root's bucket.
   */
  function isUnderRoot(routed: RoutedRequest, method: string): boolean {
    const named = routed.objectPath ?? routed.listedPrefix;
    if (named === undefined || named.split("/").some((segment) => segment === "." || segment === "..")) return false;
    if (routed.objectPath === undefined && method === "POST") return named.split("/")[0] === rootBucket;
    return named === rootPath.replace(/\/+$/, "") || named.startsWith(rootPrefix);
  }

  function isPlainRead(incoming: IncomingMessage): boolean {
    return incoming.method === "GET" && conditionalHeaders.every((name) => incoming.headers[name] === undefined);
  }

  const server = createServer((incoming, response) => {
    const routed = dialect.route(incoming.url ?? "/");
    if (!routed || (dialect.signsWithRootCredential && !isUnderRoot(routed, incoming.method ?? "GET"))) {
      response.writeHead(403, { "content-type": "text/plain" }).end("not a request this proxy serves");
      return;
    }
    const kind: RequestKind = routed.listing ? "listing" : objectKindOf(routed.objectPath ?? "");
    // Another root's objects go to the store, which judges the request's credential for them.
    const cached = isCacheable(kind) && routed.objectPath?.startsWith(rootPrefix) === true && isPlainRead(incoming) && dialect.mayServeFromCache(incoming.method ?? "GET", incoming.url ?? "/", incoming.headers);
    (cached ? serveCached(incoming, response, routed, kind) : passThrough(incoming, response, routed, kind)).catch((error: unknown) => {
      // A store that cannot be reached is an outage to the engine: a 503 it retries, then reports.
      if (!response.headersSent) {
        response.writeHead(503, { "content-type": "text/plain", "retry-after": "1" });
        response.end(`service unavailable: the object store could not be reached (${error instanceof Error ? error.message : String(error)})`);
      } else response.destroy();
    });
  });
  // Longer than the engine's HTTP client keeps an idle connection (90 s): the proxy never closes
  // one the engine is about to reuse, which would cost the engine a failed request and a retry.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
