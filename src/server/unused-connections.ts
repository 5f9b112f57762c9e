/**
 * @module Lets no client connection hold a shutdown open. When the server closes:
 * - connections no request was ever sent on are dropped (browsers open spare connections ahead
 *   of need and keep them; Node's closeIdleConnections leaves such a connection open);
 * - a request still in flight is answered with `Connection: close`, so its keep-alive connection
 *   ends with the answer instead of idling until the client lets go.
 */
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

export function registerUnusedConnectionDrop(app: FastifyInstance): void {
  const open = new Set<Socket>();
  let closing = false;
  app.server.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  // preClose runs just before the server stops accepting and closes its idle connections.
  app.addHook("preClose", async () => {
    closing = true;
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
  });
  app.addHook("onSend", async (_request, reply) => {
    if (closing) reply.header("connection", "close");
  });
  // An answer whose headers went out before the close began (a streamed query) cannot carry the
  // header: its connection is closed once it is idle.
  app.addHook("onResponse", async () => {
    if (closing) setImmediate(() => app.server.closeIdleConnections());
  });
}
