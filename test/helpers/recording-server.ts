/**
 * A local HTTP server that records every request and answers each with what the test's handler
 * says, for checking what a client sends to a service that cannot run here.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  /** Header names in lower case. */
  headers: IncomingMessage["headers"];
  body: Buffer;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON. */
  body?: Buffer | string | object;
}

export interface RecordingServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  requests: RecordedRequest[];
  /** How the next requests are answered; 404 until a test sets it. */
  answer: (request: RecordedRequest) => Answer;
  close(): Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const state: Omit<RecordingServer, "url" | "close"> = { requests: [], answer: () => ({ status: 404 }) };
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const url = new URL(incoming.url ?? "/", "http://recorder");
      const request: RecordedRequest = {
        method: incoming.method ?? "",
        path: decodeURIComponent(url.pathname),
        query: url.searchParams,
        headers: incoming.headers,
        body: Buffer.concat(chunks),
      };
      state.requests.push(request);
      const { status, headers = {}, body } = state.answer(request);
      const isJson = body !== undefined && typeof body === "object" && !Buffer.isBuffer(body);
      const payload = isJson ? JSON.stringify(body) : (body ?? "");
      response.writeHead(status, { ...(isJson ? { "content-type": "application/json" } : {}), ...headers });
      response.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  });
}

/** The parts of a `multipart/related` body, each with its content type. */
export function multipartParts(request: RecordedRequest): { contentType: string; body: Buffer }[] {
  const boundary = /boundary="?([^";]+)"?/.exec(request.headers["content-type"] ?? "")?.[1];
  if (!boundary) throw new Error(`not a multipart body: ${request.headers["content-type"]}`);
  const text = request.body.toString("latin1");
  return text
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const [head = "", ...rest] = part.replace(/^\r\n/, "").split("\r\n\r\n");
      const contentType = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? "";
      return { contentType, body: Buffer.from(rest.join("\r\n\r\n").replace(/\r\n$/, ""), "latin1") };
    });
}
