/**
 * @module One structured log line per request: id (the client's x-request-id when sent),
 * method, path, status, duration. Query strings and headers are left out: they may hold secrets.
 */
import type { FastifyInstance } from "fastify";

export function registerRequestLog(app: FastifyInstance): void {
  app.addHook("onResponse", async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        path: request.url.split("?", 1)[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      "request",
    );
  });
}
