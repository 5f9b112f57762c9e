/**
 * @module Lets no client connection hold a shutdown open. When the server closes:
 * - connections no request was ever sent on are dropped (browsers open spare connections ahead
 *   of need and keep them; Node's closeIdleConnections leaves such a connection open);
 * - a request still in flight is answered with `Connection: close`, so its keep-alive connection
 *   ends with the answer instead of idling until the client lets go.
 * Over TLS the server is Node's HTTP/2 server, which closes no idle connection itself: HTTP/2
 * sessions are told to go away (GOAWAY: streams in flight finish, no new ones start), and an
 * HTTP/1.1 connection is dropped as soon as no answer is being written on it.
 */
import type { Socket } from "node:net";
import type { Http2Session } from "node:http2";
import type { TLSSocket } from "node:tls";
import type { FastifyInstance } from "fastify";
import { isHttp2 } from "./unread-body.js";

/** The answer an HTTP/1.1 connection is writing, if any (Node's own bookkeeping). */
function answering(socket: Socket): boolean {
  return Boolean((socket as Socket & { _httpMessage?: unknown })._httpMessage);
}

export function registerUnusedConnectionDrop(app: FastifyInstance): void {
  const secure = "setSecureContext" in app.server;
  const open = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  let closing = false;
  // Over TLS the decrypted socket is the one HTTP/1.1 answers are written on.
  app.server.on(secure ? "secureConnection" : "connection", (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  app.server.on("session", (session: Http2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  const closeIdle = (): void => {
    if (!secure) {
      app.server.closeIdleConnections();
      return;
    }
    for (const socket of open) if ((socket as TLSSocket).alpnProtocol !== "h2" && !answering(socket)) socket.destroy();
  };
  // preClose runs just before the server stops accepting and closes its idle connections.
  app.addHook("preClose", async () => {
    closing = true;
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
    for (const session of sessions) session.close();
    if (secure) closeIdle();
  });
  app.addHook("onSend", async (request, reply) => {
    if (closing && !isHttp2(request.raw)) reply.header("connection", "close");
  });
  // An answer whose headers went out before the close began (a streamed query) cannot carry the
  // header: its connection is closed once it is idle.
  app.addHook("onResponse", async () => {
    if (closing) setImmediate(closeIdle);
  });
}
