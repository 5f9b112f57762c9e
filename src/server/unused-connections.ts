/**
 * @module Drops connections no request was ever sent on when the server closes. Browsers open
 * spare connections ahead of need and keep them; Node's closeIdleConnections leaves such a
 * connection open, so without this a shutdown waits until the browser lets go.
 */
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

export function registerUnusedConnectionDrop(app: FastifyInstance): void {
  const open = new Set<Socket>();
  app.server.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  // preClose runs just before the server stops accepting and closes its idle connections.
  app.addHook("preClose", async () => {
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
  });
}
