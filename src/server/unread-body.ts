/**
 * @module What happens to a request body the handler stopped reading: a rejected Arrow upload
 * (the reader gives up at the first corrupt message), or bytes after an IPC stream's end. Node
 * leaves a body it saw being read paused, so its connection would never parse the next request
 * and a pooling client would wait forever. A remainder of known, modest length is read and
 * discarded after the answer, keeping the connection; a larger or unknown-length one is answered
 * with `Connection: close`, so the client opens a fresh connection instead of sending the rest.
 * Such a connection lingers before it closes: Node would close it as soon as the answer is out,
 * and closing a socket with unread bytes resets the connection, which a client still sending its
 * body can meet before it reads the answer. Its remainder is discarded for `lingerMs` (or until
 * the client closes) instead.
 * HTTP/2 has no such header and needs none: Node refuses the rest of a request's stream with
 * RST_STREAM NO_ERROR once the answer is complete (RFC 9113 §8.1), and the connection's other
 * streams go on.
 */
import type { IncomingMessage } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/** Past this, a fresh connection costs the client less than sending the rest of a refused body. */
export const unreadBodyDrainLimit = 8 * 1024 * 1024;

/**
 * Whether part of the body declared by the request's framing has not been read. A request without
 * a body can still look incomplete when a synchronous handler answers before Node's parser marks
 * it complete, so `complete` alone does not say it.
 */
function hasUnreadBody(raw: IncomingMessage): boolean {
  if (raw.complete) return false;
  return raw.headers["transfer-encoding"] !== undefined || Number(raw.headers["content-length"] ?? 0) > 0;
}

/** Whether the rest of this body can be read, and is known to be small enough to drain. */
function drainable(raw: IncomingMessage): boolean {
  const declared = raw.headers["content-length"];
  return !raw.destroyed && raw.headers["transfer-encoding"] === undefined && declared !== undefined && Number(declared) <= unreadBodyDrainLimit;
}

/** Reads and discards what is left of `raw`, so its connection parses the next request. */
function drain(raw: IncomingMessage): void {
  // A reader that stopped early may still listen for 'readable', which keeps the stream out of
  // flowing mode, so the rest is pulled with read() rather than resume().
  const discard = (): void => {
    while (raw.read() !== null);
  };
  raw.on("readable", discard);
  raw.once("end", () => raw.off("readable", discard));
  raw.once("error", () => raw.off("readable", discard));
  discard();
}

/** How long a closing connection keeps discarding a refused body, for its client to read the answer. */
export const lingerMs = 2000;

/** Ends `socket` after the answer without destroying it at once: its remainder is discarded until the client closes or `lingerMs` passes. */
function lingerThenClose(raw: IncomingMessage, socket: Socket): void {
  // Node ends the socket after a closing answer and destroys it once the end is flushed
  // (Socket.destroySoon); that destroy is what would reset the connection.
  socket.removeListener("finish", socket.destroy);
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), lingerMs).unref();
  socket.once("close", () => clearTimeout(timer));
  socket.once("end", () => socket.destroy());
  drain(raw);
}

/** Whether the request came over HTTP/2 (a TLS server speaks both). */
export function isHttp2(raw: IncomingMessage | Http2ServerRequest): raw is Http2ServerRequest {
  return raw.httpVersionMajor === 2;
}

export function registerUnreadBodyHandling(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply, payload) => {
    const raw = request.raw as IncomingMessage | Http2ServerRequest;
    if (!isHttp2(raw) && hasUnreadBody(raw) && !drainable(raw)) {
      reply.header("connection", "close");
      const socket = raw.socket;
      // Runs after Node's own handler of the answer's end, which has started closing the socket.
      reply.raw.once("finish", () => lingerThenClose(raw, socket));
    }
    return payload;
  });
  app.addHook("onResponse", async (request) => {
    const raw = request.raw as IncomingMessage | Http2ServerRequest;
    if (!isHttp2(raw) && hasUnreadBody(raw) && drainable(raw)) drain(raw);
  });
}
