/**
 * HTTP/1.1 over one raw socket, for tests about what the server does to a connection: several
 * requests on the same keep-alive connection, bytes no ordinary client would send, and a
 * deadline on every answer so that a wedged connection fails the test instead of hanging it.
 */
import http from "node:http";
import net from "node:net";

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Buffer;
}

export class RawConnection {
  private buffered = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | undefined;

  private constructor(private readonly socket: net.Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.wake?.();
    });
    const end = (): void => {
      this.ended = true;
      this.wake?.();
    };
    socket.on("end", end);
    socket.on("close", end);
    socket.on("error", end);
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  /** Whether the server closed (or reset) the connection. */
  get closed(): boolean {
    return this.ended;
  }

  write(bytes: string | Uint8Array): void {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  /** Sends one request with the given head lines; a body gets its Content-Length unless a header sets framing. */
  request(method: string, path: string, options: { headers?: Record<string, string>; body?: string | Uint8Array } = {}): void {
    const headers: Record<string, string> = { host: "quiver.test", ...options.headers };
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const framed = Object.keys(headers).some((name) => /^(content-length|transfer-encoding)$/i.test(name));
    if (body && !framed) headers["content-length"] = String(body.length);
    const head = [`${method} ${path} HTTP/1.1`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)].join("\r\n");
    this.write(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body ?? Buffer.alloc(0)]));
  }

  /** The next complete response on the connection; fails after `timeoutMs` or when the connection ends first. */
  async response(timeoutMs = 5000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.takeResponse();
      if (parsed) return parsed;
      if (this.ended) throw new Error(`connection closed before a complete response (${this.buffered.length} bytes pending)`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no complete response within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** Resolves once the server has closed the connection; fails after `timeoutMs`. */
  async closedWithin(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() >= deadline) throw new Error(`connection still open after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    this.socket.destroy();
  }

  private takeResponse(): RawResponse | undefined {
    const headEnd = this.buffered.indexOf("\r\n\r\n");
    if (headEnd < 0) return undefined;
    const [statusLine, ...lines] = this.buffered.subarray(0, headEnd).toString("latin1").split("\r\n");
    const status = Number(statusLine.split(" ")[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const rest = this.buffered.subarray(headEnd + 4);
    const framing = headers["transfer-encoding"] === "chunked" ? dechunk(rest) : fixedLength(rest, Number(headers["content-length"] ?? 0));
    if (!framing) return undefined;
    this.buffered = rest.subarray(framing.consumed);
    return { status, headers, body: framing.body };
  }
}

function fixedLength(bytes: Buffer, length: number): { body: Buffer; consumed: number } | undefined {
  return bytes.length >= length ? { body: bytes.subarray(0, length), consumed: length } : undefined;
}

function dechunk(bytes: Buffer): { body: Buffer; consumed: number } | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(bytes.subarray(at, lineEnd).toString("latin1"), 16);
    const start = lineEnd + 2;
    if (size === 0) {
      const end = bytes.indexOf("\r\n\r\n", lineEnd);
      return end < 0 ? undefined : { body: Buffer.concat(parts), consumed: end + 4 };
    }
    if (bytes.length < start + size + 2) return undefined;
    parts.push(bytes.subarray(start, start + size));
    at = start + size + 2;
  }
}

/** Parses an error body, failing unless it is a JSON ErrorResponse with an integer `code`. */
export function errorBodyOf(response: RawResponse): { code: number; error?: string } {
  const text = response.body.toString("utf8");
  let body: { code?: unknown; error?: string };
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`HTTP ${response.status} answered a body that is not JSON: ${text.slice(0, 200)}`);
  }
  if (!Number.isInteger(body.code)) throw new Error(`HTTP ${response.status} answered no integer code: ${text.slice(0, 200)}`);
  return body as { code: number; error?: string };
}

/**
 * One request through `node:http` with the path sent exactly as written (fetch's URL parser would
 * resolve `..` and `%2E%2E` segments first) and any headers, Host included; resolves with the
 * status and the body as text. `agent` keeps connections alive across many requests.
 */
export function rawRequest(
  origin: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Uint8Array; agent?: http.Agent } = {},
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const request = http.request({ agent: options.agent, host: hostname, port, method, path, headers: options.headers ?? {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(options.body);
  });
}
