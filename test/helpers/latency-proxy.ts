/**
 * An HTTP proxy in front of an object store on loopback (Azurite, s3rver, a recording server) that
 * waits a set time before forwarding each request and records what passed: an object store a
 * region away, as users see it, and a count of the requests a read costs. Bodies stream through
 * both ways; the proxy changes nothing else.
 */
import { createServer, request as forward, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxiedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  /** The `Range` header, when the request read part of an object. */
  range: string | undefined;
  status: number;
}

export interface LatencyProxy {
  /** `http://127.0.0.1:<port>`: use it in place of the store's origin (keep the path, e.g. Azurite's account). */
  origin: string;
  /** Every request forwarded so far, in the order they were answered. */
  requests: ProxiedRequest[];
  /** Milliseconds added before each request is forwarded; may be changed at any time. */
  delayMs: number;
  /** Forgets the recorded requests (e.g. after a warm-up). */
  reset(): void;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (an origin such as `http://127.0.0.1:10000`) on a free loopback port. */
export async function startLatencyProxy(target: string, delayMs = 0): Promise<LatencyProxy> {
  const upstream = new URL(target);
  const state = { requests: [] as ProxiedRequest[], delayMs };
  const server = createServer((incoming, response) => {
    const url = new URL(incoming.url ?? "/", "http://proxy");
    const headers: IncomingHttpHeaders = { ...incoming.headers, host: upstream.host };
    setTimeout(() => {
      const outgoing = forward(
        { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers },
        (answer) => {
          state.requests.push({
            method: incoming.method ?? "GET",
            path: url.pathname,
            query: url.searchParams,
            range: incoming.headers.range,
            status: answer.statusCode ?? 0,
          });
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      outgoing.on("error", () => {
        if (!response.headersSent) response.writeHead(502);
        response.end();
      });
      incoming.pipe(outgoing);
    }, state.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value: number) {
      state.delayMs = value;
    },
    reset: () => {
      state.requests = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Listings of a table's `_versions/` folder on Azure Blob (`comp=list`) the proxy forwarded since it
 * was last reset, of the tables of `database` when given: what a look for a table's newest version
 * costs. (Other listings, such as the object cache copying a table's data folders in the
 * background, are no look for a version.)
 */
export function versionListings(proxy: LatencyProxy, database?: string): number {
  return proxy.requests.filter((request) => {
    const prefix = request.query.get("prefix") ?? "";
    return request.query.get("comp") === "list" && prefix.includes("_versions") && (database === undefined || prefix.split("/").includes(database));
  }).length;
}
