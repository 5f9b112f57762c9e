/**
 * @module One structured log line per request: id (the client's x-request-id when sent),
 * method, path, status, duration, caller and call context; a refused request's line also carries
 * the spec code and message it was answered with (a 5xx also has its own error line). Query
 * strings, headers and bodies are left out: they may hold secrets (keys and tokens never reach
 * the log).
 */
import type { FastifyInstance } from "fastify";
import { principalOf } from "./auth/auth-gate.js";
import { callContextOf } from "./call-context.js";
import { errorAnswerOf } from "./error-mapper.js";

const levelsAboveInfo = new Set(["warn", "error", "fatal", "silent"]);

export function registerRequestLog(app: FastifyInstance): void {
  app.addHook("onResponse", async (request, reply) => {
    // Below the log's level the line is not even put together.
    if (levelsAboveInfo.has(request.log.level)) return;
    const refusal = errorAnswerOf(request);
    request.log.info(
      {
        method: request.method,
        path: request.url.split("?", 1)[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        principal: principalOf(request)?.subject,
        context: callContextOf(request, request.body).context,
        ...(refusal ? { code: refusal.code, error: refusal.error } : {}),
      },
      "request",
    );
  });
}
